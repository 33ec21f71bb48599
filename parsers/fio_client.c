/* fio client/server JSON and JSON+ (see fio_client.h for the records it gives).
 *
 * Every line whose first non-blank character is '{' is tried as the start of a JSON value,
 * so that the "hostname=..., be=0, ..." and "<host> fio: ..." lines client mode prints
 * around the document, or blog prose, do not matter. Objects with a "client_stats" array
 * are ours; fio's plain JSON ("jobs") is fio-json's.
 *
 * fio's own "All clients" entry sums every job of every host into one (client.c,
 * handle_ts), computes bw and iops over the longest runtime, and (fio 3.x) prints no
 * percentiles for it. We sum per job and direction instead, by the same rule for bw and
 * iops, and take percentiles from the summed bins. Where fio's entry describes exactly one
 * of our aggregates (one job did that direction) its differing figures go in the note;
 * where it mixes several jobs it is kept as its own record, job "All clients". */
#include "../core/strbuf.h"
#include "fio_client.h"
#include "fio_client_sum.h"
#include "../core/units.h"
#include "fio_common.h"
#include "fio_jsonutil.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIO_ALL "All clients" /* fio's jobname of its sum */
/* The latency kinds kept inside a direction's object; sync is the job's own ("sync"). */
enum { NKIND = BL_FC_SYNC };
static const char *const kind_v3[NKIND] = {"slat_ns", "clat_ns", "lat_ns"};
static const char *const kind_v2[NKIND] = {"slat", "clat", "lat"};

typedef struct cdoc {
    bl_parse_out *out;
    const bl_text *text;
    const char *version, *date;
    int v3;
    int64_t run0; /* runs of this document are run0+1 (first host) .. */
    long first;   /* the document's first line */
    json_t *global;
    long *jobline; /* line of each client_stats entry */
    size_t njobline;
    char **hosts; /* host labels in order of first appearance */
    size_t nhosts;
    bl_fc_sum *aggs;
    size_t naggs, cap;
} cdoc;

static json_t *lat_obj(const cdoc *d, json_t *dir, int k)
{
    return json_object_get(dir, d->v3 ? kind_v3[k] : kind_v2[k]);
}

/* The direction's figures of one client_stats entry into r. */
static void read_dir(const cdoc *d, json_t *e, json_t *dir, bl_record *r)
{
    double io = bl_fj_num(dir, "io_bytes"), kio = bl_fj_num(dir, "io_kbytes");
    r->io_bytes = bl_count_or(bl_present(kio) ? io : io * 1024, -1);
    double bwb = bl_fj_num(dir, "bw_bytes");
    r->bw_bytes_s = bl_present(bwb) ? bwb : bl_fio_scale(bl_fj_num(dir, "bw"), 1024);
    r->iops = bl_fj_num(dir, "iops");
    double rt = bl_fj_num(dir, "runtime");
    r->runtime_s = bl_present(rt) ? rt / 1000.0 : BL_ABSENT;
    for (int k = 0; k < NKIND; k++)
        bl_fj_read_lat(lat_obj(d, dir, k), d->v3 ? 1 : 1000, bl_fc_lat(r, k));
    r->cpu_usr_pct = bl_fj_num(e, "usr_cpu");
    r->cpu_sys_pct = bl_fj_num(e, "sys_cpu");
    double err = bl_fj_num(e, "error");
    if (err > 0) {
        char b[48];
        snprintf(b, sizeof b, "fio job error %.0f", err);
        bl_record_set_str(&r->note, b);
    }
}

/* Directions of an entry: read, write, trim, and -1 for unified_rw_reporting's "mixed". */
static const int dirs[] = {BL_FIO_READ, BL_FIO_WRITE, BL_FIO_TRIM, -1};
#define NDIRS (sizeof dirs / sizeof dirs[0])

static json_t *dir_obj(json_t *e, int ddir)
{
    return json_object_get(e, ddir < 0 ? "mixed" : bl_fio_ddir_name(ddir));
}

static int moved_data(json_t *dir)
{
    return bl_fj_num(dir, "io_bytes") > 0 || bl_fj_num(dir, "io_kbytes") > 0;
}

static int is_all(json_t *e)
{
    const char *j = bl_fj_str(e, "jobname");
    return j && strcmp(j, FIO_ALL) == 0;
}

