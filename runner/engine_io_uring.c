/* io_uring engine (liburing). The worker's buffers are registered once (fixed buffers: the
 * kernel does not map and pin pages on every I/O) and so is its file (no file table lookup per
 * I/O). Every slot freed by the completions just reaped is refilled and the lot goes in one
 * io_uring_enter; completions are read from the shared ring, and the worker sleeps in the
 * kernel only when none is waiting. hipri (IORING_SETUP_IOPOLL) and sqthread_poll
 * (IORING_SETUP_SQPOLL) are used when the job asks and refused with the reason when the
 * kernel or the device cannot.
 *
 * Timing as the libaio engine (and fio): slat is the io_uring_enter call that submitted the
 * I/O (with sqthread_poll, the ring write), clat from its return to the reaping; an I/O is in
 * flight from its submission until it is reaped, so IOPS x mean lat is the depth kept.
 *
 * Measured and left out (bench/engine-vs-fio.sh, Firecracker virtio-blk, 2 cores, 6.18):
 * DEFER_TASKRUN costs CPU, 0.46-0.53x of fio's per I/O at 4K QD32 became 0.58-0.63x in
 * five runs, for no IOPS a run-to-run spread of 0.86-1.08x does not hide: completions then
 * reach the ring only inside an io_uring_enter, so every round needs one, where
 * COOP_TASKRUN lets them land while the worker runs and be peeked. Submitting the refills one
 * io_uring_enter at a time (as fio does) leaves slots empty while the others go in: IOPS x
 * lat 27.5 of 32, 29.1 when done only below half the depth; waiting for 4 completions at a
 * time did not save CPU. */
#include "../core/strbuf.h"
#include "engine.h"
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define MAX_DEPTH 256

typedef struct slot {
    uint64_t t_issue, slat;
    bl_dir dir;
    unsigned char *buf;
} slot;

typedef struct uring_state {
    bl_worker *w;
    struct io_uring ring;
    unsigned depth, nfree, npend, inflight;
    uint64_t bs;
    bool fixed_buf, fixed_file;
    slot slots[MAX_DEPTH];
    unsigned freeq[MAX_DEPTH], pend[MAX_DEPTH];
    struct io_uring_cqe *cqes[MAX_DEPTH];
    /* Reaped but not yet accounted: their slots are refilled first (the queue stays full
     * while the histogram and counters are updated), their figures are kept here. */
    slot done[MAX_DEPTH];
    unsigned ndone;
    uint64_t t_reap;
} uring_state;

static const char *why_unavailable(int err)
{
    switch (err) {
    case ENOSYS:
        return "the kernel has no io_uring (Linux 5.1 or later is needed)";
    case EPERM:
    case EACCES:
        return "io_uring is forbidden here (kernel.io_uring_disabled, a seccomp filter or a "
               "container policy)";
    case ENOMEM:
        return "no memory for an io_uring (RLIMIT_MEMLOCK too low?)";
    default:
        return strerror(err);
    }
}

static int uring_available(char *why, size_t n)
{
    struct io_uring r;
    int e = io_uring_queue_init(2, &r, 0);
    if (e < 0) {
        snprintf(why, n, "%s", why_unavailable(-e));
        return -1;
    }
    struct io_uring_probe *p = io_uring_get_probe_ring(&r);
    bool ok = p && io_uring_opcode_supported(p, IORING_OP_READ_FIXED) &&
              io_uring_opcode_supported(p, IORING_OP_WRITE_FIXED);
    io_uring_free_probe(p);
    io_uring_queue_exit(&r);
    if (!ok) {
        snprintf(why, n, "the kernel's io_uring lacks fixed-buffer reads and writes");
        return -1;
    }
    return 0;
}

/* hipri needs O_DIRECT and a device with polled queues: /sys/dev/block/M:m/queue/io_poll is
 * 1 (for a partition, its disk's). Without them every polled I/O would fail with EOPNOTSUPP.
 * Asked before the target is laid out: a refusal costs no write. */
static int check_target(const bl_job *j, int fd, bool direct, char *why, size_t n)
{
    struct stat st;
    if (!j->hipri)
        return 0;
    if (!direct) {
        snprintf(why, n, "hipri: polled I/O needs direct=1 (O_DIRECT)%s",
                 j->direct ? ", which this filesystem refuses" : "");
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(why, n, "fstat: %s", strerror(errno));
        return -1;
    }
    dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    const char *fmt[] = {"/sys/dev/block/%u:%u/queue/io_poll",
                         "/sys/dev/block/%u:%u/../queue/io_poll"};
    int v = -1;
    for (int i = 0; i < 2 && v < 0; i++) {
        char path[96];
        snprintf(path, sizeof path, fmt[i], major(dev), minor(dev));
        FILE *f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%d", &v) != 1)
                v = -1;
            fclose(f);
        }
    }
    if (v != 1) {
        snprintf(why, n,
                 "hipri: the device %u:%u has no polled queues (queue/io_poll is %s); polled "
                 "I/O would fail (nvme needs poll_queues=N)",
                 major(dev), minor(dev), v == 0 ? "0" : "unreadable");
        return -1;
    }
    return 0;
}

