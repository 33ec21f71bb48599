/* Change points of a series in time order: E-Divisive with means.
 *
 * D. S. Matteson and N. A. James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", Journal of the American Statistical Association 109(505),
 * 2014, pp. 334-345; used with the end of the segment as the far end of the split (kappa = n)
 * as MongoDB's detector (D. Daly et al., "The Use of Change Point Detection to Identify
 * Software Performance Regressions in a Continuous Integration System", ICPE 2020) and
 * Apache Otava (formerly Hunter) do. A segment's split tau maximises
 *   Q(tau) = m k / (m + k) * (2/(m k) sum|x_i - y_j| - sum|x_i - x_i'|/C(m,2) - sum|y_j -
 * y_j'|/C(k,2)) (exponent 1) over the m points before tau and the k from it; the best split of all
 * segments is kept when a permutation test (the segment's points shuffled, the same maximum taken;
 * a seeded generator, so that a result repeats exactly) gives it p <= alpha, and the search goes on
 * in the two halves; the first split not significant ends it. Each Q of a segment of n points costs
 * O(n log n) (ranks in a Fenwick tree), so 10,000 points take well under a second
 * (bench/changepoint.c). */
#ifndef BL_COMPARE_CHANGEPOINT_H
#define BL_COMPARE_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

typedef struct bl_cp_opts {
    double alpha;   /* significance; 0 means 0.01 */
    size_t min_seg; /* fewest points a segment holds; 0 means 3 (2 is the least that works) */
    uint64_t seed;  /* of the permutations; 0 means 1 */
} bl_cp_opts;

typedef struct bl_change {
    size_t at;            /* index of the first point after the change */
    double before, after; /* means of the segments either side */
    double pct;           /* (after - before) / before * 100; BL_ABSENT when before is 0 */
    double p;             /* permutation p-value */
    int regression;       /* worse by the metric: lower throughput, higher latency */
} bl_change;

typedef struct bl_cp_result {
    int too_short; /* fewer than 2 * min_seg points: nothing was looked for */
    size_t n;      /* changes, ascending by at */
    bl_change *v;
    size_t n_perm; /* permutations per test */
} bl_cp_result;

/* Finds the changes of x[0..n) (every value present); lower_better says how the figure reads
 * (latency: 1, throughput: 0). out is set whatever happens; free with bl_cp_result_free. */
void bl_changepoints(const double *x, size_t n, const bl_cp_opts *o, int lower_better,
                     bl_cp_result *out);
void bl_cp_result_free(bl_cp_result *r);

/* Sets each change's means either side, per cent and sense from x (bl_changepoints does it
 * from the series it searched; a caller that searched a transform of x, logs, calls it again
 * with the figures themselves). */
void bl_cp_describe(const double *x, size_t n, int lower_better, bl_cp_result *out);

/* The mean of x[from..to). */
double bl_cp_mean(const double *x, size_t from, size_t to);

#endif