/* hostname, or hostname:port when another server of the document has the same name. */
static char *host_label(json_t *stats, json_t *e)
{
    const char *h = bl_fj_str(e, "hostname");
    double port = bl_fj_num(e, "port");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, h ? h : "unknown host");
    size_t i;
    json_t *o;
    json_array_foreach(stats, i, o)
    {
        const char *h2 = bl_fj_str(o, "hostname");
        double p2 = bl_fj_num(o, "port");
        if (!is_all(o) && h && h2 && strcmp(h, h2) == 0 && bl_present(port) && p2 != port) {
            bl_strbuf_printf(&sb, ":%.0f", port);
            break;
        }
    }
    return bl_strbuf_take(&sb);
}

static int64_t host_run(cdoc *d, const char *host)
{
    size_t i = 0;
    while (i < d->nhosts && strcmp(d->hosts[i], host) != 0)
        i++;
    if (i == d->nhosts) {
        d->hosts = bl_xrealloc(d->hosts, (d->nhosts + 1) * sizeof *d->hosts);
        d->hosts[d->nhosts++] = bl_xstrdup(host);
    }
    return d->run0 + (int64_t)i + 1;
}

static bl_fc_sum *agg_of(cdoc *d, const char *job, int ddir)
{
    for (size_t i = 0; i < d->naggs; i++)
        if (d->aggs[i].ddir == ddir && strcmp(d->aggs[i].job, job) == 0)
            return &d->aggs[i];
    void *p = d->aggs;
    bl_grow(&p, &d->cap, d->naggs + 1, sizeof *d->aggs);
    d->aggs = p;
    bl_fc_sum *a = &d->aggs[d->naggs++];
    memset(a, 0, sizeof *a);
    a->job = bl_xstrdup(job);
    a->ddir = ddir;
    return a;
}

static void agg_add(cdoc *d, json_t *e, int ddir, const bl_record *r)
{
    json_t *dir = dir_obj(e, ddir);
    bl_fc_sum *a = agg_of(d, bl_record_label(r, "job"), ddir);
    const char *nj = bl_fj_option(e, d->global, "numjobs", NULL);
    if (nj && atoi(nj) > 0)
        a->numjobs = atoi(nj); /* the aggregate holds all of a host's clones */
    double n[BL_FC_NKIND], ios = bl_fj_num(dir, "total_ios");
    n[BL_FC_SYNC] = ddir == BL_FIO_WRITE || ddir < 0
                        ? bl_fj_num(json_object_get(json_object_get(e, "sync"), "lat_ns"), "N")
                        : 0;
    for (int k = 0; k < NKIND; k++) {
        json_t *l = lat_obj(d, dir, k);
        n[k] = bl_fj_num(l, "N");
        /* fio 2.x gives no "N": every I/O issued has its latencies, unless all are 0. */
        if (!bl_present(n[k]) && bl_fj_num(l, "max") > 0)
            n[k] = ios;
    }
    bl_fc_sum_add(a, r, n, bl_present(ios) ? ios : r->iops * r->runtime_s,
                  bl_fj_num(e, "job_runtime"));
}

/* Entries of e's job from e's host: numjobs clones without group_reporting, else one
 * (fio's JSON does not list group_reporting among the options). */
static int entries_of(json_t *stats, json_t *e)
{
    const char *job = bl_fj_str(e, "jobname"), *host = bl_fj_str(e, "hostname");
    double port = bl_fj_num(e, "port");
    size_t i;
    json_t *o;
    int n = 0;
    json_array_foreach(stats, i, o)
    {
        const char *j2 = bl_fj_str(o, "jobname"), *h2 = bl_fj_str(o, "hostname");
        n += j2 && strcmp(j2, job) == 0 && (h2 == host || (h2 && host && strcmp(h2, host) == 0)) &&
             (bl_fj_num(o, "port") == port ||
              (!bl_present(port) && !bl_present(bl_fj_num(o, "port"))));
    }
    return n;
}

/* The job's definition from its "job options" and the document's "global options". A
 * record of one of the numjobs clones ran alone: numjobs 1. */
static void add_def(bl_fio_jobdefs *defs, const cdoc *d, json_t *stats, json_t *e, const char *job)
{
    const char *nj = bl_fj_option(e, d->global, "numjobs", NULL);
    bl_fio_jobdef_add(
        defs, job, bl_fj_option(e, d->global, "rw", "readwrite"),
        bl_fj_option(e, d->global, "bs", "blocksize"), bl_fj_option(e, d->global, "ioengine", NULL),
        bl_fj_option(e, d->global, "iodepth", NULL), nj && entries_of(stats, e) == 1 ? nj : "1");
    bl_fio_jobdef_kb_base(defs, bl_fj_option(e, d->global, "bs", "blocksize"),
                          bl_fj_option(e, d->global, "kb_base", NULL));
    bl_fio_jobdef *def = &defs->v[defs->n - 1];
    if (def->iodepth < 0 && json_object_get(e, "job options"))
        def->iodepth = 1; /* fio's default, which it does not echo */
}

