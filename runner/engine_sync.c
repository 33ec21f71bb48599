/* sync engine: one pread/pwrite at a time (fio's psync); the QD1 engine and the one for
 * targets without O_DIRECT. Latency is the call's duration (clat = lat, no slat, as fio). */
#include "engine.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* A trim on a file: the range becomes a hole (its blocks are freed), the size stays. */
static int punch(int fd, uint64_t len, uint64_t off)
{
    if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) != 0)
        return -errno;
    return 0;
}

static int full_io(int fd, bl_dir d, unsigned char *buf, uint64_t len, uint64_t off)
{
    uint64_t done = 0;
    while (done < len) {
        ssize_t r = d == BL_DIR_READ ? pread(fd, buf + done, len - done, (off_t)(off + done))
                                     : pwrite(fd, buf + done, len - done, (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (r == 0)
            return -EIO; /* read past the end: the file is shorter than the job says */
        done += (uint64_t)r;
    }
    return 0;
}

static int sync_run(bl_worker *w)
{
    uint64_t bs = w->job->bs;
    uint64_t now = bl_now_ns();
    bl_io io;
    while (bl_more(w, now)) {
        uint64_t hold = bl_rate_hold(w, now);
        if (hold) {
            bl_sleep_until(w, hold);
            now = bl_now_ns();
            continue;
        }
        bl_next_io(w, &io, w->buf);
        bl_mark_depth(w, 1, 1);
        uint64_t t0 = bl_now_ns();
        int rc = w->job->is_trim ? punch(w->fds[io.file], bs, io.off)
                                 : full_io(w->fds[io.file], io.dir, io.buf, bs, io.off);
        now = bl_now_ns();
        if (rc < 0) {
            bl_worker_fail(w,
                           w->job->is_trim         ? "trim (punching a hole)"
                           : io.dir == BL_DIR_READ ? "read"
                                                   : "write",
                           -rc);
            return -1;
        }
        bl_io_done(w, io.dir, bs, UINT64_MAX, now - t0, now);
        if (io.dir == BL_DIR_WRITE && bl_maybe_fsync(w, io.dir) != 0)
            return -1;
    }
    return 0;
}

static const char *const sync_aliases[] = {"psync", "pvsync", NULL};

const bl_engine_ops bl_engine_sync = {
    .name = "sync",
    .aliases = sync_aliases,
    .flags = BL_ENGINE_NO_QUEUE | BL_ENGINE_TRIM,
    .summary = "pread/pwrite, one I/O at a time (psync and pvsync are this engine)",
    .run = sync_run,
};
