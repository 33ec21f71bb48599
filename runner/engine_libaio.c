/* libaio engine: Linux native AIO. Keeps iodepth requests in flight: a slot freed by a
 * completion is refilled before the next completion is taken. slat is the io_submit call,
 * clat from its return to the reaping of the completion. */
#include "engine.h"
#include <errno.h>
#include <libaio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../core/strbuf.h"

/* The completion ring the kernel maps at the io_context address (fs/aio.c). Reading it
 * directly, as fio's userspace_reap does, saves the io_getevents call whenever completions
 * are already waiting; the call remains for sleeping until one arrives. */
struct bl_aio_ring {
    unsigned id, nr, head, tail;
    unsigned magic, compat_features, incompat_features, header_length;
    struct io_event events[];
};
#define BL_AIO_RING_MAGIC 0xa10a10a1u

static bool ring_usable(io_context_t ctx)
{
    const struct bl_aio_ring *r = (const struct bl_aio_ring *)ctx;
    return r && r->magic == BL_AIO_RING_MAGIC && r->incompat_features == 0 && r->nr > 0;
}

static int user_reap(io_context_t ctx, struct io_event *ev, unsigned max)
{
    struct bl_aio_ring *r = (struct bl_aio_ring *)ctx;
    unsigned head = r->head, tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE), n = 0;
    while (head != tail && n < max) {
        ev[n++] = r->events[head];
        head = (head + 1) % r->nr;
    }
    if (n)
        __atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
    return (int)n;
}

typedef struct slot {
    struct iocb cb;
    uint64_t t_issue, slat;
    bl_dir dir;
} slot;

typedef struct aio_state {
    bl_worker *w;
    io_context_t ctx;
    unsigned depth, cap, nfree, npend, inflight;
    bool user;
    uint64_t bs;
    slot slots[256];
    struct iocb *freeq[256], *pend[256];
    struct io_event ev[256];
} aio_state;

/* Submits what is pending; the kernel may take fewer (its queue is full): the rest waits for
 * the next round. slat runs from just before the call to its return. Returns -1 on error. */
static int submit(aio_state *a)
{
    bl_worker *w = a->w;
    while (a->npend > 0) {
        uint64_t t0 = bl_now_ns();
        int r = io_submit(a->ctx, (long)a->npend, a->pend);
        uint64_t t1 = bl_now_ns();
        if (r == -EINTR)
            continue;
        if (r == -EAGAIN || r == 0)
            return 0;
        if (r < 0) {
            bl_worker_fail(w, "io_submit", -r);
            return -1;
        }
        for (int i = 0; i < r; i++) {
            slot *s = (slot *)a->pend[i]->data;
            s->t_issue = t1;
            s->slat = t1 - t0;
        }
        a->inflight += (unsigned)r;
        bl_mark_depth(w, a->inflight, (unsigned)r);
        a->npend -= (unsigned)r;
        memmove(a->pend, a->pend + r, a->npend * sizeof *a->pend);
    }
    return 0;
}

/* Accounts n completions; returns -1 after a failed or short I/O. */
static int complete(aio_state *a, int n, uint64_t now)
{
    bl_worker *w = a->w;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        slot *s = (slot *)a->ev[i].data;
        long res = (long)a->ev[i].res;
        a->inflight--;
        a->freeq[a->nfree++] = &s->cb;
        if (res != (long)a->bs) {
            if (rc == 0 && !w->err)
                bl_worker_fail(w, s->dir == BL_DIR_READ ? "read" : "write",
                               res < 0 ? (int)-res : EIO);
            rc = -1;
            continue;
        }
        bl_io_done(w, s->dir, a->bs, s->slat, now - s->t_issue, now);
        if (s->dir == BL_DIR_WRITE && (w->job->fsync_every || w->job->fdatasync_every) &&
            bl_maybe_fsync(w, s->dir) != 0)
            rc = -1;
    }
    return rc;
}

