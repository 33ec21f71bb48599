/* null engine: no I/O at all, every request completes at once. It runs the same bookkeeping
 * as the real engines (offsets, timestamps, histograms, counters) in batches of iodepth, so
 * its rate is the engine's own ceiling; compare with fio's ioengine=null. */
#include "engine.h"

int bl_engine_null_run(bl_worker *w)
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
        }
        uint64_t t_sub = bl_now_ns();
        now = bl_now_ns();
        for (unsigned i = 0; i < n; i++)
            bl_io_done(w, io[i].dir, bs, UINT64_MAX, now - t_sub, now);
    }
    return 0;
}
