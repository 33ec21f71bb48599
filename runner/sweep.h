/* `benchlog run --sweep 'iodepth=1,2,4,8 numjobs=1,2 bs=4k,64k'`: the same job file or suite
 * run at every combination of a few job options' values, the matrix fio-plot's bench-fio makes
 * with a wrapper script and many fio runs. Any option of the job file table (job.h) can be
 * swept; each value is checked when the spec is read, every point against every job before
 * the first runs. Points run in a stable order, the first key slowest and the last fastest
 * (iodepth=1 numjobs=1, iodepth=1 numjobs=2, iodepth=2 numjobs=1, ...); with repeats the whole
 * matrix runs again, round after round, so drift spreads over every point. All points share
 * one exec: one scratch file, laid out once. Each record carries the labels sweep (the keys,
 * "iodepth,numjobs,bs") and sweep_KEY (the point's value as given, "64k"). Interrupting keeps
 * the records of the points that finished. */
#ifndef BL_RUNNER_SWEEP_H
#define BL_RUNNER_SWEEP_H

#include "runner.h"
#include "suites.h"

typedef struct bl_sweep_param {
    char *key; /* the option's name as the user wrote it */
    size_t n;
    char **values;
} bl_sweep_param;

typedef struct bl_sweep {
    size_t n;
    bl_sweep_param *v;
    int repeats; /* runs of each point (>= 1) */
} bl_sweep;

/* "KEY=V1,V2 KEY=V1 ..." (keys separated by blanks); 0, or -1 with err ("--sweep: ..."). */
int bl_sweep_parse(const char *spec, bl_sweep *s, char *err, size_t errlen);
void bl_sweep_free(bl_sweep *s);
/* Points of one round: the product of the value counts. */
size_t bl_sweep_points(const bl_sweep *s);
/* Point i's values, one a key (s->n pairs, borrowed from s), last key fastest. */
void bl_sweep_point(const bl_sweep *s, size_t i, bl_label *out);
/* Every point applied to every job (of jobs, or of suite) and checked as a job file's are: -1
 * with err naming the point when one cannot run. */
int bl_sweep_check(const bl_sweep *s, const bl_jobs *jobs, const bl_suite *suite, char *err,
                   size_t errlen);
/* Runs the matrix (jobs, or suite when not NULL), repeats rounds; records appended to out.
 * BL_RUN_OK, BL_RUN_FAILED or BL_RUN_INTERRUPTED (the finished points' records kept). */
int bl_run_sweep(const bl_sweep *s, const bl_jobs *jobs, const bl_suite *suite,
                 const bl_run_opts *o, bl_records *out);

#endif
