/* Latency and rate statistics in fio's layout, so that our figures read like fio's.
 *
 * The latency histogram is fio's log-linear one (stat.h): values 0..127 ns get a bucket each,
 * above that each power of two is split into 64 buckets (FIO_IO_U_PLAT_BITS = 6), 29 groups,
 * 1856 buckets; the representative value of a bucket is the middle of its range. Percentiles
 * are read from it as fio does (the first bucket whose running count reaches p% of samples).
 * min/max/mean/stdev are exact (sums in 128-bit integers), not taken from the histogram. */
#ifndef BL_RUNNER_STATS_H
#define BL_RUNNER_STATS_H

#include "../core/latency.h"
#include "../core/record.h"
#include <stddef.h>
#include <stdint.h>

/* One latency figure (slat, clat or lat) of one direction. */
typedef struct bl_lat_acc {
    uint64_t n, min, max, sum;
    unsigned __int128 sum_sq;
    uint64_t plat[BL_PLAT_NR];
} bl_lat_acc;

void bl_lat_acc_reset(bl_lat_acc *a);
static inline void bl_lat_acc_add(bl_lat_acc *a, uint64_t ns)
{
    if (a->n == 0 || ns < a->min)
        a->min = ns;
    if (ns > a->max)
        a->max = ns;
    a->n++;
    a->sum += ns;
    a->sum_sq += (unsigned __int128)ns * ns;
    a->plat[bl_plat_val_to_idx(ns)]++;
}
void bl_lat_acc_merge(bl_lat_acc *dst, const bl_lat_acc *src);
/* Fills l (min/max/mean/stdev, the default percentiles, non-empty bins); nothing when n == 0.
 * stdev is the sample standard deviation (n-1), as fio's. */
void bl_lat_acc_to_record(const bl_lat_acc *a, bl_lat *l);
/* The p-th percentile as fio computes it; 0 when empty. */
uint64_t bl_lat_acc_percentile(const bl_lat_acc *a, double p);

/* min/max/mean/stdev of n sampled values (bw or IOPS each 500 ms). */
void bl_samples_from(const double *v, size_t n, bl_samples *s);

#endif
