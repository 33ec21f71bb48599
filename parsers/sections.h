/* Labels from the text around a result: the nearest heading or caption above a block. */
#ifndef BL_SECTIONS_H
#define BL_SECTIONS_H

#include "../core/text.h"

/* The heading that stands above line `line` (1-based), in a static-lifetime-free copy the
 * caller frees, or NULL when there is none. `stop_line` is the lowest line to look at
 * (1-based; headings above it belong to an earlier block). */
char *bl_heading_above(const bl_text *t, long line, long stop_line);

#endif
