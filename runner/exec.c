#include "exec.h"
#include "../core/strbuf.h"
#include "progress.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bl_exec_init(bl_exec *ex, const bl_run_opts *o)
{
    memset(ex, 0, sizeof *ex);
    ex->o = o;
    ex->targets.allow_overwrite = o->allow_overwrite;
    ex->targets.no_direct = o->no_direct;
    atomic_init(&ex->stop, 0);
    ex->next_worker_id = 1;
    ex->sample_ms = 500;
}

void bl_exec_done(bl_exec *ex)
{
    bl_targets_cleanup(&ex->targets);
}

bool bl_exec_interrupted(bl_exec *ex)
{
    if (ex->o->interrupt && *ex->o->interrupt)
        atomic_store(&ex->stop, 1);
    return atomic_load(&ex->stop) != 0;
}

void bl_exec_apply_overrides(const bl_exec *ex, const bl_job *j, bl_job *out)
{
    const bl_run_opts *o = ex->o;
    bl_job_copy(out, j);
    if (o->size)
        out->size = o->size;
    if (o->runtime_s > 0)
        out->runtime_s = o->runtime_s;
    if (o->engine)
        bl_job_set(out, "ioengine", o->engine, (char[8]){0}, 8);
}

/* ---- workers ---- */

void bl_worker_new_pass(bl_worker *w)
{
    w->pass_left = w->nblocks;
    w->seq_next = 0;
    if (w->job->random && !w->job->norandommap) {
        uint64_t m = 1;
        while (m < w->nblocks)
            m <<= 1;
        w->perm_mask = m - 1;
        /* a = 1 mod 4 and c odd give the full period 2^k (Hull-Dobell). */
        w->perm_a = (bl_rand(&w->rng) & ~(uint64_t)3) | 1;
        w->perm_a = ((w->perm_a << 2) | 1) & w->perm_mask;
        if (w->perm_mask < 4)
            w->perm_a = 1;
        w->perm_c = (bl_rand(&w->rng) | 1) & w->perm_mask;
        w->perm_x = bl_rand(&w->rng) & w->perm_mask;
    }
}

void bl_worker_start_measuring(bl_worker *w, uint64_t now)
{
    w->measuring = true;
    w->t_measure = now;
    w->t_end = now;
    getrusage(RUSAGE_THREAD, &w->ru0);
}

void bl_worker_fail(bl_worker *w, const char *what, int err)
{
    w->err = err;
    snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", what, strerror(err));
}

int bl_maybe_fsync(bl_worker *w, bl_dir d)
{
    (void)d;
    if (!w->job->fsync_every || ++w->writes_since_fsync < (uint64_t)w->job->fsync_every)
        return 0;
    w->writes_since_fsync = 0;
    if (fsync(w->fd) != 0) {
        bl_worker_fail(w, "fsync", errno);
        return -1;
    }
    return 0;
}

typedef struct phase {
    bl_exec *ex;
    pthread_barrier_t barrier;
    uint64_t t0;
} phase;

typedef struct warg {
    phase *ph;
    bl_worker *w;
} warg;

static double tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void *worker_main(void *p)
{
    warg *a = p;
    bl_worker *w = a->w;
    const bl_job *j = w->job;
    pthread_barrier_wait(&a->ph->barrier);
    uint64_t now = bl_now_ns();
    w->t_start = now;
    w->ramp_end = now + (uint64_t)(j->ramp_time_s * 1e9);
    w->deadline = j->runtime_s > 0 ? w->ramp_end + (uint64_t)(j->runtime_s * 1e9) : UINT64_MAX;
    if (j->ramp_time_s <= 0)
        bl_worker_start_measuring(w, now);
    int rc;
    if (strcmp(j->ioengine, "libaio") == 0)
        rc = bl_engine_libaio_run(w);
    else if (strcmp(j->ioengine, "null") == 0)
        rc = bl_engine_null_run(w);
    else
        rc = bl_engine_sync_run(w);
    if (rc == 0 && j->end_fsync && j->is_write && strcmp(j->ioengine, "null") != 0) {
        if (fsync(w->fd) != 0)
            bl_worker_fail(w, "fsync", errno);
        w->t_end = bl_now_ns();
    }
    if (!w->measuring) /* stopped during the ramp: nothing measured */
        bl_worker_start_measuring(w, bl_now_ns());
    getrusage(RUSAGE_THREAD, &w->ru1);
    atomic_store(&w->finished, 1);
    return NULL;
}

