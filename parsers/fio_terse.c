/* fio terse (--minimal, --output-format=terse) lines, versions 2, 3, 4 and 5.
 *
 * Layout (fio's stat.c, show_thread_status_terse_all): "2;name;group;error" or
 * "V;fio-x.y;name;group;error", then one block per direction (read, write, and trim
 * except in version 3): io KiB, bw KiB/s, IOPS, runtime ms, slat/clat min max mean dev
 * (usec), 20 "pct%=usec" fields, lat min max mean dev, bw min max agg% mean dev
 * [+ samples in v5] [+ v5: iops min max mean dev samples]; then cpu usr% sys% ctx majf
 * minf, 7 IO depths, 10 usec and 12 msec latency buckets, disk util fields (v3+) and an
 * optional description. Terse lines say nothing of rw/bs/iodepth: those come from the job
 * header lines of a normal output in the same text, when there is one. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "fio_clones.h"
#include "fio_common.h"
#include "parser.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 512

typedef struct tline {
    char *buf;
    char *f[MAX_FIELDS];
    size_t n;
} tline;

static void split(tline *tl, const char *line)
{
    tl->buf = bl_xstrdup(line);
    tl->n = 0;
    char *p = tl->buf;
    for (;;) {
        if (tl->n < MAX_FIELDS)
            tl->f[tl->n++] = p;
        char *e = strchr(p, ';');
        if (!e)
            break;
        *e = '\0';
        p = e + 1;
    }
}

static int dir_width(int ver)
{
    return ver == 5 ? 47 : 41;
}

static int ndirs(int ver)
{
    return ver == 3 ? 2 : 3;
}

/* Fields a line of version ver has at least (up to the msec latency buckets). */
static size_t min_fields(int ver)
{
    return (size_t)((ver == 2 ? 4 : 5) + ndirs(ver) * dir_width(ver) + 5 + 7 + 10 + 12);
}

/* Version of a terse line, 0 when the line is not one. */
static int terse_version(const char *line)
{
    if (line[0] < '2' || line[0] > '5' || line[1] != ';')
        return 0;
    int ver = line[0] - '0';
    if (ver >= 3 && strncmp(line + 2, "fio", 3) != 0)
        return 0;
    size_t semis = 0;
    for (const char *p = line; *p; p++)
        semis += *p == ';';
    return semis + 1 >= min_fields(ver) ? ver : 0;
}

static int num(const char *s, double *out)
{
    char *e;
    *out = strtod(s, &e);
    return e != s;
}

/* min, max, mean, dev in usec; absent when all four are zero (not measured). */
static int read_lat(char **f, bl_lat *l)
{
    double v[4];
    for (int i = 0; i < 4; i++)
        if (!num(f[i], &v[i]))
            return 0;
    if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0)
        return 1;
    l->present = true;
    l->min = bl_fio_scale(v[0], 1000);
    l->max = bl_fio_scale(v[1], 1000);
    l->mean = bl_fio_scale(v[2], 1000);
    l->stdev = bl_fio_scale(v[3], 1000);
    return 1;
}

/* 20 fields "1.000000%=43"; unused slots are "0%=0". */
static int read_pcts(char **f, bl_lat *l)
{
    for (int i = 0; i < 20; i++) {
        char *eq = strchr(f[i], '=');
        double p, v;
        if (!eq || !num(f[i], &p) || !num(eq + 1, &v))
            return 0;
        if (p > 0 && l->present)
            bl_lat_add_pct(l, bl_fio_pct_round(p), bl_fio_scale(v, 1000));
    }
    return 1;
}

static int read_samples(char **f, int n, int has_agg, double mult, bl_samples *s)
{
    double v[6] = {0};
    for (int i = 0; i < n; i++)
        if (!num(f[i], &v[i]))
            return 0;
    int k = 0;
    s->min = bl_fio_scale(v[k++], mult);
    s->max = bl_fio_scale(v[k++], mult);
    k += has_agg;
    s->mean = bl_fio_scale(v[k++], mult);
    s->stdev = bl_fio_scale(v[k++], mult);
    s->count = k < n ? bl_count_or(v[k], -1) : -1;
    s->present = v[1] > 0;
    return 1;
}

