#include "exec.h"
#include "sampler.h"
#include "suites.h"
#include "../core/strbuf.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void bl_exec_init(bl_exec *ex, const bl_run_opts *o)
{
    memset(ex, 0, sizeof *ex);
    ex->o = o;
    ex->targets.allow_overwrite = o->allow_overwrite;
    ex->targets.no_direct = o->no_direct;
    ex->targets.msg = o->quiet ? NULL : stderr;
    atomic_init(&ex->stop, 0);
    ex->next_worker_id = 1;
    ex->sample_ms = 500;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ex->date, sizeof ex->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
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

/* A sweep's point. A suite's test is named again from what it runs, and picks its engine by
 * the suite's rule (sync at QD1, libaio deeper) unless the point or --engine names one. */
void bl_exec_apply_sets(const bl_run_opts *o, bl_job *out)
{
    bool engine_set = false;
    for (size_t i = 0; i < o->n_sets; i++) {
        char err[256];
        if (bl_job_set(out, o->sets[i].key, o->sets[i].value, err, sizeof err) != 0)
            fprintf(stderr, "benchlog run: %s\n", err); /* bl_sweep_parse took each already */
        engine_set |= strcmp(o->sets[i].key, "ioengine") == 0;
    }
    if (!o->n_sets || !out->cdm_test)
        return;
    if (!engine_set)
        out->engine = bl_engine_find(out->iodepth > 1 ? "libaio" : "sync");
    bl_suite_rename(out);
}

void bl_exec_apply_overrides(const bl_exec *ex, const bl_job *j, bl_job *out)
{
    const bl_run_opts *o = ex->o;
    bl_job_copy(out, j);
    bl_exec_apply_sets(o, out);
    if (o->size)
        out->size = o->size;
    if (o->runtime_s > 0)
        out->runtime_s = o->runtime_s;
    if (o->engine)
        out->engine = o->engine;
    /* fio's behaviour: a synchronous engine runs at depth 1, says so, and reports depth 1. */
    if (bl_engine_has(out->engine, BL_ENGINE_NO_QUEUE) && out->iodepth > 1) {
        if (!o->quiet)
            fprintf(stderr,
                    "benchlog run: job '%s': the %s engine runs one I/O at a time: iodepth=%d "
                    "is run and recorded as iodepth=1\n",
                    out->name, out->engine->name, out->iodepth);
        out->iodepth_asked = out->iodepth;
        out->iodepth = 1;
    }
}

/* ---- workers ---- */

void bl_worker_new_pass(bl_worker *w)
{
    if (w->nfiles <= 1) /* one file: its blocks are the pass's */
        w->fblocks = w->nblocks;
    w->pass_left = w->nblocks;
    w->seq_next = 0;
    w->rr = 0;
    if (w->job->random && !w->job->norandommap) {
        uint64_t m = 1;
        unsigned k = 0;
        while (m < w->fblocks)
            m <<= 1, k++;
        w->perm_mask = m - 1;
        w->perm_shift = k / 2 ? k / 2 : 1;
        w->perm_m = (bl_rand(&w->rng) | 1) & w->perm_mask;
        if (w->perm_m == 0)
            w->perm_m = 1;
        /* a = 1 mod 4 and c odd give the full period 2^k (Hull-Dobell). */
        w->perm_a = (bl_rand(&w->rng) & ~(uint64_t)3) | 1;
        w->perm_a = ((w->perm_a << 2) | 1) & w->perm_mask;
        if (w->perm_mask < 4)
            w->perm_a = 1;
        w->perm_c = (bl_rand(&w->rng) | 1) & w->perm_mask;
        w->perm_x = bl_rand(&w->rng) & w->perm_mask;
        for (int f = 0; w->perm_xs && f < w->nfiles; f++)
            w->perm_xs[f] = bl_rand(&w->rng) & w->perm_mask;
    }
}

void bl_worker_start_measuring(bl_worker *w, uint64_t now)
{
    /* After a ramp a size-based job still measures its whole amount: what is in flight now
     * completes inside the measurement, so that many fewer new I/Os are issued. */
    if (w->to_issue != UINT64_MAX && w->issued > 0) {
        uint64_t inflight = w->issued - (w->completed ? w->completed - 1 : 0);
        w->to_issue = w->issued - inflight + w->nblocks * (uint64_t)w->job->loops;
    }
    w->measuring = true;
    w->t_measure = now;
    w->t_end = now;
    atomic_store_explicit(&w->live_t_measure, now ? now : 1, memory_order_release);
    getrusage(RUSAGE_THREAD, &w->ru0);
}

void bl_sleep_until(const bl_worker *w, uint64_t t)
{
    if (t > w->deadline)
        t = w->deadline;
    for (;;) {
        uint64_t now = bl_now_ns();
        if (now >= t || atomic_load_explicit(w->stop, memory_order_relaxed))
            return;
        uint64_t step = t - now < 50000000 ? t - now : 50000000;
        struct timespec ts = {(time_t)(step / 1000000000u), (long)(step % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

void bl_worker_fail(bl_worker *w, const char *what, int err)
{
    w->err = err;
    snprintf(w->errmsg, sizeof w->errmsg, "%s: %s", what, strerror(err));
}

/* One counter per call kind, as fio keeps them: both may be set. */
static bool sync_due(uint64_t *since, int every)
{
    if (!every || ++*since < (uint64_t)every)
        return false;
    *since = 0;
    return true;
}

int bl_maybe_fsync(bl_worker *w, bl_dir d)
{
    (void)d;
    if (w->job->is_trim) /* fio's fsync=N counts writes, not trims */
        return 0;
    bool fs = sync_due(&w->writes_since_fsync, w->job->fsync_every);
    bool fds = sync_due(&w->writes_since_fdatasync, w->job->fdatasync_every);
    for (int k = 0; k < 2; k++) {
        if (!(k == 0 ? fs : fds))
            continue;
        uint64_t t0 = bl_now_ns();
        if ((k == 0 ? fsync(w->fd) : fdatasync(w->fd)) != 0) {
            bl_worker_fail(w, k == 0 ? "fsync" : "fdatasync", errno);
            return -1;
        }
        if (w->measuring)
            bl_lat_acc_add(&w->st->sync, bl_now_ns() - t0);
    }
    return 0;
}

typedef struct warg {
    pthread_barrier_t *barrier;
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
    pthread_barrier_wait(a->barrier);
    uint64_t now = bl_now_ns();
    w->t_start = now;
    w->ramp_end = now + (uint64_t)(j->ramp_time_s * 1e9);
    w->deadline = j->runtime_s > 0 ? w->ramp_end + (uint64_t)(j->runtime_s * 1e9) : UINT64_MAX;
    if (j->ramp_time_s <= 0)
        bl_worker_start_measuring(w, now);
    int rc = j->verify_only ? 0 : j->engine->run(w);
    if (rc == 0 && j->end_fsync && j->is_write && !bl_engine_has(j->engine, BL_ENGINE_NO_IO)) {
        for (int f = 0; f < w->nfiles && !w->err; f++)
            if (fsync(w->fds[f]) != 0)
                bl_worker_fail(w, "fsync", errno);
        w->t_end = bl_now_ns();
    }
    if (!w->measuring) /* stopped during the ramp: nothing measured */
        bl_worker_start_measuring(w, bl_now_ns());
    getrusage(RUSAGE_THREAD, &w->ru1);
    /* The read-back is no part of the measured workload: the sampler stops here (fio keeps
     * it out of the write figures too). */
    atomic_store(&w->finished, 1);
    if (rc == 0 && !w->err && j->verify && (j->do_verify || j->verify_only))
        bl_worker_verify(w);
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
    w->stop = &r->stop;
    bool direct = false;
    bool no_io = bl_engine_has(j->engine, BL_ENGINE_NO_IO);
    w->nfiles = j->nrfiles;
    w->fds = bl_xcalloc((size_t)w->nfiles, sizeof *w->fds);
    for (int f = 0; f < w->nfiles; f++)
        w->fds[f] = -1;
    bl_target **files = r->files + (r->nsets > 1 ? clone * w->nfiles : 0);
    for (int f = 0; f < w->nfiles; f++) {
        w->fds[f] = no_io ? -2
                          : bl_target_open(&ex->targets, files[f], j->direct, bl_job_writes(j),
                                           &direct, err, errlen);
        if (w->fds[f] == -1)
            return -1;
    }
    w->fd = w->fds[0];
    w->direct = direct;
    r->direct = no_io ? j->direct : direct;
    /* Every file has the same size (bl_job_check); the pass covers all their blocks. */
    uint64_t fsize = j->size / (uint64_t)w->nfiles;
    uint64_t avail = r->target->size > j->offset ? r->target->size - j->offset : 0;
    w->region = fsize && fsize < avail ? fsize : avail;
    w->fblocks = w->region / j->bs;
    w->nblocks = w->fblocks * (uint64_t)w->nfiles;
    if (w->nblocks == 0) {
        snprintf(err, errlen, "job '%s': size %llu is smaller than bs %llu", j->name,
                 (unsigned long long)w->region, (unsigned long long)j->bs);
        return -1;
    }
    w->to_issue = j->time_based ? UINT64_MAX : w->nblocks * (uint64_t)j->loops;
    if (j->rate_iops)
        w->rate_ns = 1e9 / j->rate_iops;
    else if (j->rate_bps)
        w->rate_ns = 1e9 * (double)j->bs / (double)j->rate_bps;
    w->planned = w->to_issue;
    size_t nbuf = (size_t)j->bs * (size_t)j->iodepth;
    if (posix_memalign((void **)&w->buf, 4096, nbuf) != 0)
        abort();
    /* randrepeat (fio's default): the same offsets on every run of the same job, different per
     * clone; randseed picks another fixed sequence; randrepeat=0 a new one each run. */
    uint64_t seed = 0x853c49e6748fea9bull;
    if (j->randseed_set)
        seed = j->randseed * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
    else if (!j->randrepeat && getentropy(&seed, sizeof seed) != 0)
        seed ^= bl_now_ns();
    w->rng = seed ^ ((uint64_t)(clone + 1) * 0x9e3779b97f4a7c15ull);
    if (w->rng == 0) /* xorshift's one fixed point */
        w->rng = 1;
    bl_fill_random(w->buf, nbuf, &w->rng);
    if (j->dist)
        bl_dist_init(&w->dist, j->dist, j->dist_param, w->fblocks, &w->rng);
    w->stamp = ((uint64_t)w->id << 48) ^ (bl_now_ns() << 8);
    w->st = bl_xcalloc(1, sizeof *w->st);
    w->logs.lat_on = j->lat_log != NULL;
    w->logs.avg_ms = (uint64_t)j->log_avg_msec;
    w->logs.hist_on = j->hist_log != NULL;
    w->logs.hist_ms = (uint64_t)j->log_hist_msec;
    w->logs.hist_coarse = (unsigned)j->log_hist_coarseness;
    w->logs.rate_on = j->bw_log || j->iops_log;
    if (w->nfiles > 1)
        w->perm_xs = bl_xcalloc((size_t)w->nfiles, sizeof *w->perm_xs);
    bl_worker_new_pass(w);
    return 0;
}

/* ---- one phase ---- */

static void merge_results(bl_job_result *r, bl_worker *w)
{
    r->st = bl_xcalloc(1, sizeof *r->st);
    bool has_slat = bl_engine_has(r->job.engine, BL_ENGINE_SLAT);
    for (int i = 0; i < r->job.numjobs; i++) {
        bl_wstat *src = w[i].st;
        for (int d = 0; d < 2; d++) {
            r->st->ios[d] += src->ios[d];
            r->st->bytes[d] += src->bytes[d];
            bl_lat_acc_merge(&r->st->slat[d], &src->slat[d]);
            bl_lat_acc_merge(&r->st->clat[d], &src->clat[d]);
            bl_lat_acc_merge(&r->st->lat[d], has_slat ? &src->lat[d] : &src->clat[d]);
        }
        bl_lat_acc_merge(&r->st->sync, &src->sync);
        r->verified += w[i].verified;
        for (int b = 0; b < BL_DEPTH_BUCKETS; b++)
            r->st->depth_map[b] += src->depth_map[b];
        /* The clones' mean runtime, not fio's longest: clones run the same job at once and
         * differ only by scheduling, and one preempted while draining (a loaded machine) must
         * not stretch the window of all: with the longest, 4 x QD32 gave IOPS x mean latency
         * = 120 of 128 under load; with the mean, Little's law holds for the whole job. */
        r->runtime_s += (double)(w[i].t_end - w[i].t_measure) / 1e9 / r->job.numjobs;
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

/* The engine's checks of the job against its file, before a byte is written to it. */
static int check_target(bl_exec *ex, bl_job *j, bl_target *t, char *err, size_t errlen)
{
    if (!j->engine->check_target)
        return 0;
    bool direct = false;
    int fd = bl_target_open(&ex->targets, t, j->direct, bl_job_writes(j), &direct, err, errlen);
    if (fd < 0)
        return -1;
    char why[384];
    int rc = j->engine->check_target(j, fd, direct, why, sizeof why);
    close(fd);
    if (rc != 0)
        snprintf(err, errlen, "job '%s': %s", j->name, why);
    return rc;
}

/* fio's extend_file: a file is laid out (written before the job) only when the job reads it
 * or overwrite=1; a write job writes into the new file directly. Trims are ours to decide:
 * holes punched in a never-written file would measure nothing, so they get a laid-out file. */
static bool needs_layout(const bl_job *j)
{
    return j->is_read || j->overwrite || j->is_trim || j->verify_only;
}

/* fio's add_job: a job naming no file gives each clone its own files, NAME.C.F (clone C,
 * file F); with filename= (or --target a file or device) the clones share it. A suite's
 * threads share its one test file, as CrystalDiskMark's do. in_dir: the job's files go into
 * a folder. */
static bool own_files_per_clone(const bl_exec *ex, const bl_job *j, bool in_dir)
{
    return j->numjobs > 1 && !j->filename && !ex->o->suite &&
           !bl_engine_has(j->engine, BL_ENGINE_NO_IO) && in_dir;
}

/* File f of clone set c in where: size / nrfiles bytes, a scratch file named as fio names it
 * (NAME.C.F) when the job has several clones with their own files or several files. */
static bl_target *job_file(bl_exec *ex, const bl_job *j, const char *where, bool in_dir, int c,
                           int f, bool own, char *err, size_t errlen)
{
    uint64_t fsize = j->size / (uint64_t)j->nrfiles;
    uint64_t need = j->size ? j->offset + fsize : 0;
    if (bl_engine_has(j->engine, BL_ENGINE_NO_IO)) /* it touches no file: a size to count in */
        return bl_target_none(&ex->targets, need ? need : 1u << 20);
    if (j->nrfiles > 1 && !in_dir) {
        snprintf(err, errlen, "job '%s': nrfiles=%d needs a folder for its files; %s is not one",
                 j->name, j->nrfiles, where);
        return NULL;
    }
    bl_strbuf key;
    bl_strbuf_init(&key);
    bl_strbuf_puts(&key, ex->o->suite ? ex->o->suite : j->name);
    if (j->nrfiles > 1 || own)
        bl_strbuf_printf(&key, ".%d.%d", c, f);
    bl_target *t = bl_target_get(&ex->targets, where, key.s, need, err, errlen);
    bl_strbuf_free(&key);
    return t;
}

/* One line for a job's layout, whatever its number of files (numjobs=8 printed eight). */
static void say_layout(FILE *msg, bl_target *const *files, int nf)
{
    int n = 0, first = -1, last = -1;
    uint64_t bytes = 0;
    for (int f = 0; f < nf; f++) {
        const bl_target *t = files[f];
        if (t->laid_out >= t->size || t->blockdev)
            continue;
        bytes += t->size - t->laid_out;
        if (n++ == 0)
            first = f;
        last = f;
    }
    if (n == 0)
        return;
    const char *fs = files[first]->fstype ? files[first]->fstype : "unknown";
    if (n == 1) {
        fprintf(msg, "benchlog run: writing the %.1f MiB test file %s (%s)\n",
                (double)bytes / 1048576.0, files[first]->path, fs);
        return;
    }
    const char *base = strrchr(files[last]->path, '/');
    fprintf(msg, "benchlog run: writing %d test files, %.1f MiB in all: %s .. %s (%s)\n", n,
            (double)bytes / 1048576.0, files[first]->path, base ? base + 1 : files[last]->path, fs);
}

static int prepare_targets(bl_exec *ex, bl_job_result *res, size_t n, char *err, size_t errlen)
{
    for (size_t k = 0; k < n; k++) {
        bl_job *j = &res[k].job;
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        const char *where = where_for(ex, j, &sb);
        struct stat st;
        bool in_dir = stat(where, &st) == 0 && S_ISDIR(st.st_mode);
        bool own = own_files_per_clone(ex, j, in_dir);
        res[k].nsets = own ? j->numjobs : 1;
        int nf = res[k].nsets * j->nrfiles;
        res[k].files = bl_xcalloc((size_t)nf, sizeof *res[k].files);
        int made = 0;
        while (made < nf && (res[k].files[made] = job_file(ex, j, where, in_dir, made / j->nrfiles,
                                                           made % j->nrfiles, own, err, errlen)))
            made++;
        bl_strbuf_free(&sb);
        if (made < nf)
            return -1;
        res[k].target = res[k].files[0];
        if (bl_engine_has(j->engine, BL_ENGINE_NO_IO))
            continue;
        if (check_target(ex, j, res[k].target, err, errlen) != 0)
            return -1;
        bool layout = needs_layout(j);
        if (layout && ex->targets.msg)
            say_layout(ex->targets.msg, res[k].files,
                       nf); /* progress, not a result: never stdout */
        for (int f = 0; f < nf; f++) {
            bl_target *t = res[k].files[f];
            if (bl_target_prepare(t, j->fallocate, layout, ex->o->interrupt, ex->targets.msg, err,
                                  errlen) != 0)
                return -1;
        }
    }
    return 0;
}

/* Starts the workers together, samples until they end; 0 or 1 (interrupted). */
static int run_workers(bl_exec *ex, bl_sampler *s, const char *title)
{
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, (unsigned)s->nw + 1);
    pthread_t *th = bl_xcalloc(s->nw, sizeof *th);
    warg *args = bl_xcalloc(s->nw, sizeof *args);
    for (size_t i = 0; i < s->nw; i++) {
        args[i] = (warg){&barrier, &s->w[i]};
        if (pthread_create(&th[i], NULL, worker_main, &args[i]) != 0)
            abort();
    }
    pthread_barrier_wait(&barrier);
    uint64_t t0 = bl_now_ns();
    s->last_ios = bl_xcalloc(s->nw * 2, sizeof *s->last_ios);
    s->last_bytes = bl_xcalloc(s->nw * 2, sizeof *s->last_bytes);
    int rc = bl_sampler_run(ex, s, t0, title);
    for (size_t i = 0; i < s->nw; i++)
        pthread_join(th[i], NULL);
    if (rc == 0)
        bl_sampler_tail(ex, s, t0);
    pthread_barrier_destroy(&barrier);
    free(s->last_ios);
    free(s->last_bytes);
    free(th);
    free(args);
    return rc;
}

/* After the workers: their errors, the merged figures, the logs. */
static int collect(bl_worker *w, size_t nw, bl_job_result *res, size_t n, const size_t *first,
                   char *err, size_t errlen)
{
    for (size_t i = 0; i < nw; i++)
        if (w[i].err) {
            snprintf(err, errlen, "job '%s': %s", w[i].job->name, w[i].errmsg);
            return -1;
        }
    for (size_t k = 0; k < n; k++)
        if (res[k].min_rate_err[0]) {
            snprintf(err, errlen, "job '%s': %s", res[k].job.name, res[k].min_rate_err);
            return -1;
        }
    for (size_t k = 0; k < n; k++) {
        merge_results(&res[k], &w[first[k]]);
        res[k].done = true;
    }
    for (size_t i = 0; i < nw; i++) {
        const bl_job *j = w[i].job;
        if (bl_iolog_write(&w[i].logs, j->lat_log, j->bw_log, j->iops_log, j->hist_log, w[i].id,
                           err, errlen) != 0)
            return -1;
    }
    return 0;
}

int bl_exec_phase(bl_exec *ex, const bl_job *jobs, size_t n, bl_job_result *res, const char *title)
{
    char err[512] = "";
    size_t nw = 0;
    for (size_t k = 0; k < n; k++) {
        memset(&res[k], 0, sizeof res[k]);
        bl_exec_apply_overrides(ex, &jobs[k], &res[k].job);
        nw += (size_t)res[k].job.numjobs;
    }
    for (size_t k = 0; k < n; k++)
        if (bl_job_check(&res[k].job, err, sizeof err) != 0) {
            fprintf(stderr, "benchlog run: %s\n", err);
            return -1;
        }
    for (size_t k = 0; k < n; k++) {
        const bl_job *j = &res[k].job;
        if (j->service_ns && !bl_engine_has(j->engine, BL_ENGINE_SERVICE_TIME)) {
            fprintf(stderr, "benchlog run: job '%s': service_time is for ioengine=null only\n",
                    j->name);
            return -1;
        }
        if (bl_engine_available(j->engine, err, sizeof err) != 0) {
            fprintf(stderr, "benchlog run: job '%s': ioengine=%s cannot run here: %s\n", j->name,
                    j->engine->name, err);
            return -1;
        }
    }
    if (prepare_targets(ex, res, n, err, sizeof err) != 0) {
        if (bl_exec_interrupted(ex))
            return 1;
        fprintf(stderr, "benchlog run: %s\n", err);
        return -1;
    }
    /* fio discards a device's range (BLKDISCARD); a punched hole there would zero it
     * instead, another operation: refused rather than run differently. */
    for (size_t k = 0; k < n; k++)
        if (res[k].job.is_trim && res[k].target->blockdev) {
            fprintf(stderr, "benchlog run: job '%s': trims on a block device are not supported\n",
                    res[k].job.name);
            return -1;
        }
    bl_worker *w = bl_xcalloc(nw, sizeof *w);
    size_t *first = bl_xcalloc(n, sizeof *first);
    int rc = 0;
    size_t made = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        first[k] = made;
        for (int c = 0; c < res[k].job.numjobs && rc == 0; c++, made++)
            rc = setup_worker(ex, &res[k], &w[made], c, err, sizeof err);
    }
    if (rc == 0) {
        bl_sampler s = {.w = w, .nw = nw, .res = res, .nres = n, .first = first};
        rc = run_workers(ex, &s, title);
        if (rc == 0)
            rc = collect(w, nw, res, n, first, err, sizeof err);
        for (size_t k = 0; rc == 0 && k < n; k++)
            if (res[k].job.verify && (res[k].job.do_verify || res[k].job.verify_only))
                fprintf(ex->o->msg ? ex->o->msg : stderr,
                        "%-14s verify=%s: %llu blocks read back, all good\n", res[k].job.name,
                        bl_verify_name(res[k].job.verify), (unsigned long long)res[k].verified);
    }
    if (rc == -1)
        fprintf(stderr, "benchlog run: %s\n", err);
    for (size_t i = 0; i < made; i++) {
        for (int f = 0; w[i].fds && f < w[i].nfiles; f++)
            if (w[i].fds[f] >= 0)
                close(w[i].fds[f]);
        free(w[i].fds);
        free(w[i].perm_xs);
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
    bl_ss_free(&r->ss);
    bl_job_free(&r->job);
    free(r->files);
    free(r->st);
    free(r->t);
    for (int d = 0; d < 2; d++) {
        free(r->bw[d]);
        free(r->iops[d]);
    }
    memset(r, 0, sizeof *r);
}
