/* fio --output-format=json and json+, fio 2.x (usec fields, io_bytes in KiB) and 3.x
 * (*_ns fields, io_bytes in bytes), alone or pasted among other text (normal output
 * before it, "fio: terminating on signal 2", blog prose).
 *
 * Every line whose first non-blank character is '{' is tried as the start of a JSON value
 * (jansson, stopping at the value's end); objects with a "jobs" array are fio documents.
 * Each job gives one record per direction that moved data. JSON+ "bins" are kept as the
 * latency histogram. "client_stats" (client/server mode) is left alone. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "../core/when.h"
#include "../core/latency.h"
#include "fio_common.h"
#include "fio_clones.h"
#include "fio_json_file.h"
#include "fio_jsonutil.h"
#include "fio_units.h"
#include "parser.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A job's name and group: jobs sharing both are numjobs clones (or one job given again);
 * with the records it made, [from, to), and whether it gave numjobs. */
typedef struct {
    char *name;
    double group;
    size_t from, to;
    int has_numjobs;
} job_id;

typedef struct jdoc {
    bl_parse_out *out;
    bl_fj_src *src; /* the document's bytes and lines */
    char *version;
    const char *date;
    double timestamp; /* "timestamp": seconds since the epoch, the exact time beside "time" */
    int v3;           /* *_ns fields and io_bytes in bytes */
    int64_t run;
    /* the document being read, a job at a time */
    bl_jv global_view; /* its "global options" */
    const bl_jv_node *global;
    long first, last, at; /* its lines; at: where the next "jobname" is looked for */
    long found;           /* the last line a "jobname" was found on */
    size_t doc_first;     /* its first record */
    job_id *ids;
    size_t n_ids, cap_ids;
    bl_fio_jobdefs defs;
} jdoc;

static int cmp_job_id(const void *pa, const void *pb)
{
    const job_id *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->group > b->group) - (a->group < b->group);
}

/* numjobs=N without group_reporting gives N JSON jobs of one name, each run alone; with
 * it, one job standing for all N. JSON does not show the group_reporting flag itself. A
 * job's numjobs is set as it is read; those of jobs sharing a name and group are made 1 at
 * the document's end (sorted names: counting namesakes by a walk over every job made a JSON
 * of N jobs N^2 work). */
static int64_t numjobs_of(const bl_jv_node *job, const bl_jv_node *global, int *has)
{
    const char *n = bl_fj_option_v(job, global, "numjobs", NULL);
    *has = n != NULL;
    if (!n)
        return bl_jv_get(job, "job options") ? 1 : -1;
    return strtoll(n, NULL, 10);
}

static void namesakes_one_job(jdoc *jd)
{
    if (jd->n_ids < 2)
        return; /* no namesakes (and qsort must not see a null array) */
    qsort(jd->ids, jd->n_ids, sizeof *jd->ids, cmp_job_id);
    for (size_t i = 0; i < jd->n_ids;) {
        size_t j = i + 1;
        while (j < jd->n_ids && cmp_job_id(&jd->ids[i], &jd->ids[j]) == 0)
            j++;
        for (size_t k = i; j - i > 1 && k < j; k++)
            for (size_t r = jd->ids[k].from; jd->ids[k].has_numjobs && r < jd->ids[k].to; r++)
                jd->out->recs.v[r]->numjobs = 1;
        i = j;
    }
}

static void free_ids(jdoc *jd)
{
    for (size_t i = 0; i < jd->n_ids; i++)
        free(jd->ids[i].name);
    free(jd->ids);
    jd->ids = NULL;
    jd->n_ids = jd->cap_ids = 0;
}

/* A direction's bandwidth or IOPS samples: keys[] are its min, max, mean, deviation and
 * count (spelled out: making them with snprintf was 3% of a parse). */
static void read_samples(const bl_jv_node *d, const char *const keys[5], double mult, bl_samples *s)
{
    double *dst[] = {&s->min, &s->max, &s->mean, &s->stdev};
    int any = 0;
    for (int i = 0; i < 4; i++) {
        double v = bl_jv_num(d, keys[i]);
        *dst[i] = bl_fio_scale(v, mult);
        any |= bl_present(v) && v != 0;
    }
    double n = bl_jv_num(d, keys[4]);
    s->count = bl_count_or(n, -1);
    s->present = any;
}

static const char *const bw_keys[] = {"bw_min", "bw_max", "bw_mean", "bw_dev", "bw_samples"};
static const char *const iops_keys[] = {"iops_min", "iops_max", "iops_mean", "iops_stddev",
                                        "iops_samples"};

/* One bucket object of a job ({"250":61.91, ">=2000":0.01}), keys times unit, without the
 * empty buckets, which the normal output leaves out too. */
