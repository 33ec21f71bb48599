/* The scaling matrix: records of one workload run at several queue depths, job counts or block
 * sizes (benchlog run --sweep, or the fio runs of a bench-fio sweep imported) as lines over the
 * swept parameter, for the scaling chart and its tables.
 *
 * x is iodepth, numjobs or bs: the first key of the records' `sweep` label that takes several
 * values, else the first of iodepth, numjobs, bs that does. Each line is one combination of
 * what else varies (the other two of them, test, op, and the `by` label when given), named by
 * it ("numjobs=2 · bs=64k"); records lacking x (-1) are left out and counted. A point holds
 * its repeats summarised (stats.h: mean, 95% CI): IOPS, bytes/s, mean latency and p99 (total
 * latency where reported, else completion; p99 from the percentiles, else the histogram, else
 * completion latency's when total latency has none, as fio prints by default). */
#ifndef BL_COMPARE_SCALING_H
#define BL_COMPARE_SCALING_H

#include "../core/record.h"
#include "stats.h"

typedef enum { BL_SCALE_IODEPTH, BL_SCALE_NUMJOBS, BL_SCALE_BS, BL_SCALE_N } bl_scale_param;

typedef struct bl_scale_point {
    int64_t x;
    bl_stat iops, bw, lat, p99; /* IO/s, bytes/s, ns, ns */
} bl_scale_point;

typedef struct bl_scale_line {
    char *name; /* what sets the line apart; "" when one line */
    size_t n;   /* points, ascending by x */
    bl_scale_point *v;
} bl_scale_line;

typedef struct bl_scaling {
    bl_scale_param x;
    size_t n; /* lines, in the records' first-seen order */
    bl_scale_line *v;
    size_t left_out; /* records without x, or without IOPS and bandwidth */
    int lat_kind;    /* of the means: 0 lat, 1 clat, 2 both kinds met */
    int p99_kind;    /* of the p99s, the same (fio prints percentiles of clat only) */
} bl_scaling;

/* 0; 1 with err when the records form no matrix (no parameter takes two values). */
int bl_scaling_build(const bl_records *recs, const char *by, bl_repeats mode, bl_scaling *out,
                     char *err, size_t errlen);
void bl_scaling_free(bl_scaling *s);
const char *bl_scale_param_name(bl_scale_param p); /* "iodepth" */

#endif
