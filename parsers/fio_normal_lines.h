/* The lines inside a job block of fio's normal output, read one at a time: the direction
 * summary, latency, percentile and sample lines. No state: fio_normal.c keeps the block. */
#ifndef BL_FIO_NORMAL_LINES_H
#define BL_FIO_NORMAL_LINES_H

#include "../core/record.h"
#include <stddef.h>

/* Whether the trimmed line p starts with the word key (then no letter or digit); key is not
 * empty. */
int bl_fio_line_key(const char *p, const char *key);
/* `read : io=..., bw=..., iops=..., runt=...` (fio 2.x) into r. */
void bl_fio_old_summary(const char *p, bl_record *r);
/* `IOPS=..., BW=A (B)(io/runtime)` (fio 2.17 on) into r; *si is set when the figures say
 * kb_base=1000 (SI first). */
void bl_fio_new_summary(const char *p, bl_record *r, int *si);
/* ns per unit of "(usec)" right after p (spaces allowed), 0 when none; *end after ")". */
double bl_fio_paren_unit(const char *p, const char **end);
/* r's latency named at the start of p (slat, clat, lat, sync) and the name's length. */
bl_lat *bl_fio_lat_of(bl_record *r, const char *p, size_t *keylen);
/* `clat (msec): min=1 , max=93 , avg= 2.77, stdev= 2.26`: 1 when all four were read. */
int bl_fio_lat_line(const char *p, double unit, bl_lat *l);
/* `|  1.00th=[ 2008], ...`: percentiles added, or -1 for an unreadable value. */
int bl_fio_pct_line(const char *p, double unit, bl_lat *l);
/* `bw (KiB/s): min=..., avg=..., samples=N` and `iops : min=...`, times mult. */
int bl_fio_samples_line(const char *p, double mult, bl_samples *s);
/* "(KB  /s)", "(  MiB/s)" -> bytes/s per printed unit (fio: K = 1024), 0 when none. */
double bl_fio_bw_unit(const char *p);

#endif
