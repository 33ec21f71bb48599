/* The summary of a comparison, as the Phoronix Test Suite gives it: for each set-up the
 * geometric mean of its ratios to a baseline set-up over the tests both have (each ratio
 * turned by the figure's direction so that above 1 is better: MB/s over the baseline's,
 * the baseline's latency over its latency), with how many tests it spans; and per test the
 * set-up with the best main figure. And the set-ups' own descriptions side by side. */
#ifndef BL_COMPARE_OVERVIEW_H
#define BL_COMPARE_OVERVIEW_H

#include "table.h"

typedef struct bl_overview_col {
    double geomean; /* BL_ABSENT when no test is shared with the baseline */
    size_t n;       /* tests both have */
    size_t best;    /* tests where this set-up has the best figure */
} bl_overview_col;

/* The baseline: t->baseline, else the first column. out holds t->ncols entries. */
size_t bl_overview_base(const bl_table *t);
void bl_overview(const bl_table *t, bl_overview_col *out);
/* The column with the best main figure of row (by direction), -1 when fewer than two
 * set-ups have it or the best is shared. */
long bl_row_best(const bl_table *t, size_t row);

#endif
