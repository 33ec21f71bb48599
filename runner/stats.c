#include "stats.h"
#include <math.h>
#include <string.h>

void bl_lat_acc_reset(bl_lat_acc *a)
{
    memset(a, 0, sizeof *a);
}

void bl_lat_acc_merge(bl_lat_acc *dst, const bl_lat_acc *src)
{
    if (src->n == 0)
        return;
    if (dst->n == 0 || src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    dst->n += src->n;
    dst->sum += src->sum;
    dst->sum_sq += src->sum_sq;
    for (unsigned i = 0; i < BL_PLAT_NR; i++)
        dst->plat[i] += src->plat[i];
}

uint64_t bl_lat_acc_percentile(const bl_lat_acc *a, double p)
{
    if (a->n == 0)
        return 0;
    long double want = (long double)p / 100.0L * (long double)a->n;
    uint64_t sum = 0;
    for (unsigned i = 0; i < BL_PLAT_NR; i++) {
        sum += a->plat[i];
        if ((long double)sum >= want && sum > 0)
            return bl_plat_idx_to_val(i);
    }
    return bl_plat_idx_to_val(BL_PLAT_NR - 1);
}

void bl_lat_acc_to_record(const bl_lat_acc *a, bl_lat *l)
{
    if (a->n == 0)
        return;
    l->present = true;
    l->min = (double)a->min;
    l->max = (double)a->max;
    double n = (double)a->n;
    l->mean = (double)a->sum / n;
    if (a->n > 1) {
        /* n*sum_sq - sum^2 is exact in 128 bits for any realistic run. */
        unsigned __int128 s = a->sum;
        unsigned __int128 num = (unsigned __int128)a->n * a->sum_sq - s * s;
        l->stdev = sqrt((double)num / (n * (n - 1)));
    } else
        l->stdev = 0;
    /* One pass over the buckets gives every percentile, as fio's calc_clat_percentiles. */
    size_t j = 0;
    uint64_t sum = 0;
    for (unsigned i = 0; i < BL_PLAT_NR && j < bl_fio_default_npcts; i++) {
        sum += a->plat[i];
        while (j < bl_fio_default_npcts &&
               (long double)sum >= (long double)bl_fio_default_pcts[j] / 100.0L * n) {
            bl_lat_add_pct(l, bl_fio_default_pcts[j], (double)bl_plat_idx_to_val(i));
            j++;
        }
    }
    for (unsigned i = 0; i < BL_PLAT_NR; i++)
        if (a->plat[i])
            bl_lat_add_bin(l, (double)bl_plat_idx_to_val(i), a->plat[i]);
}

void bl_samples_from(const double *v, size_t n, bl_samples *s)
{
    if (n == 0)
        return;
    double sum = 0, mn = v[0], mx = v[0];
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
    }
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    s->present = true;
    s->min = mn;
    s->max = mx;
    s->mean = mean;
    s->stdev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    s->count = (int64_t)n;
}
