/* Inside the runner: one worker thread per job clone, and the engines that move its bytes.
 *
 * An engine's run function loops: take the next I/O from bl_next_io, do it, and report each
 * completion to bl_io_done with its submission and completion latencies. The worker's
 * bookkeeping (offsets, stop conditions, ramp, counters the sampler reads) lives here so
 * that every engine measures the same way and the hot path stays a few inline calls.
 *
 * A queueing engine keeps iodepth I/Os in flight: a slot freed by a completion is refilled
 * before the next completion is taken, and each submission is counted with bl_mark_depth.
 * tests/test_runner_little.c holds every engine to Little's law (IOPS x mean latency =
 * iodepth x numjobs); latency runs from just before the submission to the reaping. */
#ifndef BL_RUNNER_ENGINE_H
#define BL_RUNNER_ENGINE_H

#include "engine_ops.h"
#include "iolog.h"
#include "job.h"
#include "stats.h"
#include "target.h"
#include "verify.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

/* fio's "IO depths" buckets: 1, 2, 4, 8, 16, 32, >=64. */
#define BL_DEPTH_BUCKETS 7

typedef struct bl_wstat {
    uint64_t ios[2], bytes[2];
    /* Submissions by the number in flight once they were in (fio's io_u_map). */
    uint64_t depth_map[BL_DEPTH_BUCKETS];
    bl_lat_acc slat[2], clat[2], lat[2];
    bl_lat_acc sync; /* fsync/fdatasync calls (fio's "sync" latency) */
    bool has_slat;
} bl_wstat;

typedef struct bl_worker {
    const bl_job *job;
    int id;   /* 1-based over the whole run: the N of fio's name_bw.N.log */
    int fd;   /* the job's first (or only) file: fds[0] */
    int *fds; /* nrfiles descriptors; I/O i of a pass goes to file i mod nfiles (fio's
               * round robin, one I/O a file) */
    int nfiles;
    bool direct;
    const atomic_int *stop;

    unsigned char *buf;       /* iodepth buffers of bs bytes, 4 KiB aligned */
    uint64_t region, nblocks; /* nblocks: of all files (a pass); fblocks: of each file */
    uint64_t fblocks;
    uint64_t *perm_xs; /* nrfiles > 1: each file's place in the permutation (fblocks) */
    uint64_t rr;       /* nrfiles > 1: I/Os of this pass, the file is rr mod nfiles */
    /* Offsets: sequential cursor, or a full-period permutation of the blocks per pass. */
    uint64_t seq_next, perm_mask, perm_a, perm_c, perm_x, perm_m, pass_left;
    unsigned perm_shift;
    uint64_t rng, stamp;
    uint64_t issued, to_issue; /* to_issue = UINT64_MAX when time based */
    uint64_t completed;
    uint64_t writes_since_fsync, writes_since_fdatasync;
    uint64_t verified;               /* blocks read back and checked (verify=) */
    double rate_ns;                  /* rate/rate_iops: ns between I/O issues; 0 = unlimited */
    bl_randdist dist;                /* random_distribution other than random */
    uint64_t mr_t, mr_ios, mr_bytes; /* the sampler's rate_min check: the last second's start */

    uint64_t t_start, ramp_end, deadline, t_measure, t_end;
    bool measuring;
    bl_wstat *st;
    /* Read by the sampler as one snapshot: live_seq is odd while they change (a seqlock),
     * so a sample never pairs one I/O's count with the bytes before it. */
    _Atomic uint64_t live_ios[2], live_bytes[2], live_seq;
    _Atomic uint64_t live_t_measure; /* 0 until measuring starts */
    uint64_t planned;                /* I/Os of a size-based job, for progress */
    uint64_t cnt_ios[2], cnt_bytes[2];
    struct rusage ru0, ru1;
    bl_iolog_set logs;

    int err;
    char errmsg[384];
    atomic_int finished;
} bl_worker;

typedef struct bl_io {
    bl_dir dir;
    int file; /* index into the worker's fds */
    uint64_t off;
    unsigned char *buf;
} bl_io;

static inline uint64_t bl_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bl_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

void bl_worker_new_pass(bl_worker *w);
void bl_worker_start_measuring(bl_worker *w, uint64_t now);

/* True while the worker should issue more I/O. */
static inline bool bl_more(bl_worker *w, uint64_t now)
{
    if (w->issued >= w->to_issue || now >= w->deadline ||
        atomic_load_explicit(w->stop, memory_order_relaxed))
        return false;
    return true;
}

