#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cluster.h"
#include "support.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const bl_record *bl_test_host_rec(const bl_parse_out *o, const char *host, const char *job,
                                  const char *op)
{
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        const char *h = bl_record_label(r, "host"), *j = bl_record_label(r, "job");
        if (h && j && strcmp(h, host) == 0 && strcmp(j, job) == 0 && strcmp(r->op, op) == 0)
            return r;
    }
    fail_msg("no record host=%s job=%s op=%s", host, job, op);
    return NULL;
}

double bl_test_pct(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return BL_ABSENT;
}

static int cmp_bin(const void *a, const void *b)
{
    const bl_bin *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

double bl_test_summed_pct(const bl_lat *const *hosts, size_t n, double p)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        total += hosts[i]->n_bins;
    bl_bin *all = calloc(total, sizeof *all);
    uint64_t count = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < hosts[i]->n_bins; j++) {
            all[k++] = hosts[i]->bins[j];
            count += hosts[i]->bins[j].count;
        }
    qsort(all, total, sizeof *all, cmp_bin);
    double v = BL_ABSENT, need = p / 100.0 * (double)count;
    uint64_t run = 0;
    for (size_t i = 0; i < total; i++)
        if ((double)(run += all[i].count) >= need) {
            v = all[i].value;
            break;
        }
    free(all);
    return v;
}

int bl_test_check_cluster_pcts(const bl_record *agg, const bl_lat *const *hosts, size_t n)
{
    int differ = 0;
    assert_int_equal(agg->clat_ns.n_pct, 17);
    for (size_t i = 0; i < agg->clat_ns.n_pct; i++) {
        double p = agg->clat_ns.pct[i].pct;
        assert_double_equal(agg->clat_ns.pct[i].value, bl_test_summed_pct(hosts, n, p), 0);
        double mean = 0;
        for (size_t h = 0; h < n; h++)
            mean += bl_test_pct(hosts[h], p) / (double)n;
        differ += fabs(mean - agg->clat_ns.pct[i].value) > 0.5;
    }
    return differ;
}
