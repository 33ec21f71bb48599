/* The record model of SPEC.md: one measured figure set of one test in one run.
 *
 * Units are the model's: bytes, bytes/s, nanoseconds, seconds. A numeric field that the
 * source did not report is "absent": BL_ABSENT (NaN) for doubles, -1 for integers, and
 * BL_TRI_ABSENT for booleans. A record owns every string and array it points to;
 * bl_record_free releases all of it. */
#ifndef BL_RECORD_H
#define BL_RECORD_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BL_ABSENT NAN
#define bl_present(x) (!isnan(x))

enum { BL_TRI_ABSENT = -1, BL_FALSE = 0, BL_TRUE = 1 };

typedef struct bl_label {
    char *key;
    char *value;
} bl_label;

/* One percentile: "p":{"99.9":22912000}. */
typedef struct bl_pct {
    double pct;   /* 99.9 */
    double value; /* ns */
} bl_pct;

/* One bin of a latency histogram (fio JSON+ "bins", our runner, fio hist logs). */
typedef struct bl_bin {
    double value; /* ns: the bin's representative latency */
    uint64_t count;
} bl_bin;

/* Latency statistics in ns; present == false means the whole object is absent. */
typedef struct bl_lat {
    bool present;
    double min, max, mean, stdev; /* BL_ABSENT where not reported */
    size_t n_pct;
    bl_pct *pct; /* ascending by pct */
    size_t n_bins;
    bl_bin *bins; /* ascending by value */
} bl_lat;

/* Sampled figure (fio "bw (KiB/s)" / "iops" sample lines): min/max/mean/stdev/samples. */
typedef struct bl_samples {
    bool present;
    double min, max, mean, stdev; /* in the record's units (bytes/s or IO/s) */
    int64_t count;                /* -1 when not reported */
} bl_samples;

/* A timeline for charts: (t seconds, value) points, value in `unit`. */
typedef struct bl_series {
    char *name; /* "bw", "iops", "clat", "lat", "slat" */
    char *unit; /* "bytes/s", "IO/s", "ns" */
    size_t n, cap;
    double *t;
    double *v;
} bl_series;

/* One device of fio's "Disk stats" / JSON "disk_util": what the kernel counted for it
 * during the run. Counts are -1 and times BL_ABSENT where not reported. */
typedef struct bl_disk {
    char *name;                  /* "sda", "md2" */
    int64_t read_ios, write_ios; /* requests completed */
    int64_t read_merges, write_merges;
    double read_ticks_s, write_ticks_s; /* time the requests spent in the device */
    double in_queue_s;
    double util_pct; /* share of the run the device was busy */
} bl_disk;

/* A distribution in percent of I/Os: fio's "lat (usec) : 250=61.91%" buckets (at = the
 * bucket's upper bound in ns) or "IO depths : 4=100.0%" (at = the depth). ge marks fio's
 * open-ended last bucket (">=2000" ms, ">=64"). Ascending by at, ge last. */
typedef struct bl_dist_bin {
    double at;
    bool ge;
    double pct;
} bl_dist_bin;

typedef struct bl_dist {
    size_t n;
    bl_dist_bin *v;
} bl_dist;

typedef struct bl_record {
    char *source;
    int64_t line; /* 1-based; -1 when unknown */
    int64_t run;  /* 1-based run number within the source */
    char *tool;
    char *tool_version;

    size_t n_labels;
    bl_label *labels; /* in insertion order; keys unique */

    char *test;    /* canonical: seq-read, rand-write, seq-create, ... */
    char *op;      /* read, write, trim, meta */
    char *pattern; /* seq, rand */
    int64_t bs, iodepth, numjobs;
    char *ioengine;
    int direct; /* BL_TRI_ABSENT, BL_FALSE, BL_TRUE */

    int64_t size_bytes, io_bytes;
    double runtime_s, bw_bytes_s, iops;
    bl_lat clat_ns, slat_ns, lat_ns;
    double cpu_usr_pct, cpu_sys_pct;

    char *metric; /* one figure that is neither bw nor iops: "seeks" */
    double value;
    char *unit; /* "ops/s", "files/s" */

    /* Extensions to SPEC (README, "Extensions to the record"). */
    double cpu_pct;  /* bonnie++'s %CP column */
    char *note;      /* e.g. "+++++: too fast to measure" */
    char *when;      /* when the run ran: UTC, "2026-12-02T12:28:07Z" (core/when.h) */
    char *when_from; /* where that came from: text, run, given, file, import */
    /* How far printing (rounding, truncation) may have moved bw_bytes_s and iops, as the
     * parser read the digits; BL_ABSENT when it did not say (core/consistency.h assumes then).
     * Parse time only: not in JSON or the store. */
    double bw_prec, iops_prec;
    bl_samples bw_samples; /* bytes/s */
    bl_samples iops_samples;
    bl_lat sync_ns;       /* fsync/fdatasync calls of a write job (fio's "sync" block) */
    bl_dist lat_dist;     /* fio's latency buckets of the job (all directions together) */
    bl_dist iodepth_dist; /* fio's "IO depths" of the job */
    size_t n_disks;
    bl_disk *disks; /* the run's devices (fio's disk stats), on each of its records */
    size_t n_series;
    bl_series *series;
} bl_record;

/* A growable list that owns its records. */
typedef struct bl_records {
    bl_record **v;
    size_t n, cap;
} bl_records;

bl_record *bl_record_new(void);
void bl_record_free(bl_record *r);
bl_record *bl_record_clone(const bl_record *r);

/* Setters copy their argument (NULL clears). */
void bl_record_set_str(char **field, const char *value);
void bl_record_set_label(bl_record *r, const char *key, const char *value);
const char *bl_record_label(const bl_record *r, const char *key);
void bl_record_del_label(bl_record *r, const char *key); /* no such label: nothing */
/* Appends a sentence to the record's note ("first; second"); a sentence already there is not
 * repeated. */
void bl_record_add_note(bl_record *r, const char *text);

void bl_lat_add_pct(bl_lat *l, double pct, double value_ns);
void bl_lat_add_bin(bl_lat *l, double value_ns, uint64_t count);
/* Appends an empty series and returns it; bl_series_push adds points. */
/* A bucket key as fio writes it, "250" or ">=2000": sets at and ge and returns the end of
 * the number, or NULL when s does not start with one. */
const char *bl_dist_key(const char *s, double *at, bool *ge);
/* Adds a bucket in order; a bucket already there (same at and ge) takes the new pct. */
void bl_dist_add(bl_dist *d, double at, bool ge, double pct);
/* Room for n buckets in all, so that adding that many is one allocation, not one a growth. */
void bl_dist_reserve(bl_dist *d, size_t n);
/* A device with every figure absent; name is not copied. */
bl_disk bl_disk_absent(char *name);
/* A new device entry (name copied), every figure absent. */
bl_disk *bl_record_add_disk(bl_record *r, const char *name);
bl_series *bl_record_add_series(bl_record *r, const char *name, const char *unit);
void bl_series_push(bl_series *s, double t, double v);

void bl_records_init(bl_records *rs);
void bl_records_push(bl_records *rs, bl_record *r); /* takes ownership */
void bl_records_free(bl_records *rs);

#endif
