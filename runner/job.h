/* The job model of `benchlog run` and the fio job file reader.
 *
 * A job says what one group of threads does: direction and pattern, block size, queue depth,
 * how much (size, loops) or how long (runtime, time_based), on which file. Suites build jobs
 * in code; bl_jobfile_parse reads them from fio's INI format with fio's suffixes:
 * sizes k/m/g/t/p = powers of 1024 (and, as fio does, "KiB"/"MiB" = powers of 1000), times
 * in seconds unless suffixed us/ms/s/m/h/d. `[global]` sets defaults for the sections after
 * it. An option we do not support is an error naming the option and its line: a job file
 * never runs with something silently ignored. */
#ifndef BL_RUNNER_JOB_H
#define BL_RUNNER_JOB_H

#include "../core/diag.h"
#include "../core/text.h"
#include "dist.h"
#include "engine_ops.h"
#include "steady.h"
#include "target.h"
#include "verify.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { BL_DIR_READ = 0, BL_DIR_WRITE = 1 } bl_dir;

typedef struct bl_job {
    char *name;
    long line; /* section header line in the job file; 0 for suite jobs */
    char *filename, *directory;
    bool is_write, is_read; /* rw=rw/randrw: both */
    bool random;
    bool is_trim;         /* rw=trim/randtrim: the write slot carries trims (punched holes) */
    int rwmixread;        /* percent of reads in a mixed job */
    uint64_t bs;          /* bytes */
    uint64_t size;        /* bytes of the file region a pass covers; 0 = the file's size */
    uint64_t offset;      /* where the region starts */
    int numjobs, iodepth; /* threads, I/Os in flight per thread */
    int iodepth_asked;    /* the job file's iodepth when the engine could not queue; else 0 */
    uint64_t service_ns;  /* null engine: each I/O completes this long after it is issued */
    int iodepth_batch;    /* I/Os per io_submit call (fio's iodepth_batch_submit, default 1) */
    bool userspace_reap;  /* libaio: read completions from the kernel's ring (default on) */
    int loops;
    double runtime_s; /* 0 = no time limit */
    bool time_based;  /* keep going until runtime_s even after a full pass */
    double ramp_time_s;
    int direct;          /* 0/1 */
    bool end_fsync;      /* fsync the file when the job ends (counted in its runtime) */
    int fsync_every;     /* fsync after every N writes; 0 = never */
    int fdatasync_every; /* fdatasync after every N writes (the etcd disk check: 1); 0 = never */
    bool norandommap;    /* plain uniform random offsets instead of one cover per pass */
    /* fio's file set-up: a new file's space reserved as fallocate= says (default native);
     * data written over it first only when the job reads or with overwrite=1. */
    bl_falloc_mode fallocate;
    bool overwrite;
    int nrfiles; /* files of the job, size split evenly (fio's size / nrfiles); default 1 */
    /* io_uring: polled completions, a kernel submission thread (both off by default, as in
     * fio); registered buffers and file (on by default: fio's fixedbufs/registerfiles=0
     * turn them off). */
    bool hipri, sqthread_poll, fixedbufs, registerfiles;
    /* fio's verify: digest in every written block, read back after the writes (do_verify),
     * or only read back (verify_only); verify_fatal stops at the first bad block. */
    /* rate (bytes/s) or rate_iops per thread, fio's rate_process=linear; 0 = unlimited. */
    /* random_distribution: zipf/pareto draw blocks without the random map (as fio). */
    bl_dist_kind dist;
    double dist_param;
    bl_ss_opts ss;                   /* steady state: ss=, ss_dur=, ss_ramp= */
    uint64_t rate_bps, rate_min_bps; /* rate_min: a thread below it for a second fails */
    int rate_iops_min;
    /* Offsets and data: the same on every run (randrepeat, fio's default), or from randseed,
     * or new each run (randrepeat=0). */
    bool randrepeat, randseed_set;
    uint64_t randseed;
    int rate_iops;
    bl_verify_kind verify;
    bool do_verify, verify_fatal, verify_only;
    const bl_engine_ops *engine; /* from the table in engines.c; never NULL */
    bool stonewall, new_group, group_reporting;
    char *bw_log, *iops_log, *lat_log; /* fio log prefixes, NULL = none */
    int log_avg_msec;
    char *hist_log;          /* write_hist_log prefix, NULL = none */
    int log_hist_msec;       /* a histogram line per this many ms (needed by write_hist_log) */
    int log_hist_coarseness; /* 0-6: 2^N fio buckets a number */
    char *description;
    char *cdm_test; /* CrystalDiskMark test name of suite jobs ("SEQ1M Q8T1") */
} bl_job;

