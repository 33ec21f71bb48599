/* The engines of `benchlog run`, registered as fio registers its ioengines: one table
 * (runner/engines.c, one X(name) line an engine), each engine one file defining
 * `const bl_engine_ops bl_engine_NAME`. The rest of the runner asks the table and the
 * engine's flags; nothing else compares engine names. */
#ifndef BL_RUNNER_ENGINE_OPS_H
#define BL_RUNNER_ENGINE_OPS_H

#include <stdbool.h>
#include <stddef.h>

struct bl_worker;
struct bl_job;

enum {
    /* Touches no file: no scratch file, no fsync (fio's FIO_DISKLESSIO). */
    BL_ENGINE_NO_IO = 1u << 0,
    /* One I/O at a time: iodepth > 1 runs and is recorded as 1, with a warning (FIO_SYNCIO). */
    BL_ENGINE_NO_QUEUE = 1u << 1,
    /* Submission is a step of its own: slat is measured and lat = slat + clat. */
    BL_ENGINE_SLAT = 1u << 2,
    /* Accepts service_time (a simulated device latency). */
    BL_ENGINE_SERVICE_TIME = 1u << 3,
    /* Accepts hipri (polled completions) and sqthread_poll (a kernel submission thread). */
    BL_ENGINE_POLLING = 1u << 4,
    /* Runs rw=trim/randtrim: punches holes in a file (fallocate). */
    BL_ENGINE_TRIM = 1u << 5,
};

typedef struct bl_engine_ops {
    const char *name;           /* what records carry in ioengine */
    const char *const *aliases; /* other names job files use (NULL-terminated), or NULL */
    unsigned flags;             /* BL_ENGINE_* */
    const char *summary;        /* one line for --help */
    /* NULL: usable wherever benchlog builds. Else 0, or -1 with why this machine cannot
     * (kernel too old, disabled by sysctl...), asked before a phase starts. */
    int (*available)(char *why, size_t n);
    /* NULL, or checks a job's options against its target before anything is written to it
     * (fd opened as the job will open it; direct: O_DIRECT was granted). 0, or -1 with why. */
    int (*check_target)(const struct bl_job *j, int fd, bool direct, char *why, size_t n);
    /* The worker's loop: bl_next_io/bl_io_done until bl_more says stop. 0 or -1 (set). */
    int (*run)(struct bl_worker *w);
} bl_engine_ops;

/* By name or alias; NULL when unknown. */
const bl_engine_ops *bl_engine_find(const char *name);
size_t bl_engine_count(void);
const bl_engine_ops *bl_engine_at(size_t i);
/* 0 when e can run here; else -1 with the reason in why. */
int bl_engine_available(const bl_engine_ops *e, char *why, size_t n);
static inline bool bl_engine_has(const bl_engine_ops *e, unsigned flag)
{
    return (e->flags & flag) != 0;
}

#endif