static int setup_worker(bl_exec *ex, bl_job_result *r, bl_worker *w, int clone, char *err,
                        size_t errlen)
{
    const bl_job *j = &r->job;
    memset(w, 0, sizeof *w);
    w->job = j;
    w->fd = -1;
    w->id = ex->next_worker_id++;
    w->stop = &ex->stop;
    bool direct = false;
    w->fd = strcmp(j->ioengine, "null") == 0
                ? -2
                : bl_target_open(&ex->targets, r->target, j->direct, &direct, err, errlen);
    if (w->fd == -1)
        return -1;
    w->direct = direct;
    r->direct = strcmp(j->ioengine, "null") == 0 ? j->direct : direct;
    uint64_t avail = r->target->size > j->offset ? r->target->size - j->offset : 0;
    w->region = j->size && j->size < avail ? j->size : avail;
    w->nblocks = w->region / j->bs;
    if (w->nblocks == 0) {
        snprintf(err, errlen, "job '%s': size %llu is smaller than bs %llu", j->name,
                 (unsigned long long)w->region, (unsigned long long)j->bs);
        return -1;
    }
    w->to_issue = j->time_based ? UINT64_MAX : w->nblocks * (uint64_t)j->loops;
    size_t nbuf = (size_t)j->bs * (size_t)j->iodepth;
    if (posix_memalign((void **)&w->buf, 4096, nbuf) != 0)
        abort();
    /* randrepeat: the same offsets on every run of the same job, different per clone. */
    w->rng = 0x853c49e6748fea9bull ^ ((uint64_t)(clone + 1) * 0x9e3779b97f4a7c15ull);
    bl_fill_random(w->buf, nbuf, &w->rng);
    w->stamp = ((uint64_t)w->id << 48) ^ (bl_now_ns() << 8);
    w->st = bl_xcalloc(1, sizeof *w->st);
    w->logs.lat_on = j->lat_log != NULL;
    w->logs.avg_ms = (uint64_t)j->log_avg_msec;
    w->logs.rate_on = j->bw_log || j->iops_log;
    bl_worker_new_pass(w);
    return 0;
}

/* ---- the sampler: rates each interval, progress line, Ctrl-C ---- */

typedef struct sampler {
    bl_worker *w;
    size_t nw;
    bl_job_result *res;
    size_t nres;
    size_t *first;                   /* first worker of each result */
    uint64_t *last_ios, *last_bytes; /* per worker x dir */
    uint64_t last_t;
} sampler;

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

static void take_sample(sampler *s, uint64_t now, uint64_t t0, bool keep)
{
    double dt = (double)(now - s->last_t) / 1e9;
    for (size_t k = 0; k < s->nres; k++) {
        bl_job_result *r = &s->res[k];
        double bw[2] = {0, 0}, io[2] = {0, 0};
        bool any_measuring = false;
        for (size_t i = s->first[k]; i < s->first[k] + (size_t)r->job.numjobs; i++) {
            bl_worker *w = &s->w[i];
            any_measuring |= w->measuring;
            for (int d = 0; d < 2; d++) {
                uint64_t ios = atomic_load_explicit(&w->live_ios[d], memory_order_relaxed);
                uint64_t by = atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
                double b = (double)(by - s->last_bytes[i * 2 + d]) / dt;
                double o = (double)(ios - s->last_ios[i * 2 + d]) / dt;
                s->last_ios[i * 2 + d] = ios;
                s->last_bytes[i * 2 + d] = by;
                bw[d] += b;
                io[d] += o;
                bool dir_used = d == BL_DIR_READ ? r->job.is_read : r->job.is_write;
                if (keep && w->logs.rate_on && w->measuring && dir_used) {
                    uint64_t t_ms = (now - w->t_measure) / 1000000;
                    bl_log_push(&w->logs.bw, t_ms, (uint64_t)(b / 1024.0), (uint32_t)d, r->job.bs);
                    bl_log_push(&w->logs.iops, t_ms, (uint64_t)(o * dt + 0.5), (uint32_t)d,
                                r->job.bs);
                }
            }
        }
        if (keep && any_measuring)
            push_sample(r, (double)(now - t0) / 1e9 - r->job.ramp_time_s, bw, io);
    }
    s->last_t = now;
}