typedef struct tctx {
    bl_parse_out *out;
    const bl_fio_jobdefs *defs;
    int64_t run;
    long line;
} tctx;

/* Whether the normal output's job header `def` can describe the terse line's figures: its rw
 * moves data only in the directions the line has I/O in, and its block size agrees with each
 * direction's bandwidth over IOPS (terse prints whole KiB/s and IOPS). A header of a namesake
 * run (--name=test is fio's most common name) must not give this line its pattern and bs. */
static int header_fits(const bl_fio_jobdef *def, tline *tl, int ver)
{
    size_t at = ver == 2 ? 4 : 5;
    for (int d = 0; d < ndirs(ver); d++, at += (size_t)dir_width(ver)) {
        double kb, bw, iops;
        if (!num(tl->f[at], &kb) || !num(tl->f[at + 1], &bw) || !num(tl->f[at + 2], &iops) ||
            kb <= 0)
            continue;
        const char *rw = def->rw ? def->rw : "";
        int reads = strstr(rw, "read") || strstr(rw, "rw"), trims = strstr(rw, "trim") != NULL;
        int writes = strstr(rw, "write") || strstr(rw, "rw");
        int moves = d == 0 ? reads : d == 1 ? writes : trims;
        if (*rw && !moves)
            return 0;
        int64_t bs = def->bs[d];
        if (bs > 0 && iops > 0 && bw > 0 &&
            fabs(bw * 1024 - (double)bs * iops) > 0.02 * bw * 1024 + (double)bs + 1024)
            return 0;
    }
    return 1;
}

/* One direction block starting at f; returns 0 when a field is unreadable. */
static int read_dir(tctx *c, tline *tl, int ver, int ddir, size_t at, const char *version,
                    const bl_fio_jobdef *def, int def_refused)
{
    char **f = tl->f + at;
    double kb, bw, iops, rt;
    if (!num(f[0], &kb) || !num(f[1], &bw) || !num(f[2], &iops) || !num(f[3], &rt))
        return 0;
    if (kb <= 0)
        return 1;
    const char *job = tl->f[ver == 2 ? 1 : 2];
    const char *group = tl->f[ver == 2 ? 2 : 3];
    bl_record *r = bl_out_record(c->out, c->line);
    r->run = c->run;
    bl_fio_fill(r, ddir, job, def, version);
    bl_record_set_label(r, "group", group);
    if (!r->test && r->op) {
        /* No job header for it: the direction is known, the pattern is not. */
        bl_record_set_str(&r->test, r->op);
        bl_record_set_str(&r->note, def_refused
                                        ? "fio terse: the job header of this name in the text does "
                                          "not fit these figures (another run's), so the pattern "
                                          "(seq or rand) and bs are unknown"
                                        : "fio terse: no job header in the text, so the pattern "
                                          "(seq or rand) is unknown");
    }
    r->io_bytes = bl_count_or(kb * 1024, -1);
    r->bw_bytes_s = bl_fio_scale(bw, 1024);
    r->iops = iops;
    r->runtime_s = rt / 1000.0;
    int ok = read_lat(f + 4, &r->slat_ns) && read_lat(f + 8, &r->clat_ns) &&
             read_pcts(f + 12, &r->clat_ns) && read_lat(f + 32, &r->lat_ns) &&
             read_samples(f + 36, ver == 5 ? 6 : 5, 1, 1024, &r->bw_samples);
    if (ok && ver == 5)
        ok = read_samples(f + 42, 5, 0, 1, &r->iops_samples);
    size_t cpu = (size_t)((ver == 2 ? 4 : 5) + ndirs(ver) * dir_width(ver));
    double usr, sys;
    if (num(tl->f[cpu], &usr) && num(tl->f[cpu + 1], &sys)) {
        r->cpu_usr_pct = usr;
        r->cpu_sys_pct = sys;
    }
    return ok;
}

