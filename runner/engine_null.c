/* null engine: no I/O at all. Without a service time every request completes at once: it runs
 * the same bookkeeping as the real engines (offsets, timestamps, histograms, counters) in
 * batches of iodepth, so its rate is the engine's own ceiling; compare with fio's
 * ioengine=null. With service_time each I/O completes that long after it was issued, up to
 * iodepth at a time: a device of known latency, on which IOPS x mean latency must give the
 * depth (Little's law), however slow or loaded the machine is. */
#include "engine.h"
#include <errno.h>

static int run_instant(bl_worker *w)
{
    uint64_t bs = w->job->bs;
    unsigned depth = (unsigned)w->job->iodepth;
    uint64_t now = bl_now_ns();
    bl_io io[256];
    while (bl_more(w, now)) {
        unsigned n = 0;
        while (n < depth && bl_more(w, now)) {
            bl_next_io(w, &io[n], w->buf + (size_t)n * bs);
            n++;
            bl_mark_depth(w, n, 1);
        }
        uint64_t t_sub = bl_now_ns();
        now = bl_now_ns();
        for (unsigned i = 0; i < n; i++)
            bl_io_done(w, io[i].dir, bs, UINT64_MAX, now - t_sub, now);
    }
    return 0;
}

static void sleep_until(uint64_t t)
{
    struct timespec ts = {(time_t)(t / 1000000000u), (long)(t % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* The I/Os in flight form a FIFO: with one service time they are due in issue order. A slot
 * is refilled as soon as its I/O is reaped, as the libaio engine does. */
static int run_timed(bl_worker *w)
{
    uint64_t bs = w->job->bs, svc = w->job->service_ns;
    unsigned depth = (unsigned)w->job->iodepth, head = 0, n = 0;
    uint64_t t_issue[256];
    bl_dir dir[256];
    uint64_t now = bl_now_ns();
    for (;;) {
        while (n < depth && bl_more(w, now)) {
            unsigned k = (head + n) % depth;
            bl_io io;
            bl_next_io(w, &io, w->buf + (size_t)k * bs);
            dir[k] = io.dir;
            t_issue[k] = now = bl_now_ns();
            n++;
            bl_mark_depth(w, n, 1);
        }
        if (n == 0)
            return 0;
        uint64_t due = t_issue[head] + svc;
        now = bl_now_ns();
        if (now < due) {
            sleep_until(due);
            now = bl_now_ns();
        }
        bl_io_done(w, dir[head], bs, UINT64_MAX, now - t_issue[head], now);
        head = (head + 1) % depth;
        n--;
    }
}

static int null_run(bl_worker *w)
{
    return w->job->service_ns ? run_timed(w) : run_instant(w);
}

const bl_engine_ops bl_engine_null = {
    .name = "null",
    .flags = BL_ENGINE_NO_IO | BL_ENGINE_SERVICE_TIME,
    .summary = "no I/O: the engine's own overhead, or a device of service_time latency",
    .run = null_run,
};
