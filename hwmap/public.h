/* SPDX-License-Identifier: GPL-2.0 */
/* What include/hwxdp/image.h's opaque image holds, for the board's loads. */
#ifndef HWXDP_HWMAP_PUBLIC_H
#define HWXDP_HWMAP_PUBLIC_H

struct hxu_image;

struct hwxdp_image {
	struct hxu_image *hxu;
};

#endif /* HWXDP_HWMAP_PUBLIC_H */