static void show_progress(bl_exec *ex, sampler *s, const char *title, uint64_t now, uint64_t t0)
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
            if (w->to_issue != UINT64_MAX && w->to_issue > 0) {
                double fi = (double)w->issued / (double)w->to_issue;
                f = fi > f ? fi : f;
            }
        }
        f = f > 1 ? 1 : f;
        if (f > frac) {
            frac = f;
            left = f > 0 ? el / f - el : 0;
        }
    }
    bl_progress_show(stdout, title, frac * 100, bw, iops, left);
    (void)ex;
}

static int run_sampler(bl_exec *ex, sampler *s, uint64_t t0, const char *title)
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
        bl_exec_interrupted(ex);
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
        uint64_t now = bl_now_ns();
        if (now >= next) {
            take_sample(s, now, t0, true);
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

/* ---- one phase ---- */

static void merge_results(bl_job_result *r, bl_worker *w)
{
    r->st = bl_xcalloc(1, sizeof *r->st);
    bool has_slat = strcmp(r->job.ioengine, "libaio") == 0;
    for (int i = 0; i < r->job.numjobs; i++) {
        bl_wstat *src = w[i].st;
        for (int d = 0; d < 2; d++) {
            r->st->ios[d] += src->ios[d];
            r->st->bytes[d] += src->bytes[d];
            bl_lat_acc_merge(&r->st->slat[d], &src->slat[d]);
            bl_lat_acc_merge(&r->st->clat[d], &src->clat[d]);
            bl_lat_acc_merge(&r->st->lat[d], has_slat ? &src->lat[d] : &src->clat[d]);
        }
        double rt = (double)(w[i].t_end - w[i].t_measure) / 1e9;
        r->runtime_s = rt > r->runtime_s ? rt : r->runtime_s;
        r->usr_s += tv_s(w[i].ru1.ru_utime) - tv_s(w[i].ru0.ru_utime);
        r->sys_s += tv_s(w[i].ru1.ru_stime) - tv_s(w[i].ru0.ru_stime);
    }
    r->st->has_slat = has_slat;
}

static const char *where_for(const bl_exec *ex, const bl_job *j, bl_strbuf *sb)
{
    if (ex->o->target)
        return ex->o->target;
    if (j->filename) {
        if (j->directory && j->filename[0] != '/')
            bl_strbuf_printf(sb, "%s/%s", j->directory, j->filename);
        else
            bl_strbuf_puts(sb, j->filename);
        return sb->s;
    }
    return j->directory ? j->directory : ".";
}

static int prepare_targets(bl_exec *ex, bl_job_result *res, size_t n, char *err, size_t errlen)
{
    for (size_t k = 0; k < n; k++) {
        bl_job *j = &res[k].job;
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        const char *where = where_for(ex, j, &sb);
        const char *key = ex->o->suite ? ex->o->suite : j->name;
        uint64_t need = j->size ? j->offset + j->size : 0;
        if (strcmp(j->ioengine, "null") == 0 && need == 0)
            need = 1u << 20;
        bool null = strcmp(j->ioengine, "null") == 0;
        /* The null engine touches no file: it only needs a size to count blocks in. */
        res[k].target = null ? bl_target_none(&ex->targets, need)
                             : bl_target_get(&ex->targets, where, key, need, err, errlen);
        bl_strbuf_free(&sb);
        if (!res[k].target)
            return -1;
        if (!null && bl_target_layout(res[k].target, &ex->stop, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int bl_exec_phase(bl_exec *ex, const bl_job *jobs, size_t n, bl_job_result *res, const char *title)
{
    char err[512] = "";
    FILE *msg = stderr;
    size_t nw = 0;
    for (size_t k = 0; k < n; k++) {
        memset(&res[k], 0, sizeof res[k]);
        bl_exec_apply_overrides(ex, &jobs[k], &res[k].job);
        nw += (size_t)res[k].job.numjobs;
    }
    if (prepare_targets(ex, res, n, err, sizeof err) != 0) {
        if (bl_exec_interrupted(ex))
            return 1;
        fprintf(msg, "benchlog run: %s\n", err);
        return -1;
    }
    bl_worker *w = bl_xcalloc(nw, sizeof *w);
    size_t *first = bl_xcalloc(n, sizeof *first);
    int rc = 0;
    size_t made = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        first[k] = made;
        for (int c = 0; c < res[k].job.numjobs && rc == 0; c++, made++)
            if (setup_worker(ex, &res[k], &w[made], c, err, sizeof err) != 0)
                rc = -1;
    }
    if (rc == 0) {
        phase ph = {.ex = ex};
        pthread_barrier_init(&ph.barrier, NULL, (unsigned)nw + 1);
        pthread_t *th = bl_xcalloc(nw, sizeof *th);
        warg *args = bl_xcalloc(nw, sizeof *args);
        for (size_t i = 0; i < nw; i++) {
            args[i] = (warg){&ph, &w[i]};
            if (pthread_create(&th[i], NULL, worker_main, &args[i]) != 0)
                abort();
        }
        pthread_barrier_wait(&ph.barrier);
        uint64_t t0 = bl_now_ns();
        sampler s = {.w = w, .nw = nw, .res = res, .nres = n, .first = first};
        s.last_ios = bl_xcalloc(nw * 2, sizeof *s.last_ios);
        s.last_bytes = bl_xcalloc(nw * 2, sizeof *s.last_bytes);
        int sr = run_sampler(ex, &s, t0, title);
        for (size_t i = 0; i < nw; i++)
            pthread_join(th[i], NULL);
        /* The tail since the last full interval, kept when it is at least half of one. */
        uint64_t now = bl_now_ns();
        if (now - s.last_t >= ex->sample_ms * 500000)
            take_sample(&s, now, t0, true);
        pthread_barrier_destroy(&ph.barrier);
        free(s.last_ios);
        free(s.last_bytes);
        free(th);
        free(args);
        for (size_t i = 0; i < nw && rc == 0; i++)
            if (w[i].err) {
                snprintf(err, sizeof err, "job '%s': %s", w[i].job->name, w[i].errmsg);
                rc = -1;
            }
        if (rc == 0 && sr)
            rc = 1;
        for (size_t k = 0; k < n && rc == 0; k++) {
            merge_results(&res[k], &w[first[k]]);
            res[k].done = true;
        }
        for (size_t i = 0; i < nw && rc == 0; i++) {
            const bl_job *j = w[i].job;
            if (bl_iolog_write(&w[i].logs, j->lat_log, j->bw_log, j->iops_log, w[i].id, err,
                               sizeof err) != 0)
                rc = -1;
        }
    }
    if (rc == -1)
        fprintf(msg, "benchlog run: %s\n", err);
    for (size_t i = 0; i < made; i++) {
        if (w[i].fd >= 0)
            close(w[i].fd);
        free(w[i].buf);
        free(w[i].st);
        bl_iolog_free(&w[i].logs);
    }
    free(w);
    free(first);
    return rc;
}

void bl_job_result_free(bl_job_result *r)
{
    bl_job_free(&r->job);
    free(r->st);
    free(r->t);
    for (int d = 0; d < 2; d++) {
        free(r->bw[d]);
        free(r->iops[d]);
    }
    memset(r, 0, sizeof *r);
}
