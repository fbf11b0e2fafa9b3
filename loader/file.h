/* SPDX-License-Identifier: GPL-2.0 */
/* Moved to base/file.h; kept while daemon/ still names this path. */
#include "base/file.h"
