#include "overview.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdlib.h>

size_t bl_overview_base(const bl_table *t)
{
    return t->baseline >= 0 ? (size_t)t->baseline : 0;
}

static int direction(const bl_row *r)
{
    bl_metric m = bl_row_main(r);
    return bl_metric_direction(m, m == BL_M_VALUE ? r->unit : NULL);
}

long bl_row_best(const bl_table *t, size_t row)
{
    const bl_row *r = &t->rows[row];
    int dir = direction(r);
    long best = -1;
    size_t have = 0, ties = 0;
    double bv = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        const bl_stat *s = bl_cell_main(r, bl_table_cell(t, row, j));
        if (!s->n || !bl_present(s->fig))
            continue;
        have++;
        if (best >= 0 && s->fig == bv)
            ties++;
        if (best < 0 || (dir > 0 ? s->fig > bv : s->fig < bv)) {
            best = (long)j;
            bv = s->fig;
            ties = 0;
        }
    }
    return have >= 2 && !ties ? best : -1;
}

void bl_overview(const bl_table *t, bl_overview_col *out)
{
    size_t base = bl_overview_base(t);
    for (size_t j = 0; j < t->ncols; j++)
        out[j] = (bl_overview_col){BL_ABSENT, 0, 0};
    double *logsum = bl_xcalloc(t->ncols + 1, sizeof *logsum);
    for (size_t i = 0; i < t->nrows; i++) {
        const bl_row *r = &t->rows[i];
        const bl_stat *b = bl_cell_main(r, bl_table_cell(t, i, base));
        long best = bl_row_best(t, i);
        if (best >= 0)
            out[best].best++;
        if (!b->n || !(b->fig > 0))
            continue;
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_stat *s = bl_cell_main(r, bl_table_cell(t, i, j));
            if (!s->n || !(s->fig > 0))
                continue;
            double ratio = direction(r) > 0 ? s->fig / b->fig : b->fig / s->fig;
            logsum[j] += log(ratio);
            out[j].n++;
        }
    }
    for (size_t j = 0; j < t->ncols; j++)
        if (out[j].n)
            out[j].geomean = exp(logsum[j] / (double)out[j].n);
    free(logsum);
}