static inline void bl_next_io(bl_worker *w, bl_io *io, unsigned char *buf)
{
    const bl_job *j = w->job;
    uint64_t blk;
    if (w->pass_left == 0)
        bl_worker_new_pass(w);
    /* nrfiles: the files in turn, one I/O each (fio's roundrobin); each file has its own
     * cursor, or its own place in the pass's permutation of its blocks. */
    int f = 0;
    if (w->nfiles > 1) {
        f = (int)(w->rr++ % (uint64_t)w->nfiles);
        w->perm_x = w->perm_xs[f];
    }
    if (!j->random)
        blk = w->nfiles > 1 ? w->seq_next++ / (uint64_t)w->nfiles : w->seq_next++;
    else if (j->dist)
        blk = bl_dist_next(&w->dist, &w->rng);
    else if (j->norandommap)
        blk = bl_rand(&w->rng) % w->fblocks;
    else {
        /* x -> a*x+c mod 2^k visits every value once per 2^k steps; a bijective scramble
         * hides the LCG's short low-bit cycles; values past the end are skipped. */
        do {
            w->perm_x = (w->perm_a * w->perm_x + w->perm_c) & w->perm_mask;
            blk = w->perm_x ^ (w->perm_x >> w->perm_shift);
            blk = (blk * w->perm_m) & w->perm_mask;
            blk ^= blk >> w->perm_shift;
        } while (blk >= w->fblocks);
        if (w->nfiles > 1)
            w->perm_xs[f] = w->perm_x;
    }
    w->pass_left--;
    io->file = f;
    if (j->is_read && j->is_write)
        io->dir = (int)(bl_rand(&w->rng) % 100) < j->rwmixread ? BL_DIR_READ : BL_DIR_WRITE;
    else
        io->dir = j->is_write ? BL_DIR_WRITE : BL_DIR_READ;
    io->off = j->offset + blk * j->bs;
    io->buf = buf;
    if (io->dir == BL_DIR_WRITE && !j->is_trim) {
        bl_stamp_blocks(buf, j->bs, &w->stamp);
        if (j->verify)
            bl_verify_seal(j->verify, buf, j->bs, io->off);
    }
    w->issued++;
}

/* rate/rate_iops (fio's rate_process=linear): the next I/O may not be issued before
 * t_start + issued x rate_ns. 0 when it may go at now, else when it may. An engine that holds
 * I/Os in flight reaps them all before it sleeps, as fio quiesces: a sleep with I/Os in flight
 * would count in their latency. */
static inline uint64_t bl_rate_hold(const bl_worker *w, uint64_t now)
{
    if (w->rate_ns == 0)
        return 0;
    uint64_t due = w->t_start + (uint64_t)((double)w->issued * w->rate_ns);
    return now < due ? due : 0;
}
/* Sleeps until t (or the deadline, or a stop), in steps short enough for Ctrl-C. */
void bl_sleep_until(const bl_worker *w, uint64_t t);

/* Counts nr submissions that left inflight I/Os in flight (measured time only), as fio's
 * io_u_mark_depth: IOPS x mean latency can only equal the depth if this says it was kept. */
static inline void bl_mark_depth(bl_worker *w, unsigned inflight, unsigned nr)
{
    if (!w->measuring)
        return;
    unsigned i = 0;
    while (i < BL_DEPTH_BUCKETS - 1 && (2u << i) <= inflight)
        i++;
    w->st->depth_map[i] += nr;
}

/* slat_ns == UINT64_MAX: the engine has no submission step (sync, null). */
static inline void bl_io_done(bl_worker *w, bl_dir d, uint64_t bytes, uint64_t slat_ns,
                              uint64_t clat_ns, uint64_t now)
{
    w->completed++;
    if (!w->measuring) {
        if (now < w->ramp_end)
            return;
        bl_worker_start_measuring(w, now);
    }
    bl_wstat *st = w->st;
    st->ios[d]++;
    st->bytes[d] += bytes;
    uint64_t lat = clat_ns;
    /* Without a submission step lat equals clat: it is copied once at the end instead. */
    if (slat_ns != UINT64_MAX) {
        bl_lat_acc_add(&st->slat[d], slat_ns);
        lat += slat_ns;
        bl_lat_acc_add(&st->lat[d], lat);
    }
    bl_lat_acc_add(&st->clat[d], clat_ns);
    if (w->logs.lat_on)
        bl_iolog_lat(&w->logs, now - w->t_measure, d, w->job->bs, slat_ns, clat_ns, lat);
    if (w->logs.hist_on)
        bl_iolog_hist(&w->logs, now - w->t_measure, d, w->job->bs, clat_ns);
    w->cnt_ios[d]++;
    w->cnt_bytes[d] += bytes;
    uint64_t seq = atomic_load_explicit(&w->live_seq, memory_order_relaxed);
    atomic_store_explicit(&w->live_seq, seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&w->live_ios[d], w->cnt_ios[d], memory_order_relaxed);
    atomic_store_explicit(&w->live_bytes[d], w->cnt_bytes[d], memory_order_relaxed);
    atomic_store_explicit(&w->live_seq, seq + 2, memory_order_release);
    w->t_end = now;
}

/* The sampler's consistent snapshot of a worker's I/O and byte counts, both directions. */
static inline void bl_worker_live(bl_worker *w, uint64_t ios[2], uint64_t bytes[2])
{
    for (;;) {
        uint64_t s1 = atomic_load_explicit(&w->live_seq, memory_order_acquire);
        for (int d = 0; d < 2; d++) {
            ios[d] = atomic_load_explicit(&w->live_ios[d], memory_order_relaxed);
            bytes[d] = atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
        }
        atomic_thread_fence(memory_order_acquire);
        if (!(s1 & 1) && atomic_load_explicit(&w->live_seq, memory_order_relaxed) == s1)
            return;
    }
}

/* fsync every N writes (fio's fsync=N); returns -1 with the worker's error set. */
int bl_maybe_fsync(bl_worker *w, bl_dir d);
void bl_worker_fail(bl_worker *w, const char *what, int err);

#endif
