/* Latency histograms as the record keeps them (bl_bin: representative ns value, count):
 * percentiles computed the way fio computes them, and merging across hosts or jobs.
 * Cluster-wide percentiles come from summed bins, never from averaged percentiles. */
#ifndef BL_LATENCY_H
#define BL_LATENCY_H

#include "record.h"

/* fio's log-linear latency histogram (stat.h): values 0..127 get a bin each, above that each
 * power of two is split into 64 bins (FIO_IO_U_PLAT_BITS = 6); 29 groups, 1856 bins (fio >=
 * 3.0, in ns). A bin's representative value is the middle of its range, as fio prints it. */
#define BL_PLAT_BITS 6
#define BL_PLAT_VAL (1u << BL_PLAT_BITS)
#define BL_PLAT_GROUP_NR 29
#define BL_PLAT_NR (BL_PLAT_GROUP_NR * BL_PLAT_VAL)

unsigned bl_plat_val_to_idx(uint64_t val);
uint64_t bl_plat_idx_to_val(unsigned idx);

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
