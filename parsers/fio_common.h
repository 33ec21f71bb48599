/* Helpers shared by the fio formats (normal, terse, JSON, logs).
 *
 * A fio "job definition" is what the job header line of the normal output says
 * (`name: (g=0): rw=randrw, bs=(R) 4096B-4096B, ..., ioengine=libaio, iodepth=4`) or what
 * JSON "job options" say; records take rw/bs/ioengine/iodepth from it. Test names follow
 * SPEC: rw=randrw gives rand-read and rand-write, rw=rw gives seq-read and seq-write,
 * trims give seq-trim / rand-trim. */
#ifndef BL_FIO_COMMON_H
#define BL_FIO_COMMON_H

#include "../core/record.h"
#include "../core/text.h"
#include <stdbool.h>
#include <stdint.h>

/* Directions in fio's own order (ddir numbers of logs and terse blocks). */
enum { BL_FIO_READ = 0, BL_FIO_WRITE = 1, BL_FIO_TRIM = 2, BL_FIO_NDIR = 3 };

typedef struct bl_fio_jobdef {
    char *name;
    char *rw;                /* "randrw", without a ":N" suffix; NULL when unknown */
    int64_t bs[BL_FIO_NDIR]; /* fixed block size per direction; -1 when unknown or a range */
    char *ioengine;
    int64_t iodepth, numjobs;
    int64_t size; /* bytes per job file (size=, "Laying out IO file"); -1 when unknown */
    int direct;   /* BL_TRI_ABSENT unless the text says */
    long group;
} bl_fio_jobdef;

typedef struct bl_fio_jobdefs {
    bl_fio_jobdef *v;
    size_t n, cap;
} bl_fio_jobdefs;

void bl_fio_jobdefs_free(bl_fio_jobdefs *d);
void bl_fio_jobdefs_clear(bl_fio_jobdefs *d);
/* The last definition named `name`, or NULL. */
const bl_fio_jobdef *bl_fio_jobdef_find(const bl_fio_jobdefs *d, const char *name);
/* Parses a normal-output job header line; true (and appends to d) when it is one. */
bool bl_fio_parse_jobdef_line(const char *line, bl_fio_jobdefs *d);
/* `name: Laying out IO file(s) (1 file(s) / 1024MB)`: sets the size of the last definition
 * of that name; true when the line is one. */
bool bl_fio_parse_layout_line(const char *line, bl_fio_jobdefs *d);
/* Appends a definition built from option strings (JSON "job options"); any may be NULL. */
void bl_fio_jobdef_add(bl_fio_jobdefs *d, const char *name, const char *rw, const char *bs,
                       const char *ioengine, const char *iodepth, const char *numjobs);

/* Options say kb_base=1000 (fio: then "4k" is 4000 bytes, and KiB still 1024): re-reads
 * the last definition's bs that way; nothing when kb_base is NULL or 1024. */
void bl_fio_jobdef_kb_base(bl_fio_jobdefs *d, const char *bs, const char *kb_base);

const char *bl_fio_ddir_name(int ddir); /* "read", "write", "trim" */
/* "read"/"write"/"trim" (also "READ", "mixed" -> -1) to a ddir; -1 when none. */
int bl_fio_ddir_from(const char *s, size_t len);

/* Sets tool, op, pattern, test, bs, ioengine, iodepth and the job/rw labels of r from the
 * direction and the definition (def may be NULL). */
void bl_fio_fill(bl_record *r, int ddir, const char *job, const bl_fio_jobdef *def,
                 const char *version);

/* "fio-2.0.5", "fio 2.0.1", "fio-3.33" -> "2.0.5" (caller frees), or NULL. A line must
 * hold nothing but the version (fio prints it alone); trailing blanks are allowed. */
char *bl_fio_version_line(const char *line);
/* "fio-3.33" (JSON "fio version", terse field) -> "3.33" (caller frees). */
char *bl_fio_strip_version(const char *v);

/* A line of fio's "Disk stats (read/write):" block ("  sda: ios=8374/39085,
 * merge=159/557, ticks=96328/20098, in_queue=116404, util=34.34%"; md/dm lines add aggr*
 * fields, newer fio sectors=) added as a device to each record of recs[0..n). Returns 0,
 * adding nothing, when the line is not one. */
int bl_fio_disk_line(const char *line, bl_record *const *recs, size_t n);
/* The same device added to each record (name copied). */
void bl_fio_add_disk(bl_record *const *recs, size_t n, const bl_disk *d);

/* "250=61.91%, >=2000=0.01%" (fio's latency buckets and IO depths) into d, each key times
 * unit, empty buckets left out. Returns 0 at an unreadable token (the buckets before it
 * are kept). */
int bl_fio_parse_dist(const char *s, double unit, bl_dist *d);

/* Skips spaces and tabs. */
const char *bl_fio_skip(const char *s);
/* Value after "key=" in s (first occurrence at a word start), or NULL. */
const char *bl_fio_after(const char *s, const char *key);

/* x * mult without binary noise: 4.02 * 1e6 gives 4020000, not 4019999.9999999995
 * (absent stays absent). */
double bl_fio_scale(double x, double mult);

/* Percentile "99.90" -> 99.9 rounded to fio's 2-decimal precision so that equal
 * percentiles written differently compare equal. */
double bl_fio_pct_round(double pct);

#endif