/* Limits: sizes and offsets are file offsets (off_t); times up to 100 days keep every
 * nanosecond count far inside 64 bits. */
#define BL_MAX_OFF INT64_MAX
#define BL_MAX_BS (256ull << 20)
#define BL_MAX_TIME_S (100.0 * 86400)
#define BL_MAX_FILES 256 /* nrfiles: descriptors open at once per clone */

typedef struct bl_jobs {
    size_t n;
    bl_job *v;
} bl_jobs;

/* A job with fio's defaults (rw=read, bs=4k, iodepth=1, numjobs=1, ioengine=sync). */
void bl_job_defaults(bl_job *j);
void bl_job_copy(bl_job *dst, const bl_job *src);
void bl_job_free(bl_job *j);
void bl_jobs_free(bl_jobs *js);
/* Sets one option by fio name; returns 0, or -1 with a message in err ("unknown option"). */
int bl_job_set(bl_job *j, const char *key, const char *value, char *err, size_t errlen);

/* The job file's options are one table (job_opts.c, as fio's options.c): name, aliases, type,
 * bounds, the field set (or a parser of its own) and help. bl_job_set looks keys up in it and
 * range-checks from it; `benchlog run --help-options` lists it. */
typedef enum {
    BL_JO_BOOL,   /* bool; no value = 1 */
    BL_JO_INT,    /* int within [lo, hi] */
    BL_JO_SIZE,   /* uint64_t bytes within [lo, hi], fio's suffixes */
    BL_JO_TIME,   /* double seconds within [0, hi], fio's suffixes */
    BL_JO_STR,    /* char *, a non-empty value */
    BL_JO_LOG,    /* char *, a log prefix; no value = the job's name */
    BL_JO_ACCEPT, /* accepted, changes nothing in how benchlog runs */
    BL_JO_FN,     /* the option's own parser */
} bl_job_opt_type;

typedef struct bl_job_opt bl_job_opt;
struct bl_job_opt {
    const char *name;
    const char *alias[2];
    bl_job_opt_type type;
    size_t off;          /* offsetof(bl_job, field) for the typed options */
    uint64_t lo, hi;     /* bounds of INT, SIZE, TIME (s) and of FN numbers */
    const char *hi_text; /* the upper bound as people read it ("256 MiB"); NULL: the number */
    bool one_value;      /* refuse "A,B" (fio's value for each direction) */
    /* BL_JO_FN: 0, or -1 with err; key is the name as written (may be an alias). */
    int (*parse)(bl_job *j, const bl_job_opt *o, const char *key, const char *v, char *err,
                 size_t errlen);
    const char *values; /* the accepted values or syntax, for the help */
    const char *help;
    const char *fn_type; /* BL_JO_FN: the type the help shows ("choice", "int") */
};

size_t bl_job_opt_count(void);
const bl_job_opt *bl_job_opt_at(size_t i);
/* By name or alias; NULL when not in the table. */
const bl_job_opt *bl_job_opt_find(const char *key);
/* "1 to 256", "0 to 100 days", "" for options without bounds: what messages and help show. */
void bl_job_opt_bounds(const bl_job_opt *o, char *buf, size_t n);
/* Every option of the table, one a line: name (aliases), type, bounds or values, help. */
void bl_job_opts_help(FILE *f);

/* Limits that involve several options (offset + size within a file, buffers, times), for a
 * job as read and again after command line overrides. 0, or -1 with a message. */
int bl_job_check(const bl_job *j, char *err, size_t errlen);

/* Reads a job file text; every problem is reported through out as LINE: message. Returns
 * the number of errors; jobs holds the job sections in order (even when there are errors). */
int bl_jobfile_parse(const bl_text *t, bl_jobs *jobs, bl_diags *out);

/* fio's size and time syntax: "4k" -> 4096, "1MiB" -> 1000000; "1500ms" -> 1.5 s. */
bool bl_fio_size(const char *s, uint64_t *out);
bool bl_fio_time_s(const char *s, double *out);

/* Whether the job writes to its file (writes, trims, verify's written blocks): the others
 * open it read-only. */
bool bl_job_writes(const bl_job *j);

/* "seq-read", "rand-write", ... for the record's test field. */
const char *bl_job_test_name(const bl_job *j, bl_dir d);

#endif
