/* fio's numjobs=N without group_reporting: N job blocks of one job name in one group, which
 * ran at the same time. They are not N repeats of a run: each block's records are labelled
 * scope "job K/N" (comparisons keep scopes apart) and a total record is added, scope
 * "group total", as fio's group_reporting would give it: io summed, bw and iops over the
 * longest job's run time, latency means weighted by the jobs' I/O counts (stdev merged the
 * way fio merges them), min/max over the jobs; percentiles, samples and cpu, which cannot be
 * added up, are left out. Where the group's "Run status group" line is in the text and the
 * group holds nothing else, its aggregate bandwidth must agree with the total, else the
 * total is refused with that line. */
#ifndef BL_FIO_CLONES_H
#define BL_FIO_CLONES_H

#include "parser.h"

/* Finds the clones among out->recs from index run_first on (job records: with a job and a
 * group label, numjobs 1, no scope), labels them and appends their totals. status holds the
 * run's group-total records read from its "Run status group" lines (may be empty). */
void bl_fio_clone_totals(bl_parse_out *out, size_t run_first, const bl_records *status);

#endif