/* Prepares up to cap I/Os from free slots into the pending list. */
static void prepare(aio_state *a, uint64_t now)
{
    bl_worker *w = a->w;
    while (a->npend < a->cap && a->nfree > 0 && bl_more(w, now)) {
        if (w->rate_ns && bl_rate_hold(w, bl_now_ns()))
            break;
        struct iocb *cb = a->freeq[--a->nfree];
        slot *s = (slot *)cb;
        unsigned char *buf = w->buf + (size_t)(s - a->slots) * a->bs;
        bl_io io;
        bl_next_io(w, &io, buf);
        if (io.dir == BL_DIR_READ)
            io_prep_pread(cb, w->fds[io.file], buf, a->bs, (long long)io.off);
        else
            io_prep_pwrite(cb, w->fds[io.file], buf, a->bs, (long long)io.off);
        cb->data = s;
        s->dir = io.dir;
        a->pend[a->npend++] = cb;
    }
}

/* fio's loop: fill every free slot, then take one completion (from the ring when one waits,
 * else sleeping in io_getevents) and refill its slot at once. Taking all waiting completions
 * first and refilling them one io_submit after another left the slots empty meanwhile: the
 * virtio disk completes in bursts, and the queue averaged half the asked depth (issue 18).
 * An I/O that waits in the ring stays in flight, as fio counts it. */
static int loop(aio_state *a)
{
    bl_worker *w = a->w;
    uint64_t now = bl_now_ns();
    for (;;) {
        while (a->nfree > 0 || a->npend > 0) {
            prepare(a, now);
            if (a->npend == 0)
                break;
            unsigned in = a->inflight;
            if (submit(a) != 0)
                return -1;
            if (a->inflight == in)
                break; /* the kernel queue is full: reap first */
        }
        if (a->inflight == 0) {
            if (a->npend == 0) {
                /* Nothing in flight: done, or held back by rate until the next I/O is due. */
                now = bl_now_ns();
                if (!bl_more(w, now))
                    return 0;
                bl_sleep_until(w, bl_rate_hold(w, now));
                now = bl_now_ns();
                continue;
            }
            bl_worker_fail(w, "io_submit", EAGAIN); /* refused with nothing in flight */
            return -1;
        }
        int got = a->user ? user_reap(a->ctx, a->ev, 1) : 0;
        if (got == 0)
            got = io_getevents(a->ctx, 1, 1, a->ev, NULL);
        now = bl_now_ns();
        if (got == -EINTR)
            continue;
        if (got < 0) {
            bl_worker_fail(w, "io_getevents", -got);
            return -1;
        }
        if (complete(a, got, now) != 0)
            return -1;
    }
}

static int libaio_run(bl_worker *w)
{
    aio_state *a = bl_xcalloc(1, sizeof *a);
    a->w = w;
    a->depth = (unsigned)w->job->iodepth;
    a->bs = w->job->bs;
    /* Small batches: io_submit plugs the queue until the whole batch is in, so one big batch
     * lets the device run dry meanwhile (fio's iodepth_batch_submit, default 1). */
    a->cap = w->job->iodepth_batch > 0 ? (unsigned)w->job->iodepth_batch : a->depth;
    int r = io_setup((int)a->depth, &a->ctx);
    if (r < 0) {
        bl_worker_fail(w, "io_setup", -r);
        free(a);
        return -1;
    }
    a->user = w->job->userspace_reap && ring_usable(a->ctx);
    for (unsigned i = 0; i < a->depth; i++)
        a->freeq[i] = &a->slots[i].cb;
    a->nfree = a->depth;
    int rc = loop(a);
    /* Drain what is still in flight before the buffers go away. */
    while (a->inflight > 0) {
        int g = io_getevents(a->ctx, 1, (long)a->depth, a->ev, NULL);
        if (g > 0)
            a->inflight -= (unsigned)g;
        else if (g != -EINTR)
            break;
    }
    io_destroy(a->ctx);
    free(a);
    return rc;
}

const bl_engine_ops bl_engine_libaio = {
    .name = "libaio",
    .flags = BL_ENGINE_SLAT,
    .summary = "Linux native AIO (io_submit/io_getevents), iodepth in flight",
    .run = libaio_run,
};