/* The disk-util fields after the latency buckets (v3+): per device "sda;read ios;write
 * ios;read merges;write merges;read ticks;write ticks;in_queue;util%", ticks in ms. Each
 * device goes on every record of the line, as fio's normal output's Disk stats do. */
static void read_disks(tline *tl, int ver, bl_records *recs, size_t first)
{
    for (size_t at = min_fields(ver); at + 9 <= tl->n; at += 9) {
        double v[7], util;
        char *pct = tl->f[at + 8];
        size_t n = strlen(pct);
        if (!*tl->f[at] || n < 2 || pct[n - 1] != '%' || !num(pct, &util))
            return;
        for (int k = 0; k < 7; k++)
            if (!num(tl->f[at + 1 + (size_t)k], &v[k]))
                return;
        for (size_t i = first; i < recs->n; i++) {
            bl_disk *d = bl_record_add_disk(recs->v[i], tl->f[at]);
            d->read_ios = bl_count_or(v[0], -1);
            d->write_ios = bl_count_or(v[1], -1);
            d->read_merges = bl_count_or(v[2], -1);
            d->write_merges = bl_count_or(v[3], -1);
            d->read_ticks_s = v[4] / 1000;
            d->write_ticks_s = v[5] / 1000;
            d->in_queue_s = v[6] / 1000;
            d->util_pct = util;
        }
    }
}

static void read_line(tctx *c, const char *line, int ver)
{
    tline tl;
    split(&tl, line);
    char *version = ver == 2 ? NULL : bl_fio_strip_version(tl.f[1]);
    size_t at = ver == 2 ? 4 : 5, first = c->out->recs.n;
    const bl_fio_jobdef *def = bl_fio_jobdef_find(c->defs, tl.f[ver == 2 ? 1 : 2]);
    int refused = def && !header_fits(def, &tl, ver);
    if (refused)
        def = NULL;
    for (int d = 0; d < ndirs(ver); d++, at += (size_t)dir_width(ver))
        if (!read_dir(c, &tl, ver, d, at, version, def, refused))
            bl_out_error(c->out, c->line, "fio terse v%d line: unreadable %s figures", ver,
                         bl_fio_ddir_name(d));
    if (ver >= 3)
        read_disks(&tl, ver, &c->out->recs, first);
    free(version);
    free(tl.buf);
}

static void fio_terse_parse(const bl_text *t, bl_parse_out *out)
{
    bl_fio_jobdefs defs = {0};
    for (size_t i = 0; i < t->nlines; i++)
        bl_fio_parse_jobdef_line(t->line[i], &defs);
    tctx c = {.out = out, .defs = &defs, .run = 0};
    int in_block = 0;
    size_t run_first = out->recs.n;
    /* numjobs=N without group_reporting: N lines of one job and group that ran at once, as
     * in the normal output (fio_clones.h); terse has no status line to check the total */
    bl_records none;
    bl_records_init(&none);
    for (size_t i = 0; i < t->nlines; i++) {
        const char *l = t->line[i];
        int ver = terse_version(l);
        if (!ver) {
            /* a v2 description line (";text") or blank keeps the block open */
            if (l[0] != ';' && *bl_fio_skip(l))
                in_block = 0;
            continue;
        }
        if (!in_block) {
            bl_fio_clone_totals(out, run_first, &none);
            run_first = out->recs.n;
            c.run++;
        }
        in_block = 1;
        c.line = (long)i + 1;
        read_line(&c, l, ver);
    }
    bl_fio_clone_totals(out, run_first, &none);
    bl_fio_jobdefs_free(&defs);
}

static int fio_terse_probe(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (terse_version(t->line[i]))
            return 90;
    return 0;
}

/* terse_version needs the version (2 to 5) and a ';' at the start of the line. */
static const char *const fio_terse_needles[] = {"2;", "3;", "4;", "5;", NULL};

const bl_format bl_format_fio_terse = {
    .name = "fio-terse",
    .summary = "fio terse/minimal lines, versions 2 to 5",
    .family = "fio",
    .rank = 2,
    .probe = fio_terse_probe,
    .parse = fio_terse_parse,
    .parse_stream = NULL,
    .needles = fio_terse_needles,
};
