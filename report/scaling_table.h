/* The scaling matrix (compare/scaling.h) as tables: an aligned text table in the units people
 * read (IOPS, MB/s, µs/ms, with the repeats' 95% CI), or CSV in model units (IO/s, bytes/s,
 * ns) for spreadsheets. One row a line and x, lines in first-seen order, x ascending. */
#ifndef BL_REPORT_SCALING_TABLE_H
#define BL_REPORT_SCALING_TABLE_H

#include "../compare/scaling.h"
#include "../core/strbuf.h"

void bl_scaling_text(const bl_scaling *m, bl_strbuf *out);
void bl_scaling_csv(const bl_scaling *m, bl_strbuf *out);

#endif
