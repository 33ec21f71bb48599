/* Exact sums of doubles: the sum is kept as a few non-overlapping partials (Shewchuk's,
 * as Python's math.fsum), so adding values in any order, or merging sums made apart (per
 * run, per group, in the database), gives the same bits; bl_xsum_value rounds once, to the
 * nearest double. A sum of squares is exact too (x*x kept as two doubles by fma), so a
 * variance is got from n, sum and sum of squares without the cancellation of the textbook
 * formula. Inf and NaN are summed apart, as IEEE would (then the value is that). */
#ifndef BL_XSUM_H
#define BL_XSUM_H

#include <stddef.h>

typedef struct bl_xsum {
    double *p; /* partials, increasing magnitude (owned) */
    size_t n, cap;
    double special; /* the sum of the infinite and NaN values added */
} bl_xsum;

void bl_xsum_add(bl_xsum *s, double x);
/* Adds x * x exactly (unless its low half underflows: |x| < 1e-150). */
void bl_xsum_add_sq(bl_xsum *s, double x);
/* Adds every partial of src: dst holds the exact sum of both. */
void bl_xsum_merge(bl_xsum *dst, const bl_xsum *src);
/* The sum rounded to the nearest double (ties to even). */
double bl_xsum_value(const bl_xsum *s);
/* n * sumsq - sum * sum, computed exactly and rounded once: n (n - 1) times the sample
 * variance of the n values whose sum and sum of squares these are; never below 0. */
double bl_xsum_spread(double n, const bl_xsum *sum, const bl_xsum *sumsq);
void bl_xsum_free(bl_xsum *s);

#endif