static int setup_ring(uring_state *u)
{
    bl_worker *w = u->w;
    const bl_job *j = w->job;
    struct io_uring_params p;
    unsigned extra[] = {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
                        IORING_SETUP_COOP_TASKRUN, 0};
    int e = -EINVAL;
    /* Newer setup flags first (fewer interrupts of the worker, 5.19/6.0); older kernels
     * refuse them with EINVAL, and the ring is made without. */
    for (size_t i = 0; i < sizeof extra / sizeof extra[0] && e == -EINVAL; i++) {
        memset(&p, 0, sizeof p);
        p.flags = extra[i];
        if (j->hipri)
            p.flags |= IORING_SETUP_IOPOLL;
        if (j->sqthread_poll) {
            p.flags |= IORING_SETUP_SQPOLL;
            p.sq_thread_idle = 1000;
        }
        e = io_uring_queue_init_params(u->depth, &u->ring, &p);
    }
    if (e < 0) {
        if (j->sqthread_poll && (e == -EPERM || e == -EINVAL))
            snprintf(w->errmsg, sizeof w->errmsg,
                     "sqthread_poll: the kernel refuses a polling submission thread (%s; "
                     "unprivileged SQPOLL needs Linux 5.11)",
                     strerror(-e));
        else
            snprintf(w->errmsg, sizeof w->errmsg, "io_uring_queue_init: %s", why_unavailable(-e));
        w->err = -e;
        return -1;
    }
    io_uring_register_ring_fd(&u->ring); /* 5.18+: saves a lookup per call; optional */
    return 0;
}

/* Fixed buffers and the registered file; each falls back to the plain form when the kernel
 * refuses it (RLIMIT_MEMLOCK on old kernels), so a run never fails for a speed-up. */
static void register_resources(uring_state *u)
{
    bl_worker *w = u->w;
    u->fixed_file = w->job->registerfiles &&
                    io_uring_register_files(&u->ring, w->fds, (unsigned)w->nfiles) == 0;
    struct iovec iov = {w->buf, (size_t)u->bs * u->depth};
    u->fixed_buf = w->job->fixedbufs && io_uring_register_buffers(&u->ring, &iov, 1) == 0;
}

/* Fills free slots with new I/Os as SQEs; they go to the kernel at the next submit. */
static void prepare(uring_state *u, uint64_t now)
{
    bl_worker *w = u->w;
    while (u->nfree > 0 && bl_more(w, now)) {
        if (w->rate_ns && bl_rate_hold(w, bl_now_ns()))
            break;
        struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
        if (!sqe)
            break;
        unsigned k = u->freeq[--u->nfree];
        slot *s = &u->slots[k];
        bl_io io;
        bl_next_io(w, &io, s->buf);
        s->dir = io.dir;
        unsigned len = (unsigned)u->bs;
        /* a registered file is named by its index in the registered table */
        int fd = u->fixed_file ? io.file : w->fds[io.file];
        if (w->job->is_trim)
            io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                                    (off_t)io.off, (off_t)len);
        else if (u->fixed_buf) {
            if (io.dir == BL_DIR_READ)
                io_uring_prep_read_fixed(sqe, fd, s->buf, len, io.off, 0);
            else
                io_uring_prep_write_fixed(sqe, fd, s->buf, len, io.off, 0);
        } else if (io.dir == BL_DIR_READ)
            io_uring_prep_read(sqe, fd, s->buf, len, io.off);
        else
            io_uring_prep_write(sqe, fd, s->buf, len, io.off);
        if (u->fixed_file)
            sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(sqe, k);
        u->pend[u->npend++] = k;
    }
}

static int submit(uring_state *u)
{
    if (u->npend == 0)
        return 0;
    uint64_t t0 = bl_now_ns();
    int r;
    do
        r = io_uring_submit(&u->ring);
    while (r == -EINTR);
    uint64_t t1 = bl_now_ns();
    if (r < 0 && r != -EAGAIN && r != -EBUSY) {
        bl_worker_fail(u->w, "io_uring_submit", -r);
        return -1;
    }
    /* The kernel consumes SQEs in order; what it did not take stays in the SQ ring for the
     * next call (EAGAIN/EBUSY: it is short of resources or its CQ is full). */
    unsigned took = r > 0 ? (unsigned)r : 0;
    for (unsigned i = 0; i < took; i++) {
        slot *s = &u->slots[u->pend[i]];
        s->t_issue = t1;
        s->slat = t1 - t0;
    }
    u->inflight += took;
    if (took)
        bl_mark_depth(u->w, u->inflight, took);
    u->npend -= took;
    memmove(u->pend, u->pend + took, u->npend * sizeof *u->pend);
    return 0;
}

