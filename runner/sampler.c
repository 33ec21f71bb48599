#include "sampler.h"
#include "../core/strbuf.h"
#include "progress.h"
#include <time.h>

static void push_sample(bl_job_result *r, double t, const double bw[2], const double io[2])
{
    size_t n = r->n_samples + 1;
    r->t = bl_xrealloc(r->t, n * sizeof *r->t);
    for (int d = 0; d < 2; d++) {
        r->bw[d] = bl_xrealloc(r->bw[d], n * sizeof *r->bw[d]);
        r->iops[d] = bl_xrealloc(r->iops[d], n * sizeof *r->iops[d]);
        r->bw[d][n - 1] = bw[d];
        r->iops[d][n - 1] = io[d];
    }
    r->t[n - 1] = t;
    r->n_samples = n;
}

static void take_sample(bl_sampler *s, uint64_t now, uint64_t t0)
{
    double dt = (double)(now - s->last_t) / 1e9;
    for (size_t k = 0; k < s->nres; k++) {
        bl_job_result *r = &s->res[k];
        double bw[2] = {0, 0}, io[2] = {0, 0};
        bool any_measuring = false;
        for (size_t i = s->first[k]; i < s->first[k] + (size_t)r->job.numjobs; i++) {
            bl_worker *w = &s->w[i];
            uint64_t tm = atomic_load_explicit(&w->live_t_measure, memory_order_acquire);
            any_measuring |= tm != 0;
            uint64_t live_ios[2], live_bytes[2];
            bl_worker_live(w, live_ios, live_bytes);
            for (int d = 0; d < 2; d++) {
                uint64_t ios = live_ios[d], by = live_bytes[d];
                double b = (double)(by - s->last_bytes[i * 2 + d]) / dt;
                double o = (double)(ios - s->last_ios[i * 2 + d]) / dt;
                s->last_ios[i * 2 + d] = ios;
                s->last_bytes[i * 2 + d] = by;
                bw[d] += b;
                io[d] += o;
                bool dir_used = d == BL_DIR_READ ? r->job.is_read : r->job.is_write;
                if (w->logs.rate_on && tm && dir_used) {
                    uint64_t t_ms = (now - tm) / 1000000;
                    bl_log_push(&w->logs.bw, t_ms, (uint64_t)(b / 1024.0), (uint32_t)d, r->job.bs);
                    bl_log_push(&w->logs.iops, t_ms, (uint64_t)(o * dt + 0.5), (uint32_t)d,
                                r->job.bs);
                }
            }
        }
        if (any_measuring)
            push_sample(r, (double)(now - t0) / 1e9 - r->job.ramp_time_s, bw, io);
    }
    s->last_t = now;
}

static void show_progress(bl_exec *ex, bl_sampler *s, const char *title, uint64_t now, uint64_t t0)
{
    double frac = 0, bw = 0, iops = 0, left = 0;
    for (size_t k = 0; k < s->nres; k++) {
        bl_job_result *r = &s->res[k];
        if (r->n_samples) {
            for (int d = 0; d < 2; d++) {
                bw += r->bw[d][r->n_samples - 1];
                iops += r->iops[d][r->n_samples - 1];
            }
        }
        double el = (double)(now - t0) / 1e9;
        double tot = r->job.ramp_time_s + r->job.runtime_s;
        double f = 0;
        if (r->job.runtime_s > 0)
            f = el / tot;
        for (size_t i = s->first[k]; i < s->first[k] + (size_t)r->job.numjobs; i++) {
            bl_worker *w = &s->w[i];
            if (w->planned != UINT64_MAX && w->planned > 0) {
                uint64_t done = atomic_load_explicit(&w->live_ios[0], memory_order_relaxed) +
                                atomic_load_explicit(&w->live_ios[1], memory_order_relaxed);
                double fi = (double)done / (double)w->planned;
                f = fi > f ? fi : f;
            }
        }
        f = f > 1 ? 1 : f;
        if (f > frac) {
            frac = f;
            left = f > 0 ? el / f - el : 0;
        }
    }
    const bl_run_opts *o = ex->o;
    if (!o->progress_point) {
        bl_progress_show(stdout, title, frac * 100, bw, iops, left);
        return;
    }
    /* A sweep: the whole matrix's share done and time left. */
    double el = (double)(now - t0) / 1e9, done = o->progress_done_s + el;
    double all_left = (frac > 0 ? left : 0) + o->progress_later_s, pct = 0;
    if (done + all_left > 0)
        pct = done / (done + all_left) * 100;
    char what[160];
    snprintf(what, sizeof what, "%s %s", o->progress_point, title ? title : "");
    bl_progress_show(stdout, what, pct, bw, iops, all_left);
}

/* Once a second per job with ss=: its IOPS or bandwidth since the last second into the
 * window (from one second after ss_ramp, as fio); its workers stop when it is steady. */
