/* Running one phase of jobs (those that run at the same time) and collecting their figures;
 * shared by job files and suites. Internal to the runner. */
#ifndef BL_RUNNER_EXEC_H
#define BL_RUNNER_EXEC_H

#include "engine.h"
#include "runner.h"
#include "suites.h"
#include "target.h"

typedef struct bl_job_result {
    bl_job job; /* the job as run (overrides applied), owned */
    bl_wstat *st;
    double runtime_s;    /* measured time, longest clone */
    double usr_s, sys_s; /* CPU of all clones */
    bool direct;         /* what was used (false after an O_DIRECT fallback) */
    bl_target *target;   /* owned by the exec; the first of files */
    bl_target **files;   /* nsets x job.nrfiles targets (the array is the result's, owned) */
    int nsets;           /* 1: the clones share the files; numjobs: clone C has set C (fio's) */
    size_t n_samples;    /* bw/IOPS each interval, both directions */
    double *t, *bw[2], *iops[2];
    uint64_t verified; /* blocks read back and found good (verify=) */
    atomic_int stop;   /* this job's workers stop: steady state reached, or the run stopped */
    bl_ss ss;          /* steady state window and verdict (job.ss.on) */
    uint64_t ss_next, ss_prev_t, ss_prev_ios, ss_prev_bytes;
    char min_rate_err[160]; /* set by the sampler when a thread fell below rate_min */
    bool done;
} bl_job_result;

typedef struct bl_exec {
    const bl_run_opts *o;
    bl_targets targets;
    atomic_int stop;
    int next_worker_id;
    uint64_t sample_ms;
    char date[32]; /* when the run started (ISO 8601 UTC): one date label for all records */
} bl_exec;

void bl_exec_init(bl_exec *ex, const bl_run_opts *o);
/* Removes scratch files. */
void bl_exec_done(bl_exec *ex);
bool bl_exec_interrupted(bl_exec *ex);

/* o's sets (a sweep's point) on j; a suite's test is named again from them. */
void bl_exec_apply_sets(const bl_run_opts *o, bl_job *j);
/* Applies the sets, --size/--runtime/--engine/--target to a copy of j. */
void bl_exec_apply_overrides(const bl_exec *ex, const bl_job *j, bl_job *out);
/* Runs n jobs together. 0 done, -1 failed (printed), 1 interrupted. res[i] must be freed with
 * bl_job_result_free even on failure. */
int bl_exec_phase(bl_exec *ex, const bl_job *jobs, size_t n, bl_job_result *res, const char *title);
void bl_job_result_free(bl_job_result *r);

/* One record per direction for the results (group = fold them all into one), appended. */
void bl_results_to_records(const bl_exec *ex, bl_job_result *res, size_t n, bool group,
                           bl_records *out);
void bl_print_summary(const bl_exec *ex, const bl_record *r, const char *suffix);

/* bl_run_jobs and bl_run_suite on an exec the caller made (a sweep runs its points on one: one
 * scratch file, laid out once). BL_RUN_OK, BL_RUN_FAILED or BL_RUN_INTERRUPTED. */
int bl_run_jobs_on(bl_exec *ex, const bl_jobs *js, bl_records *out);
int bl_run_suite_on(bl_exec *ex, const bl_suite *s, bl_records *out);

#endif