/* Takes n completions off the ring: their slots are free again, their figures wait in done.
 * A failed or short I/O fails the worker at once (nothing more is issued). */
static int take(uring_state *u, unsigned n)
{
    bl_worker *w = u->w;
    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (unsigned)io_uring_cqe_get_data64(u->cqes[i]);
        int res = u->cqes[i]->res;
        slot *s = &u->slots[k];
        u->inflight--;
        u->freeq[u->nfree++] = k;
        /* a fallocate completes with 0, a read or write with its length */
        if (res != (w->job->is_trim ? 0 : (int)u->bs)) {
            if (rc == 0 && !w->err)
                bl_worker_fail(w,
                               w->job->is_trim         ? "trim (punching a hole)"
                               : s->dir == BL_DIR_READ ? "read"
                                                       : "write",
                               res < 0 ? -res : EIO);
            rc = -1;
            continue;
        }
        u->done[u->ndone++] = *s;
    }
    io_uring_cq_advance(&u->ring, n);
    return rc;
}

/* The completions taken last, into the worker's figures (after their slots were refilled). */
static int account(uring_state *u)
{
    bl_worker *w = u->w;
    uint64_t now = u->t_reap;
    for (unsigned i = 0; i < u->ndone; i++) {
        const slot *s = &u->done[i];
        bl_io_done(w, s->dir, u->bs, s->slat, now - s->t_issue, now);
        if (s->dir == BL_DIR_WRITE && (w->job->fsync_every || w->job->fdatasync_every) &&
            bl_maybe_fsync(w, s->dir) != 0) {
            u->ndone = 0;
            return -1;
        }
    }
    u->ndone = 0;
    return 0;
}

/* Waits for one completion (a system call only when none is in the ring), then takes every
 * completion that is there; the reaping time is their completion time. */
static int reap(uring_state *u, uint64_t *now)
{
    unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, u->depth);
    if (n == 0) {
        struct io_uring_cqe *c;
        int r = io_uring_wait_cqe(&u->ring, &c);
        if (r == -EINTR)
            return 0;
        if (r < 0) {
            bl_worker_fail(u->w, "io_uring_wait_cqe", -r);
            return -1;
        }
        n = io_uring_peek_batch_cqe(&u->ring, u->cqes, u->depth);
    }
    *now = u->t_reap = bl_now_ns();
    return take(u, n);
}

/* Refill and submit first, account the completions reaped last after: at QD1 the I/O is back
 * in flight before the bookkeeping of the one before. */
static int loop(uring_state *u)
{
    uint64_t now = bl_now_ns();
    for (;;) {
        prepare(u, now);
        if (submit(u) != 0 || account(u) != 0)
            return -1;
        if (u->inflight == 0) {
            if (u->npend == 0) {
                /* Nothing in flight: done, or held back by rate until the next I/O is due. */
                now = bl_now_ns();
                if (!bl_more(u->w, now))
                    return 0;
                bl_sleep_until(u->w, bl_rate_hold(u->w, now));
                now = bl_now_ns();
                continue;
            }
            bl_worker_fail(u->w, "io_uring_submit", EAGAIN); /* refused with nothing in flight */
            return -1;
        }
        if (reap(u, &now) != 0)
            return -1;
    }
}

static void drain(uring_state *u)
{
    while (u->inflight > 0) {
        struct io_uring_cqe *c;
        int r = io_uring_wait_cqe(&u->ring, &c);
        if (r == -EINTR)
            continue;
        if (r < 0)
            break;
        unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, u->depth);
        io_uring_cq_advance(&u->ring, n);
        u->inflight -= n;
    }
}

static int uring_run(bl_worker *w)
{
    uring_state *u = bl_xcalloc(1, sizeof *u);
    u->w = w;
    u->depth = (unsigned)w->job->iodepth;
    u->bs = w->job->bs;
    if (setup_ring(u) != 0) {
        free(u);
        return -1;
    }
    register_resources(u);
    for (unsigned i = 0; i < u->depth; i++) {
        u->slots[i].buf = w->buf + (size_t)i * u->bs;
        u->freeq[i] = u->depth - 1 - i;
    }
    u->nfree = u->depth;
    int rc = loop(u);
    drain(u); /* the buffers must outlive every I/O that uses them */
    io_uring_queue_exit(&u->ring);
    free(u);
    return rc;
}

const bl_engine_ops bl_engine_io_uring = {
    .name = "io_uring",
    .flags = BL_ENGINE_SLAT | BL_ENGINE_POLLING | BL_ENGINE_TRIM,
    .summary = "io_uring: fixed buffers, registered file, batched submission (hipri, "
               "sqthread_poll)",
    .available = uring_available,
    .check_target = check_target,
    .run = uring_run,
};
