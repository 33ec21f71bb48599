/* libaio engine: Linux native AIO. Keeps iodepth requests in flight; submits everything it
 * can prepare in one io_submit and reaps every completion available in one io_getevents,
 * so system calls per I/O fall as the queue deepens. slat is the io_submit call, clat from
 * its return to the reaping of the completion. */
#include "engine.h"
#include <errno.h>
#include <libaio.h>
#include <string.h>

typedef struct slot {
    struct iocb cb;
    uint64_t t_issue, slat;
    bl_dir dir;
} slot;

static int submit(bl_worker *w, io_context_t ctx, struct iocb **q, unsigned n, slot *slots,
                  uint64_t *now)
{
    unsigned done = 0;
    while (done < n) {
        uint64_t t0 = *now;
        int r = io_submit(ctx, (long)(n - done), q + done);
        *now = bl_now_ns();
        if (r == -EAGAIN || r == -EINTR || r == 0)
            return (int)done; /* the kernel queue is full: reap first */
        if (r < 0) {
            bl_worker_fail(w, "io_submit", -r);
            return -1;
        }
        for (int i = 0; i < r; i++) {
            slot *s = (slot *)q[done + (unsigned)i]->data;
            s->t_issue = *now;
            s->slat = *now - t0;
        }
        done += (unsigned)r;
    }
    (void)slots;
    return (int)done;
}

int bl_engine_libaio_run(bl_worker *w)
{
    unsigned depth = (unsigned)w->job->iodepth;
    uint64_t bs = w->job->bs;
    io_context_t ctx = 0;
    int r = io_setup((int)depth, &ctx);
    if (r < 0) {
        bl_worker_fail(w, "io_setup", -r);
        return -1;
    }
    slot slots[256];
    struct iocb *freeq[256], *pend[256];
    struct io_event ev[256];
    for (unsigned i = 0; i < depth; i++)
        freeq[i] = &slots[i].cb;
    unsigned nfree = depth, npend = 0, inflight = 0;
    uint64_t now = bl_now_ns();
    int rc = 0;
    for (;;) {
        /* Prepare as many as there are free slots, then submit them together. */
        while (nfree > 0 && bl_more(w, now)) {
            struct iocb *cb = freeq[--nfree];
            slot *s = (slot *)cb;
            unsigned char *buf = w->buf + (size_t)(s - slots) * bs;
            bl_io io;
            bl_next_io(w, &io, buf);
            if (io.dir == BL_DIR_READ)
                io_prep_pread(cb, w->fd, buf, bs, (long long)io.off);
            else
                io_prep_pwrite(cb, w->fd, buf, bs, (long long)io.off);
            cb->data = s;
            s->dir = io.dir;
            pend[npend++] = cb;
        }
        if (npend > 0) {
            /* Small batches: io_submit plugs the queue until the whole batch is in, so one
             * big batch lets the device run dry meanwhile (fio's iodepth_batch_submit). */
            unsigned cap = w->job->iodepth_batch > 0 ? (unsigned)w->job->iodepth_batch : depth;
            int n = 0;
            for (unsigned at = 0; at < npend;) {
                unsigned chunk = npend - at < cap ? npend - at : cap;
                int got = submit(w, ctx, pend + at, chunk, slots, &now);
                if (got < 0) {
                    n = -1;
                    break;
                }
                n += got;
                at += (unsigned)got;
                if ((unsigned)got < chunk)
                    break;
            }
            if (n < 0) {
                rc = -1;
                break;
            }
            inflight += (unsigned)n;
            memmove(pend, pend + n, (npend - (unsigned)n) * sizeof *pend);
            npend -= (unsigned)n;
        }
        if (inflight == 0 && npend == 0)
            break;
        int got = io_getevents(ctx, 1, (long)depth, ev, NULL);
        now = bl_now_ns();
        if (got == -EINTR)
            continue;
        if (got < 0) {
            bl_worker_fail(w, "io_getevents", -got);
            rc = -1;
            break;
        }
        for (int i = 0; i < got; i++) {
            slot *s = (slot *)ev[i].data;
            long res = (long)ev[i].res;
            inflight--;
            freeq[nfree++] = &s->cb;
            if (res != (long)bs) {
                if (rc == 0)
                    bl_worker_fail(w, s->dir == BL_DIR_READ ? "read" : "write",
                                   res < 0 ? (int)-res : EIO);
                rc = -1;
                continue;
            }
            bl_io_done(w, s->dir, bs, s->slat, now - s->t_issue, now);
            if (s->dir == BL_DIR_WRITE && w->job->fsync_every && bl_maybe_fsync(w, s->dir) != 0)
                rc = -1;
        }
        if (rc != 0) {
            /* Drain what is still in flight before the buffers go away. */
            while (inflight > 0) {
                int g = io_getevents(ctx, 1, (long)depth, ev, NULL);
                if (g > 0)
                    inflight -= (unsigned)g;
                else if (g != -EINTR)
                    break;
            }
            break;
        }
    }
    io_destroy(ctx);
    return rc;
}
