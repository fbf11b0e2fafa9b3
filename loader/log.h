/* SPDX-License-Identifier: GPL-2.0 */
/* Moved to base/log.h; kept while daemon/ still names this path. */
#include "base/log.h"