static void read_dist(const bl_jv_node *o, double unit, bl_dist *d)
{
    size_t i;
    const bl_jv_node *k;
    bl_jv_foreach(o, i, k)
    {
        if (!bl_jv_is_number(k + 1) || !(k[1].d > 0))
            continue;
        bool ge = strncmp(k->str, ">=", 2) == 0; /* bl_dist_key, with the fast strtod */
        const char *p = k->str + (ge ? 2 : 0);
        char *end;
        double at = bl_fio_strtod(p, &end);
        if (end != p && isfinite(at))
            bl_dist_add(d, at * unit, ge, k[1].d);
    }
}

/* The buckets read_dist would add from o (at most: a key that is no number is not). */
static size_t dist_count(const bl_jv_node *o)
{
    size_t i, n = 0;
    const bl_jv_node *k;
    bl_jv_foreach(o, i, k)
    {
        n += bl_jv_is_number(k + 1) && k[1].d > 0;
    }
    return n;
}

/* The job's latency buckets ("latency_ns"/"_us"/"_ms") and its "iodepth_level", each list
 * sized once (grown a bucket at a time, a job's seven took four allocations). */
static void read_dists(const bl_jv_node *job, bl_record *r)
{
    const bl_jv_node *ns = bl_jv_get(job, "latency_ns"), *us = bl_jv_get(job, "latency_us"),
                     *ms = bl_jv_get(job, "latency_ms"), *depth = bl_jv_get(job, "iodepth_level");
    bl_dist_reserve(&r->lat_dist, r->lat_dist.n + dist_count(ns) + dist_count(us) + dist_count(ms));
    read_dist(ns, 1, &r->lat_dist);
    read_dist(us, 1e3, &r->lat_dist);
    read_dist(ms, 1e6, &r->lat_dist);
    bl_dist_reserve(&r->iodepth_dist, r->iodepth_dist.n + dist_count(depth));
    read_dist(depth, 1, &r->iodepth_dist);
}

static void job_record(jdoc *jd, const bl_jv_node *job, const bl_jv_node *dir, int ddir,
                       const bl_fio_jobdef *def, long line)
{
    double io = bl_jv_num(dir, "io_bytes"), kio = bl_jv_num(dir, "io_kbytes");
    if (!(io > 0 || kio > 0))
        return;
    bl_record *r = bl_out_record(jd->out, line);
    r->run = jd->run;
    bl_fio_fill(r, ddir, bl_jv_str(job, "jobname"), def, jd->version);
    double g = bl_jv_num(job, "groupid");
    if (bl_present(g)) {
        char b[32];
        snprintf(b, sizeof b, "%.0f", g);
        bl_record_set_label(r, "group", b);
    }
    if (jd->date)
        bl_record_set_label(r, "date", jd->date);
    if (bl_present(jd->timestamp) && jd->timestamp > 0)
        bl_when_set(r, (time_t)jd->timestamp, "text");
    if (ddir < 0)
        bl_record_set_label(r, "ddir", "mixed");
    r->io_bytes = bl_count_or(bl_present(kio) ? io : io * 1024, -1);
    double bwb = bl_jv_num(dir, "bw_bytes");
    r->bw_bytes_s = bl_present(bwb) ? bwb : bl_fio_scale(bl_jv_num(dir, "bw"), 1024);
    r->iops = bl_jv_num(dir, "iops");
    double rt = bl_jv_num(dir, "runtime");
    r->runtime_s = bl_present(rt) ? rt / 1000.0 : BL_ABSENT;
    if (jd->v3) {
        bl_fj_read_lat_v(bl_jv_get(dir, "slat_ns"), 1, &r->slat_ns);
        bl_fj_read_lat_v(bl_jv_get(dir, "clat_ns"), 1, &r->clat_ns);
        bl_fj_read_lat_v(bl_jv_get(dir, "lat_ns"), 1, &r->lat_ns);
    } else {
        bl_fj_read_lat_v(bl_jv_get(dir, "slat"), 1000, &r->slat_ns);
        bl_fj_read_lat_v(bl_jv_get(dir, "clat"), 1000, &r->clat_ns);
        bl_fj_read_lat_v(bl_jv_get(dir, "lat"), 1000, &r->lat_ns);
    }
    read_samples(dir, bw_keys, 1024, &r->bw_samples);
    read_samples(dir, iops_keys, 1, &r->iops_samples);
    if (ddir == BL_FIO_WRITE || ddir < 0)
        bl_fj_read_sync_v(job, &r->sync_ns);
    double err = bl_jv_num(job, "error");
    if (err > 0) {
        char b[48];
        snprintf(b, sizeof b, "fio job error %.0f", err);
        bl_record_set_str(&r->note, b);
    }
    read_dists(job, r);
    r->cpu_usr_pct = bl_jv_num(job, "usr_cpu");
    r->cpu_sys_pct = bl_jv_num(job, "sys_cpu");
}

