/* Repeats of one test on one set-up, summarised: n, mean, sample stdev, the 95% confidence
 * interval of the mean (Student's t), median, extremes, and the one figure a table shows,
 * chosen by --repeats: the mean, the median, or the best run (highest throughput, lowest
 * latency, as CrystalDiskMark reports its best of N). */
#ifndef BL_COMPARE_STATS_H
#define BL_COMPARE_STATS_H

#include "../core/xsum.h"
#include <stddef.h>

typedef enum { BL_REP_MEAN, BL_REP_MEDIAN, BL_REP_BEST, BL_REP_ALL } bl_repeats;

typedef struct bl_stat {
    size_t n;        /* present values */
    double fig;      /* the figure shown (by bl_repeats); BL_ABSENT when n == 0 */
    double mean;     /* BL_ABSENT when n == 0 */
    double median;   /* BL_ABSENT when n == 0 or the values were not kept */
    double min, max; /* BL_ABSENT when n == 0 */
    double sd, ci;   /* sample stdev, CI half-width; BL_ABSENT when n < 2 */
    int keep;        /* set before the first value: keep every value (median, all) */
    double *v;       /* when keep: the values in record order (owned) */
    size_t cap;
    /* Running figures, so that a mean or best of a million repeats costs no memory: the
     * exact sum and sum of squares (core/xsum.h), the extremes. Exact, so the figures do
     * not depend on the order the values came in, nor on how they were summed apart and
     * merged (bl_stat_merge): repeats summed per run, or by the database, give the same. */
    bl_xsum sum, sumsq;
    double lo, hi;
} bl_stat;

/* Adds x when present (absent values are not repeats). */
void bl_stat_add(bl_stat *s, double x);
/* Adds the values of src (not finished) to dst, as if each had been added: the same
 * figures whatever the grouping. dst keeps the values (median) only if src kept them too. */
void bl_stat_merge(bl_stat *dst, const bl_stat *src);
/* Computes the summary; lower_better marks latencies (best = lowest). */
void bl_stat_finish(bl_stat *s, bl_repeats mode, int lower_better);
/* A copy of from that owns its own values and sums. */
void bl_stat_copy(bl_stat *to, const bl_stat *from);
/* Frees what s holds; s may be added to again. */
void bl_stat_free(bl_stat *s);

/* Two-sided 95% quantile of Student's t with df degrees of freedom (df >= 1). */
double bl_t95(size_t df);
/* The t with P(T > t) = p (0 < p < 1) for Student's T with df >= 1 degrees of freedom, to
 * 1e-10 relative; BL_ABSENT otherwise. */
double bl_t_upper(double p, size_t df);

/* "mean" -> BL_REP_MEAN ...; -1 when unknown. */
int bl_repeats_from_name(const char *name);
const char *bl_repeats_name(bl_repeats r);

#endif
