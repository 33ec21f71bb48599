/* The sampler of a phase (the thread that started the workers): bw and IOPS every interval
 * per job (all clones summed), the progress line, Ctrl-C, and the once-a-second checks that
 * stop a job (steady state). Internal to the runner. */
#ifndef BL_RUNNER_SAMPLER_H
#define BL_RUNNER_SAMPLER_H

#include "exec.h"

typedef struct bl_sampler {
    bl_worker *w;
    size_t nw;
    bl_job_result *res;
    size_t nres;
    size_t *first;                   /* first worker of each result */
    uint64_t *last_ios, *last_bytes; /* per worker x dir */
    uint64_t last_t;
} bl_sampler;

/* Samples until every worker has finished; 0, or 1 when the run was interrupted. */
int bl_sampler_run(bl_exec *ex, bl_sampler *s, uint64_t t0, const char *title);
/* The last, partial interval (see sampler.c). */
void bl_sampler_tail(bl_exec *ex, bl_sampler *s, uint64_t t0);

#endif
