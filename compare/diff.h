/* `benchlog compare`: two set-ups of the comparison model (two columns of a bl_table), each
 * test both have, a figure of each side, the change in per cent, and whether the change lies
 * outside the 95% confidence intervals of the repeats (where there are repeats). */
#ifndef BL_COMPARE_DIFF_H
#define BL_COMPARE_DIFF_H

#include "../core/strbuf.h"
#include "table.h"

typedef enum { BL_DIFF_NO_REPEATS = -1, BL_DIFF_INSIDE = 0, BL_DIFF_OUTSIDE = 1 } bl_diff_ci;

/* What a change means, by the metric's direction (table.h): better, worse, the same figure,
 * or a change inside the 95% intervals of the repeats ("within noise"). Without repeats the
 * change is better or worse as printed; the CI column says none judged the noise. */
typedef enum { BL_WORSE = -1, BL_SAME = 0, BL_BETTER = 1, BL_NOISE = 2 } bl_verdict;

/* Whether b lies outside a's interval, or theirs do not overlap (see bl_diff). */
bl_diff_ci bl_diff_ci_test(const bl_stat *a, const bl_stat *b);
/* The verdict on going from a to b for a metric of direction dir (+1 higher is better). */
bl_verdict bl_diff_verdict(const bl_stat *a, const bl_stat *b, int dir);
/* "better", "worse", "same", "within noise"; arrows: "▲", "▼", "=", "~". */
const char *bl_verdict_word(bl_verdict v);
const char *bl_verdict_arrow(bl_verdict v);
/* --baseline: the verdict on column col's main figure of row against the baseline column's;
 * BL_SAME when there is no baseline or either figure is missing. */
bl_verdict bl_baseline_verdict(const bl_table *t, size_t row, size_t col);

typedef struct bl_diff_line {
    size_t row; /* of the table */
    bl_metric metric;
    const bl_stat *a, *b; /* borrowed from the table */
    double change_pct;    /* (b - a) / a × 100; BL_ABSENT when a is 0 */
    bl_diff_ci ci;
    bl_verdict verdict;
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
