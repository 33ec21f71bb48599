/* Latency histograms as the record keeps them (bl_bin: representative ns value, count):
 * percentiles computed the way fio computes them, and merging across hosts or jobs.
 * Cluster-wide percentiles come from summed bins, never from averaged percentiles. */
#ifndef BL_LATENCY_H
#define BL_LATENCY_H

#include "record.h"

/* fio's default percentile list (stat.c): 1 5 10 20 30 40 50 60 70 80 90 95 99 99.5 99.9
 * 99.95 99.99. */
extern const double bl_fio_default_pcts[];
extern const size_t bl_fio_default_npcts;

/* For each pcts[i], the value of the first bin whose cumulative count reaches
 * pcts[i]/100 * total (fio's rule); BL_ABSENT when the histogram is empty. */
void bl_bins_percentiles(const bl_bin *bins, size_t n, const double *pcts, size_t npcts,
                         double *out);

/* Adds src's bins into dst (same value: counts summed), keeping dst ascending. */
void bl_lat_merge_bins(bl_lat *dst, const bl_lat *src);

/* Replaces l's percentiles with those computed from its bins (fio's default list). */
void bl_lat_percentiles_from_bins(bl_lat *l);

/* Total count of l's bins. */
uint64_t bl_lat_bin_total(const bl_lat *l);

#endif