/* One record of one entry's direction (a host's, or fio's own sum), appended to out. */
static bl_record *entry_record(const cdoc *d, bl_parse_out *out, json_t *e, int ddir,
                               const char *host, int64_t run, long line, const bl_fio_jobdef *def)
{
    bl_record *r = bl_out_record(out, line);
    r->run = run;
    bl_fio_fill(r, ddir, bl_fj_str(e, "jobname"), def, d->version);
    bl_record_set_label(r, "host", host);
    double g = bl_fj_num(e, "groupid");
    if (bl_present(g)) {
        char b[32];
        snprintf(b, sizeof b, "%.0f", g);
        bl_record_set_label(r, "group", b);
    }
    if (d->date)
        bl_record_set_label(r, "date", d->date);
    if (ddir < 0)
        bl_record_set_label(r, "ddir", "mixed");
    read_dir(d, e, dir_obj(e, ddir), r);
    if (ddir == BL_FIO_WRITE || ddir < 0)
        bl_fj_read_sync(e, &r->sync_ns);
    return r;
}

/* The aggregate record of a; fio_all is fio's own sum of the same figures, or NULL. */
static void agg_record(cdoc *d, bl_fc_sum *a, const bl_fio_jobdefs *defs, const bl_record *fio_all,
                       long line)
{
    bl_record *r = bl_out_record(d->out, line);
    r->run = d->run0 + (int64_t)d->nhosts + 1;
    bl_fio_fill(r, a->ddir, a->job, bl_fio_jobdef_find(defs, a->job), d->version);
    bl_record_set_label(r, "host", BL_FIO_ALL_CLIENTS);
    if (a->ddir < 0)
        bl_record_set_label(r, "ddir", "mixed");
    if (d->date)
        bl_record_set_label(r, "date", d->date);
    bl_fc_sum_fill(a, r);
    if (a->numjobs > 0)
        r->numjobs = a->numjobs;
    if (fio_all)
        bl_fc_note_fio_all(r, fio_all);
}

/* Test, pattern and bs of fio's mixed sum f when every job in it agrees on them. */
static void common_def(bl_record *f, const cdoc *d, int dd, const bl_fio_jobdefs *defs)
{
    bl_record *first = NULL;
    int same = 1;
    for (size_t i = 0; i < d->naggs; i++) {
        if (d->aggs[i].ddir != dd || !d->aggs[i].hosts)
            continue;
        bl_record *x = bl_record_new();
        bl_fio_fill(x, dd, NULL, bl_fio_jobdef_find(defs, d->aggs[i].job), NULL);
        if (!first) {
            first = x;
            continue;
        }
        same &= x->test && first->test && strcmp(x->test, first->test) == 0;
        if (x->bs != first->bs)
            first->bs = -1;
        bl_record_free(x);
    }
    if (first && same) {
        bl_record_set_str(&f->test, first->test);
        bl_record_set_str(&f->pattern, first->pattern);
        f->bs = first->bs;
    }
    bl_record_free(first);
}

/* fio's "All clients" entry: compared with our aggregate of each direction when only one
 * job did that direction, else kept as its own record. */
static void fio_all_entry(cdoc *d, json_t *e, long line, bl_fio_jobdefs *defs)
{
    bl_parse_out tmp;
    bl_out_init(&tmp, d->out->source);
    for (size_t di = 0; di < NDIRS; di++) {
        int dd = dirs[di];
        if (!moved_data(dir_obj(e, dd)))
            continue;
        bl_fc_sum *only = NULL;
        int n = 0;
        for (size_t i = 0; i < d->naggs; i++)
            if (d->aggs[i].ddir == dd && d->aggs[i].hosts) {
                only = &d->aggs[i];
                n++;
            }
        bl_record *f = entry_record(d, n == 1 ? &tmp : d->out, e, dd, BL_FIO_ALL_CLIENTS,
                                    d->run0 + (int64_t)d->nhosts + 1, line, NULL);
        if (n == 1) {
            agg_record(d, only, defs, f, line);
            only->hosts = 0; /* done */
        } else {
            common_def(f, d, dd, defs);
            bl_record_set_str(&f->note, "fio's own sum over every job of every host");
        }
    }
    bl_out_free(&tmp);
}

