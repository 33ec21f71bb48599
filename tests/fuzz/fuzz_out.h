/* Shared by the output writers' fuzz targets (fuzz_out_*.c, issue 29): the input's bytes,
 * split at NUL bytes, become the strings a parser could put in records (each decoded as a
 * source's text is, so valid UTF-8): a heading, two job names, a host, a note, a unit, a test
 * name and a source name; the figures come from the bytes too, within what a device prints.
 * The comparison is built by job, with repeats, a metric figure and a note-only cell. */
#ifndef BL_FUZZ_OUT_H
#define BL_FUZZ_OUT_H

#include "../../compare/table.h"
#include "../../core/encoding.h"
#include "../../core/record.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FZ_TITLE, FZ_JOB_A, FZ_JOB_B, FZ_HOST, FZ_NOTE, FZ_UNIT, FZ_TEST, FZ_SOURCE, FZ_N };

typedef struct fuzz_out {
    char *s[FZ_N];
    bl_records recs;
    bl_table *t;
    uint32_t h; /* the bytes' hash: figures and choices */
} fuzz_out;

static uint32_t fz_next(fuzz_out *f)
{
    f->h = f->h * 1103515245u + 12345u;
    return f->h >> 8;
}

static bl_record *fz_rec(fuzz_out *f, const char *test, const char *job, long run)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, f->s[FZ_SOURCE][0] ? f->s[FZ_SOURCE] : "fuzz.txt");
    r->line = run;
    r->run = run;
    bl_record_set_str(&r->tool, "fio");
    bl_record_set_str(&r->test, test);
    bl_record_set_label(r, "job", job);
    bl_record_set_label(r, "host", f->s[FZ_HOST]);
    r->bs = 1048576;
    r->iodepth = 1 + fz_next(f) % 32;
    r->numjobs = 1;
    bl_records_push(&f->recs, r);
    return r;
}

static void fz_figures(fuzz_out *f, bl_record *r)
{
    r->bw_bytes_s = 1e5 * (1 + fz_next(f) % 100000);
    r->iops = r->bw_bytes_s / 1048576;
    r->clat_ns.present = true;
    r->clat_ns.mean = 1e3 * (1 + fz_next(f) % 100000);
    bl_lat_add_pct(&r->clat_ns, 99, r->clat_ns.mean * 3);
}

/* 0 when the input gave the records and the table. */
static int fuzz_out_init(fuzz_out *f, const uint8_t *data, size_t size)
{
    memset(f, 0, sizeof *f);
    const char *p = (const char *)data, *e = p + size;
    for (int i = 0; i < FZ_N; i++) {
        const char *nul = p < e ? memchr(p, 0, (size_t)(e - p)) : NULL;
        size_t n = p < e ? (size_t)((nul ? nul : e) - p) : 0, len;
        bl_to_utf8(p, n, &f->s[i], &len);
        p += n + (nul != NULL);
    }
    f->h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        f->h = (f->h ^ data[i]) * 16777619u;
    bl_records_init(&f->recs);
    for (long run = 1; run <= 2; run++) { /* repeats of both jobs */
        fz_figures(f, fz_rec(f, "seq-read", f->s[FZ_JOB_A], run));
        fz_figures(f, fz_rec(f, "seq-read", f->s[FZ_JOB_B], run));
    }
    bl_record *v = fz_rec(f, f->s[FZ_TEST][0] ? f->s[FZ_TEST] : "seeks", f->s[FZ_JOB_A], 3);
    bl_record_set_str(&v->metric, "seeks");
    v->value = fz_next(f) % 100000 / 10.0;
    bl_record_set_str(&v->unit, f->s[FZ_UNIT]);
    bl_record *n = fz_rec(f, "seq-create", f->s[FZ_JOB_B], 4);
    bl_record_set_str(&n->note, f->s[FZ_NOTE][0] ? f->s[FZ_NOTE] : "+++++");
    char err[256];
    bl_table_opts o = {.by = "job", .repeats = (bl_repeats)(fz_next(f) % 4)};
    f->t = bl_table_build(&f->recs, &o, err, sizeof err);
    return f->t ? 0 : -1;
}

static void fuzz_out_free(fuzz_out *f)
{
    if (f->t)
        bl_table_free(f->t);
    bl_records_free(&f->recs);
    for (int i = 0; i < FZ_N; i++)
        free(f->s[i]);
}

#endif