static void steady_tick(bl_sampler *s, uint64_t now, uint64_t t0)
{
    for (size_t k = 0; k < s->nres; k++) {
        bl_job_result *r = &s->res[k];
        const bl_ss_opts *o = &r->job.ss;
        if (!o->on || r->ss.attained || now < r->ss_next)
            continue;
        uint64_t ios = 0, bytes = 0;
        for (size_t i = s->first[k]; i < s->first[k] + (size_t)r->job.numjobs; i++) {
            uint64_t li[2], lb[2];
            bl_worker_live(&s->w[i], li, lb);
            ios += li[0] + li[1];
            bytes += lb[0] + lb[1];
        }
        double dt = (double)(now - r->ss_prev_t) / 1e9;
        double el = (double)(now - t0) / 1e9;
        if (r->ss_prev_t && el >= o->ramp_s + 1.0 && dt > 0) {
            double v = o->bw ? (double)(bytes - r->ss_prev_bytes) / dt
                             : (double)(ios - r->ss_prev_ios) / dt;
            if (bl_ss_add(&r->ss, o, v, el))
                atomic_store(&r->stop, 1);
        }
        r->ss_prev_t = now;
        r->ss_prev_ios = ios;
        r->ss_prev_bytes = bytes;
        r->ss_next = (r->ss_next ? r->ss_next : t0) + 1000000000ull;
    }
}

/* rate_min / rate_iops_min as fio's check_min_rate: every thread, each second after its first
 * measured one (fio's ratecycle, 1000 ms), must have done at least that much; else the job
 * stops and fails saying by how much. */
static void min_rate_tick(bl_sampler *s, uint64_t now)
{
    for (size_t k = 0; k < s->nres; k++) {
        bl_job_result *r = &s->res[k];
        const bl_job *j = &r->job;
        if ((!j->rate_min_bps && !j->rate_iops_min) || r->min_rate_err[0])
            continue;
        for (size_t i = s->first[k]; i < s->first[k] + (size_t)j->numjobs; i++) {
            bl_worker *w = &s->w[i];
            uint64_t tm = atomic_load_explicit(&w->live_t_measure, memory_order_acquire);
            if (!tm || atomic_load(&w->finished))
                continue;
            uint64_t li[2], lb[2];
            bl_worker_live(w, li, lb);
            uint64_t ios = li[0] + li[1], bytes = lb[0] + lb[1];
            bool judge = w->mr_t && now >= w->mr_t + 1000000000ull;
            if (judge) {
                double dt = (double)(now - w->mr_t) / 1e9;
                double iops = (double)(ios - w->mr_ios) / dt;
                double bw = (double)(bytes - w->mr_bytes) / dt;
                double at = (double)(now - tm) / 1e9;
                if (j->rate_min_bps && bw < (double)j->rate_min_bps)
                    snprintf(r->min_rate_err, sizeof r->min_rate_err,
                             "rate_min %llu bytes/s not met: %.0f bytes/s in the second to "
                             "%.1f s",
                             (unsigned long long)j->rate_min_bps, bw, at);
                else if (j->rate_iops_min && iops < j->rate_iops_min)
                    snprintf(r->min_rate_err, sizeof r->min_rate_err,
                             "rate_iops_min %d not met: %.0f IOPS in the second to %.1f s",
                             j->rate_iops_min, iops, at);
                if (r->min_rate_err[0]) {
                    atomic_store(&r->stop, 1);
                    break;
                }
            }
            /* the first second is not judged, as in fio; then one second after another */
            if (judge || (!w->mr_t && now >= tm + 1000000000ull)) {
                w->mr_t = now;
                w->mr_ios = ios;
                w->mr_bytes = bytes;
            }
        }
    }
}

int bl_sampler_run(bl_exec *ex, bl_sampler *s, uint64_t t0, const char *title)
{
    bool progress = ex->o->progress && bl_progress_enabled(stdout);
    uint64_t tick = ex->sample_ms * 1000000, next = t0 + tick;
    s->last_t = t0;
    for (;;) {
        bool all = true;
        for (size_t i = 0; i < s->nw; i++)
            all &= atomic_load(&s->w[i].finished) != 0;
        if (all)
            break;
        if (bl_exec_interrupted(ex))
            for (size_t k = 0; k < s->nres; k++)
                atomic_store(&s->res[k].stop, 1);
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
        uint64_t now = bl_now_ns();
        steady_tick(s, now, t0);
        min_rate_tick(s, now);
        if (now >= next) {
            take_sample(s, now, t0);
            next += tick;
            if (next <= now)
                next = now + tick;
            if (progress)
                show_progress(ex, s, title, now, t0);
        }
    }
    if (progress)
        bl_progress_clear(stdout);
    return bl_exec_interrupted(ex) ? 1 : 0;
}

/* The tail since the last full interval is kept when it is at least half of one, or when it
 * is all there is (a job shorter than an interval still gets its one sample). Its rate runs
 * up to the last completion, not up to the joins. */
void bl_sampler_tail(bl_exec *ex, bl_sampler *s, uint64_t t0)
{
    uint64_t now = s->last_t + 1;
    for (size_t i = 0; i < s->nw; i++)
        now = s->w[i].t_end > now ? s->w[i].t_end : now;
    bool none = true;
    for (size_t k = 0; k < s->nres; k++)
        none &= s->res[k].n_samples == 0;
    if (none || now - s->last_t >= ex->sample_ms * 500000)
        take_sample(s, now, t0);
}