/* The line of the next `"jobname"` key from *at on (1-based, at most last), or first;
 * *at moves past it so that jobs are found in one pass. */
static long jobname_line(jdoc *jd)
{
    long l = bl_fj_src_find(jd->src, &jd->at, jd->last, "\"jobname\"");
    if (l)
        jd->found = l;
    return l ? l : jd->first;
}

/* "disk_util": the devices of the run, on each of its records (ticks and in_queue in ms). */
static void read_disks(json_t *doc, bl_record *const *recs, size_t n)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "disk_util"), i, e)
    {
        const char *name = bl_fj_str(e, "name");
        if (!name)
            continue;
        bl_disk d = {.name = (char *)name};
        double v[8];
        static const char *const keys[] = {"read_ios",     "write_ios",  "read_merges",
                                           "write_merges", "read_ticks", "write_ticks",
                                           "in_queue",     "util"};
        for (size_t k = 0; k < 8; k++)
            v[k] = json_is_number(json_object_get(e, keys[k]))
                       ? json_number_value(json_object_get(e, keys[k]))
                       : BL_ABSENT;
        d.read_ios = bl_count_or(v[0], -1);
        d.write_ios = bl_count_or(v[1], -1);
        d.read_merges = bl_count_or(v[2], -1);
        d.write_merges = bl_count_or(v[3], -1);
        d.read_ticks_s = v[4] / 1e3;
        d.write_ticks_s = v[5] / 1e3;
        d.in_queue_s = v[6] / 1e3;
        d.util_pct = v[7];
        bl_fio_add_disk(recs, n, &d);
    }
}

/* One job: its records (one a direction that moved data), its name and group kept. */
static void one_job(jdoc *jd, const bl_jv_node *job)
{
    const bl_jv_node *global = jd->global;
    const char *name = bl_jv_str(job, "jobname");
    double g = bl_jv_num(job, "groupid");
    size_t from = jd->out->recs.n;
    int has_numjobs = 0;
    if (job->type == BL_JV_OBJ) {
        bl_fio_jobdefs *defs = &jd->defs;
        bl_fio_jobdefs_clear(defs);
        bl_fio_jobdef_add(defs, name, bl_fj_option_v(job, global, "rw", "readwrite"),
                          bl_fj_option_v(job, global, "bs", "blocksize"),
                          bl_fj_option_v(job, global, "ioengine", NULL),
                          bl_fj_option_v(job, global, "iodepth", NULL), NULL);
        bl_fio_jobdef_kb_base(defs, bl_fj_option_v(job, global, "bs", "blocksize"),
                              bl_fj_option_v(job, global, "kb_base", NULL));
        defs->v[0].numjobs = numjobs_of(job, global, &has_numjobs);
        const char *size = bl_fj_option_v(job, global, "size", NULL);
        double sz;
        if (size && bl_parse_size(size, BL_BINARY, &sz, NULL) && sz > 0)
            defs->v[0].size = bl_count_or(sz, -1);
        const char *direct = bl_fj_option_v(job, global, "direct", NULL);
        if (direct)
            defs->v[0].direct = strtol(direct, NULL, 10) ? BL_TRUE : BL_FALSE;
        if (defs->v[0].iodepth < 0 && bl_jv_get(job, "job options"))
            defs->v[0].iodepth = 1; /* fio's default, not echoed */
        long line = jobname_line(jd);
        for (int d = 0; d < BL_FIO_NDIR; d++)
            job_record(jd, job, bl_jv_get(job, bl_fio_ddir_name(d)), d, &defs->v[0], line);
        /* unified_rw_reporting: one "mixed" direction */
        job_record(jd, job, bl_jv_get(job, "mixed"), -1, &defs->v[0], line);
    }
    if (!name || !bl_present(g)) /* (a job without a group is no one's namesake) */
        return;
    if (jd->n_ids == jd->cap_ids) {
        jd->cap_ids = jd->cap_ids ? 2 * jd->cap_ids : 64;
        jd->ids = bl_xrealloc(jd->ids, jd->cap_ids * sizeof *jd->ids);
    }
    jd->ids[jd->n_ids++] = (job_id){bl_xstrdup(name), g, from, jd->out->recs.n, has_numjobs};
}

/* A failed parse is worth a message only when it was fio's document: fio prints "{" alone
 * and "fio version" first. */
static int looks_fio(const bl_text *t, size_t i)
{
    if (strstr(t->line[i], "\"fio version\""))
        return 1;
    return strcmp(bl_fio_skip(t->line[i]), "{") == 0 && i + 1 < t->nlines &&
           strstr(t->line[i + 1], "\"fio version\"");
}