static void read_doc(cdoc *d, json_t *doc)
{
    json_t *stats = json_object_get(doc, "client_stats");
    bl_fio_jobdefs defs = {0};
    json_t *all = NULL;
    long all_line = 0, last_line = 0;
    size_t i;
    json_t *e;
    if (json_array_size(stats) == 0)
        bl_out_error(d->out, d->first,
                     "fio client output without results: \"client_stats\" is "
                     "empty (did the servers start?)");
    size_t k = 0; /* entries with a "jobname" key so far: index into jobline */
    json_array_foreach(stats, i, e)
    {
        int has = json_is_object(e) && json_object_get(e, "jobname");
        /* An entry without a jobname is told at the entry before it. */
        long line = has && k < d->njobline     ? d->jobline[k]
                    : k && k - 1 < d->njobline ? d->jobline[k - 1]
                                               : d->first;
        k += has != 0;
        if (!has || !bl_fj_str(e, "jobname")) {
            bl_out_error(d->out, line, "fio client_stats[%zu] is not a job's stats", i);
            continue;
        }
        if (is_all(e)) {
            all = e;
            all_line = line;
            continue;
        }
        last_line = line;
        const char *job = bl_fj_str(e, "jobname");
        char *host = host_label(stats, e);
        int64_t run = host_run(d, host);
        if (!bl_fio_jobdef_find(&defs, job))
            add_def(&defs, d, stats, e, job);
        for (size_t di = 0; di < NDIRS; di++) {
            int dd = dirs[di];
            if (!moved_data(dir_obj(e, dd)))
                continue;
            bl_record *r =
                entry_record(d, d->out, e, dd, host, run, line, bl_fio_jobdef_find(&defs, job));
            agg_add(d, e, dd, r);
        }
        free(host);
    }
    if (all)
        fio_all_entry(d, all, all_line, &defs);
    for (size_t k = 0; k < d->naggs; k++)
        if (d->aggs[k].hosts)
            agg_record(d, &d->aggs[k], &defs, NULL, all ? all_line : last_line);
    bl_fio_jobdefs_free(&defs);
}

static void cdoc_clear(cdoc *d)
{
    for (size_t i = 0; i < d->nhosts; i++)
        free(d->hosts[i]);
    free(d->hosts);
    d->hosts = NULL;
    d->nhosts = 0;
    for (size_t i = 0; i < d->naggs; i++)
        bl_fc_sum_free(&d->aggs[i]);
    free(d->aggs);
    d->aggs = NULL;
    d->naggs = d->cap = 0;
    free(d->jobline);
    d->jobline = NULL;
    d->njobline = 0;
}

/* Lines of the "jobname" keys between first and last: the entries' lines, in order. */
static void find_joblines(cdoc *d, const bl_text *t, long first, long last)
{
    size_t cap = 0;
    for (long l = first; l <= last && (size_t)l <= t->nlines; l++)
        if (strstr(t->line[l - 1], "\"jobname\"")) {
            void *p = d->jobline;
            bl_grow(&p, &cap, d->njobline + 1, sizeof *d->jobline);
            d->jobline = p;
            d->jobline[d->njobline++] = l;
        }
}

static int looks_client(const bl_text *t, size_t i)
{
    for (size_t k = i; k < t->nlines && k < i + 40; k++)
        if (strstr(t->line[k], "\"client_stats\""))
            return 1;
    return 0;
}

/* One document: its version, date, era and the job lines its labels point at. */
static void client_doc(json_t *doc, long first, long last, void *ctx)
{
    cdoc *d = ctx;
    char *ver = bl_fio_strip_version(bl_fj_str(doc, "fio version"));
    d->version = ver;
    d->date = bl_fj_str(doc, "time");
    d->global = json_object_get(doc, "global options");
    json_t *e0 = json_array_get(json_object_get(doc, "client_stats"), 0);
    json_t *rd = json_object_get(e0, "read");
    d->v3 = json_object_get(rd, "clat_ns") || json_object_get(rd, "io_kbytes");
    d->first = first;
    find_joblines(d, d->text, first, last);
    read_doc(d, doc);
    d->run0 += (int64_t)d->nhosts + 1;
    cdoc_clear(d);
    free(ver);
}

static void fio_client_parse(const bl_text *t, bl_parse_out *out)
{
    cdoc d = {.out = out, .text = t};
    bl_fj_each_doc(t, out, "client_stats", "fio client JSON", looks_client, client_doc, &d);
}

static int fio_client_probe(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (strstr(t->line[i], "\"client_stats\""))
            return 96;
    return 0;
}

/* The only line the probe claims on. */
static const char *const fio_client_needles[] = {"\"client_stats\"", NULL};

const bl_format bl_format_fio_client = {
    .name = "fio-client",
    .summary = "fio client/server JSON and JSON+ (fio --client): per host and all clients",
    .family = "fio",
    .rank = 4,
    .probe = fio_client_probe,
    .parse = fio_client_parse,
    .parse_stream = NULL,
    .needles = fio_client_needles,
};
