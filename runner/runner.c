/* bl_run_jobs: a job file's jobs, phase by phase (stonewall), into records. */
#include "runner.h"
#include "../core/strbuf.h"
#include "exec.h"
#include <stdlib.h>

/* Jobs [k, end) of one phase: up to the next stonewall. */
static size_t phase_end(const bl_jobs *js, size_t k)
{
    size_t e = k + 1;
    while (e < js->n && !js->v[e].stonewall)
        e++;
    return e;
}

static void report_phase(const bl_exec *ex, bl_job_result *res, size_t n, bl_records *out)
{
    size_t before = out->n;
    for (size_t g = 0; g < n;) {
        /* A reporting group ends where the next new_group starts. */
        size_t e = g + 1;
        while (e < n && !res[e].job.new_group)
            e++;
        bool fold = false;
        for (size_t i = g; i < e; i++)
            fold |= res[i].job.group_reporting;
        bl_results_to_records(ex, res + g, e - g, fold && e - g > 1, out);
        g = e;
    }
    for (size_t i = before; i < out->n; i++)
        bl_print_summary(ex, out->v[i], NULL);
}

int bl_run_jobs(const bl_jobs *js, const bl_run_opts *o, bl_records *out)
{
    bl_exec ex;
    bl_exec_init(&ex, o);
    int status = bl_run_jobs_on(&ex, js, out);
    bl_exec_done(&ex);
    return status;
}

int bl_run_jobs_on(bl_exec *ex, const bl_jobs *js, bl_records *out)
{
    int status = BL_RUN_OK;
    for (size_t k = 0; k < js->n && status == BL_RUN_OK;) {
        size_t e = phase_end(js, k);
        bl_job_result *res = bl_xcalloc(e - k, sizeof *res);
        int rc = bl_exec_phase(ex, js->v + k, e - k, res, js->v[k].name);
        if (rc == 0)
            report_phase(ex, res, e - k, out);
        else
            status = rc > 0 ? BL_RUN_INTERRUPTED : BL_RUN_FAILED;
        for (size_t i = 0; i < e - k; i++)
            bl_job_result_free(&res[i]);
        free(res);
        k = e;
    }
    return status;
}

double bl_jobs_seconds(const bl_jobs *js, const bl_run_opts *o)
{
    double all = 0;
    for (size_t k = 0; k < js->n;) {
        size_t e = phase_end(js, k);
        double longest = 0;
        for (size_t i = k; i < e; i++) {
            const bl_job *j = &js->v[i];
            double run = o && o->runtime_s > 0 ? o->runtime_s : j->runtime_s;
            if (run <= 0)
                return 0; /* a job that runs until its bytes are done: unknown */
            double t = j->ramp_time_s + run;
            longest = t > longest ? t : longest;
        }
        all += longest;
        k = e;
    }
    return all;
}
