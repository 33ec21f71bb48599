/* `benchlog compare`: two set-ups of the comparison model (two columns of a bl_table), each
 * test both have, a figure of each side, the change in per cent, and whether the change lies
 * outside the 95% confidence intervals of the repeats (where there are repeats). */
#ifndef BL_COMPARE_DIFF_H
#define BL_COMPARE_DIFF_H

#include "../core/strbuf.h"
#include "table.h"

typedef enum { BL_DIFF_NO_REPEATS = -1, BL_DIFF_INSIDE = 0, BL_DIFF_OUTSIDE = 1 } bl_diff_ci;

typedef struct bl_diff_line {
    size_t row; /* of the table */
    bl_metric metric;
    const bl_stat *a, *b; /* borrowed from the table */
    double change_pct;    /* (b - a) / a × 100; BL_ABSENT when a is 0 */
    bl_diff_ci ci;
} bl_diff_line;

/* The lines for columns ca and cb: per common row, each metric of ms (none: the row's main
 * figure) that both cells have. out holds t->nrows × max(nm, 1) entries; returns the count.
 * Outside: the intervals of two sides with repeats do not overlap; with repeats on one side,
 * the other side's figure lies outside its interval. */
size_t bl_diff(const bl_table *t, size_t ca, size_t cb, const bl_metric *ms, size_t nm,
               bl_diff_line *out);

/* An aligned text table of the lines, or CSV with plain numbers when csv. */
void bl_diff_render(const bl_table *t, size_t ca, size_t cb, const bl_diff_line *l, size_t n,
                    int csv, bl_strbuf *out);

#endif
