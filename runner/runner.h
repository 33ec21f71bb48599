/* `benchlog run`: measure a target with benchlog's own engines and produce records exactly
 * like imported ones (tool "benchlog"), ready for bl_store_import.
 *
 * Jobs come from a fio job file (job.h) or a built-in suite (suites.h). Jobs between two
 * stonewalls run at the same time, each with numjobs threads; a job's clones are reported
 * together (numjobs in the record), and group_reporting folds a whole reporting group into
 * one record per direction. Interrupting (*interrupt set, e.g. by SIGINT) stops the test
 * under way: it is dropped, the finished ones are returned, scratch files are removed. */
#ifndef BL_RUNNER_H
#define BL_RUNNER_H

#include "../core/record.h"
#include "job.h"
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct bl_run_opts {
    const char *target;          /* folder, file or block device; NULL: job's filename/dir or "." */
    bool allow_overwrite;        /* use an existing file or device */
    const bl_engine_ops *engine; /* overrides every job's ioengine; NULL keeps them */
    uint64_t size;               /* overrides size (bytes); 0 keeps the job's */
    double runtime_s;            /* overrides runtime; 0 keeps the job's */
    bool progress;               /* progress line on stdout (only when it is a terminal) */
    bool no_direct;              /* behave as on a filesystem without O_DIRECT (tests) */
    FILE *msg;                   /* one summary line per test; NULL = stderr. Errors: stderr */
    /* Notices (a job run otherwise than asked, a test file being written, the buffered
     * fallback): stderr unless quiet (-q). What changes a figure is in its record as well. */
    bool quiet;
    const volatile sig_atomic_t *interrupt;
    const char *source; /* record source ("benchlog run --suite quick") */
    const char *suite;  /* label suite= */
    size_t n_labels;    /* --label pairs, added last */
    const bl_label *labels;
    /* Job options set on every job, over its own and before size/runtime/engine (a sweep's
     * point: iodepth=4, bs=64k); checked beforehand (bl_sweep_check). */
    size_t n_sets;
    const bl_label *sets;
    /* A sweep's progress: the point ("3/8 iodepth=4 numjobs=2") before the test's name, the
     * seconds its finished points took and those the points after this one will take, so
     * that % and time left are the whole matrix's. */
    const char *progress_point;
    double progress_done_s, progress_later_s;
} bl_run_opts;

enum { BL_RUN_OK = 0, BL_RUN_FAILED = 1, BL_RUN_INTERRUPTED = 3 };

/* Runs jobs in order (phases split at stonewall) and appends records to out. Returns
 * BL_RUN_OK, BL_RUN_FAILED (message printed, finished tests kept in out) or
 * BL_RUN_INTERRUPTED. */
int bl_run_jobs(const bl_jobs *jobs, const bl_run_opts *o, bl_records *out);
/* Seconds the jobs run (ramp and runtime, phase by phase, o's --runtime applied); 0 when a job
 * runs until its bytes are done (no runtime): not known beforehand. */
double bl_jobs_seconds(const bl_jobs *jobs, const bl_run_opts *o);

#endif