/* A document's start: its version, date and members; the era comes with the first job. */
static void doc_begin(json_t *head, long first, long last, bl_fj_src *src, void *ctx)
{
    jdoc *jd = ctx;
    jd->src = src;
    jd->version = bl_fio_strip_version(bl_fj_str(head, "fio version"));
    jd->date = bl_fj_str(head, "time");
    jd->timestamp = bl_fj_num(head, "timestamp");
    jd->v3 = 0;
    jd->run++;
    json_t *global = json_object_get(head, "global options");
    bl_jv_from_json(&jd->global_view, global);
    jd->global = global ? jd->global_view.nodes : NULL;
    jd->first = jd->at = first;
    jd->last = last;
    jd->found = 0;
    jd->doc_first = jd->out->recs.n;
}

/* 3.x has *_ns latencies and io_kbytes: told by the document's first job. */
static void doc_job(const bl_jv_node *job, size_t idx, void *ctx)
{
    jdoc *jd = ctx;
    static const char *const dirs[] = {"read", "write", "trim", "mixed"};
    for (int d = 0; idx == 0 && d < 4; d++) {
        const bl_jv_node *o = bl_jv_get(job, dirs[d]);
        jd->v3 |= bl_jv_get(o, "clat_ns") != NULL || bl_jv_get(o, "io_kbytes") != NULL;
    }
    one_job(jd, job);
}

static void doc_done(jdoc *jd)
{
    free_ids(jd);
    free(jd->version);
    jd->version = NULL;
    jd->date = NULL;
    jd->global = NULL;
}

static void doc_end(json_t *head, void *ctx)
{
    jdoc *jd = ctx;
    bl_parse_out *out = jd->out;
    namesakes_one_job(jd);
    if (out->recs.n > jd->doc_first) /* (recs.v is NULL before the first record) */
        read_disks(head, out->recs.v + jd->doc_first, out->recs.n - jd->doc_first);
    /* numjobs=N without group_reporting: N jobs of one name that ran at once, as in the
     * normal output (JSON prints no group status line to check the total against) */
    bl_records none;
    bl_records_init(&none);
    bl_fio_clone_totals(out, jd->doc_first, &none);
    doc_done(jd);
}

/* Not plain JSON after all: what the document's jobs made is dropped, it is read whole. */
static void doc_abort(void *ctx)
{
    jdoc *jd = ctx;
    for (size_t i = jd->doc_first; i < jd->out->recs.n; i++)
        bl_record_free(jd->out->recs.v[i]);
    jd->out->recs.n = jd->doc_first;
    jd->run--;
    doc_done(jd);
}

/* Read in one pass with no last line: the "jobname" lines found hold when none is past it. */
static int doc_last_ok(long last, void *ctx)
{
    jdoc *jd = ctx;
    jd->last = last;
    return jd->found <= last;
}

static const char *const begin_keys[] = {"fio version", "time", "timestamp", "global options",
                                         NULL};
static const bl_fj_stream doc_ops = {doc_begin, doc_job,     doc_end,
                                     doc_abort, doc_last_ok, begin_keys};

static void fio_json_parse(const bl_text *t, bl_parse_out *out)
{
    jdoc jd = {.out = out, .run = 0};
    bl_fj_each_doc_stream(t, out, "jobs", "fio JSON", looks_fio, &doc_ops, &jd);
    bl_fio_jobdefs_free(&jd.defs);
    bl_jv_free(&jd.global_view);
}

/* A file that is one plain document, read from its bytes (fio_json_file.h). */
static int fio_json_parse_plain(const char *path, bl_parse_out *out)
{
    jdoc jd = {.out = out, .run = 0};
    int rc = bl_fj_file_read(path, "jobs", &doc_ops, &jd);
    bl_fio_jobdefs_free(&jd.defs);
    bl_jv_free(&jd.global_view);
    return rc == 1;
}

/* What the probe looks for and nothing else (a big fio normal text's pieces hold no '"'). */
static const char *const fio_json_needles[] = {"\"fio version\"", "\"jobname\"", NULL};

static int fio_json_probe(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (strstr(t->line[i], "\"fio version\"") || strstr(t->line[i], "\"jobname\""))
            return 95;
    return 0;
}

const bl_format bl_format_fio_json = {
    .name = "fio-json",
    .summary = "fio JSON and JSON+ output (2.x and 3.x), also among other text",
    .family = "fio",
    .rank = 3,
    .probe = fio_json_probe,
    .parse = fio_json_parse,
    .parse_stream = NULL,
    .parse_plain = fio_json_parse_plain,
    .needles = fio_json_needles,
};
