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
#include "fio_jsonutil.h"
#include "parser.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct jdoc {
    bl_parse_out *out;
    const bl_text *text;
    const char *version;
    const char *date;
    double timestamp; /* "timestamp": seconds since the epoch, the exact time beside "time" */
    int v3;           /* *_ns fields and io_bytes in bytes */
    int64_t run;
} jdoc;

/* A job's name and group: jobs sharing both are numjobs clones (or one job given again). */
typedef struct {
    const char *name;
    double group;
} job_id;

static int cmp_job_id(const void *pa, const void *pb)
{
    const job_id *a = pa, *b = pb;
    int c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
    return c ? c : (a->group > b->group) - (a->group < b->group);
}

/* The document's jobs' names and groups, sorted, so that each job finds its namesakes by a
 * binary search: counting them by a walk over every job made a JSON of N jobs N^2 work. */
static job_id *job_ids(json_t *jobs, size_t *n)
{
    job_id *v = bl_xcalloc(json_array_size(jobs) + 1, sizeof *v);
    size_t i;
    json_t *o;
    *n = 0;
    json_array_foreach(jobs, i, o)
    {
        const char *name = bl_fj_str(o, "jobname");
        double g = bl_fj_num(o, "groupid");
        if (name && bl_present(g)) /* (a job without a group is no one's namesake) */
            v[(*n)++] = (job_id){name, g};
    }
    qsort(v, *n, sizeof *v, cmp_job_id);
    return v;
}

static size_t namesakes(const job_id *ids, size_t n, job_id key)
{
    const job_id *hit = bsearch(&key, ids, n, sizeof *ids, cmp_job_id);
    if (!hit)
        return 0;
    size_t lo = (size_t)(hit - ids), hi = lo;
    while (lo > 0 && cmp_job_id(&ids[lo - 1], &key) == 0)
        lo--;
    while (hi < n && cmp_job_id(&ids[hi], &key) == 0)
        hi++;
    return hi - lo;
}

/* numjobs=N without group_reporting gives N JSON jobs of one name, each run alone; with
 * it, one job standing for all N. JSON does not show the group_reporting flag itself. */
static int64_t numjobs_of(const job_id *ids, size_t n_ids, json_t *job, json_t *global)
{
    const char *n = bl_fj_option(job, global, "numjobs", NULL);
    if (!n)
        return json_object_get(job, "job options") ? 1 : -1;
    const char *name = bl_fj_str(job, "jobname");
    double g = bl_fj_num(job, "groupid");
    size_t same = name && bl_present(g) ? namesakes(ids, n_ids, (job_id){name, g}) : 0;
    return same > 1 ? 1 : strtoll(n, NULL, 10);
}

static void read_samples(json_t *d, const char *pre, const char *sdkey, double mult, bl_samples *s)
{
    char k[32];
    double *dst[] = {&s->min, &s->max, &s->mean, &s->stdev};
    const char *suf[] = {"min", "max", "mean", sdkey};
    int any = 0;
    for (int i = 0; i < 4; i++) {
        snprintf(k, sizeof k, "%s_%s", pre, suf[i]);
        double v = bl_fj_num(d, k);
        *dst[i] = bl_fio_scale(v, mult);
        any |= bl_present(v) && v != 0;
    }
    snprintf(k, sizeof k, "%s_samples", pre);
    double n = bl_fj_num(d, k);
    s->count = bl_count_or(n, -1);
    s->present = any;
}

/* One bucket object of a job ({"250":61.91, ">=2000":0.01}), keys times unit, without the
 * empty buckets, which the normal output leaves out too. */
static void read_dist(json_t *o, double unit, bl_dist *d)
{
    const char *bk;
    json_t *bv;
    json_object_foreach(o, bk, bv)
    {
        double at;
        bool ge;
        if (json_is_number(bv) && json_number_value(bv) > 0 && bl_dist_key(bk, &at, &ge))
            bl_dist_add(d, at * unit, ge, json_number_value(bv));
    }
}

/* The job's latency buckets ("latency_ns"/"_us"/"_ms") and its "iodepth_level". */
static void read_dists(json_t *job, bl_record *r)
{
    read_dist(json_object_get(job, "latency_ns"), 1, &r->lat_dist);
    read_dist(json_object_get(job, "latency_us"), 1e3, &r->lat_dist);
    read_dist(json_object_get(job, "latency_ms"), 1e6, &r->lat_dist);
    read_dist(json_object_get(job, "iodepth_level"), 1, &r->iodepth_dist);
}

static void job_record(jdoc *jd, json_t *job, json_t *dir, int ddir, const bl_fio_jobdef *def,
                       long line)
{
    double io = bl_fj_num(dir, "io_bytes"), kio = bl_fj_num(dir, "io_kbytes");
    if (!(io > 0 || kio > 0))
        return;
    bl_record *r = bl_out_record(jd->out, line);
    r->run = jd->run;
    bl_fio_fill(r, ddir, bl_fj_str(job, "jobname"), def, jd->version);
    double g = bl_fj_num(job, "groupid");
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
    double bwb = bl_fj_num(dir, "bw_bytes");
    r->bw_bytes_s = bl_present(bwb) ? bwb : bl_fio_scale(bl_fj_num(dir, "bw"), 1024);
    r->iops = bl_fj_num(dir, "iops");
    double rt = bl_fj_num(dir, "runtime");
    r->runtime_s = bl_present(rt) ? rt / 1000.0 : BL_ABSENT;
    if (jd->v3) {
        bl_fj_read_lat(json_object_get(dir, "slat_ns"), 1, &r->slat_ns);
        bl_fj_read_lat(json_object_get(dir, "clat_ns"), 1, &r->clat_ns);
        bl_fj_read_lat(json_object_get(dir, "lat_ns"), 1, &r->lat_ns);
    } else {
        bl_fj_read_lat(json_object_get(dir, "slat"), 1000, &r->slat_ns);
        bl_fj_read_lat(json_object_get(dir, "clat"), 1000, &r->clat_ns);
        bl_fj_read_lat(json_object_get(dir, "lat"), 1000, &r->lat_ns);
    }
    read_samples(dir, "bw", "dev", 1024, &r->bw_samples);
    read_samples(dir, "iops", "stddev", 1, &r->iops_samples);
    if (ddir == BL_FIO_WRITE || ddir < 0)
        bl_fj_read_sync(job, &r->sync_ns);
    double err = bl_fj_num(job, "error");
    if (err > 0) {
        char b[48];
        snprintf(b, sizeof b, "fio job error %.0f", err);
        bl_record_set_str(&r->note, b);
    }
    read_dists(job, r);
    r->cpu_usr_pct = bl_fj_num(job, "usr_cpu");
    r->cpu_sys_pct = bl_fj_num(job, "sys_cpu");
}

/* The line of the next `"jobname"` key from *at on (1-based, at most last), or first;
 * *at moves past it so that jobs are found in one pass. */
static long jobname_line(const bl_text *t, long first, long last, long *at)
{
    for (long l = *at; l <= last && (size_t)l <= t->nlines; l++)
        if (strstr(t->line[l - 1], "\"jobname\"")) {
            *at = l + 1;
            return l;
        }
    return first;
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

static void read_doc(jdoc *jd, json_t *doc, const bl_text *t, long first, long last)
{
    json_t *global = json_object_get(doc, "global options");
    json_t *jobs = json_object_get(doc, "jobs");
    size_t i;
    json_t *job;
    bl_fio_jobdefs defs = {0};
    long at = first;
    size_t doc_first = jd->out->recs.n, n_ids;
    job_id *ids = job_ids(jobs, &n_ids);
    json_array_foreach(jobs, i, job)
    {
        if (!json_is_object(job))
            continue;
        bl_fio_jobdefs_clear(&defs);
        bl_fio_jobdef_add(&defs, bl_fj_str(job, "jobname"),
                          bl_fj_option(job, global, "rw", "readwrite"),
                          bl_fj_option(job, global, "bs", "blocksize"),
                          bl_fj_option(job, global, "ioengine", NULL),
                          bl_fj_option(job, global, "iodepth", NULL), NULL);
        bl_fio_jobdef_kb_base(&defs, bl_fj_option(job, global, "bs", "blocksize"),
                              bl_fj_option(job, global, "kb_base", NULL));
        defs.v[0].numjobs = numjobs_of(ids, n_ids, job, global);
        const char *size = bl_fj_option(job, global, "size", NULL);
        double sz;
        if (size && bl_parse_size(size, BL_BINARY, &sz, NULL) && sz > 0)
            defs.v[0].size = bl_count_or(sz, -1);
        const char *direct = bl_fj_option(job, global, "direct", NULL);
        if (direct)
            defs.v[0].direct = strtol(direct, NULL, 10) ? BL_TRUE : BL_FALSE;
        if (defs.v[0].iodepth < 0 && json_object_get(job, "job options"))
            defs.v[0].iodepth = 1; /* fio's default, not echoed */
        long line = jobname_line(t, first, last, &at);
        for (int d = 0; d < BL_FIO_NDIR; d++)
            job_record(jd, job, json_object_get(job, bl_fio_ddir_name(d)), d, &defs.v[0], line);
        /* unified_rw_reporting: one "mixed" direction */
        job_record(jd, job, json_object_get(job, "mixed"), -1, &defs.v[0], line);
    }
    bl_fio_jobdefs_free(&defs);
    free(ids);
    if (jd->out->recs.n > doc_first) /* (recs.v is NULL before the first record) */
        read_disks(doc, jd->out->recs.v + doc_first, jd->out->recs.n - doc_first);
    /* numjobs=N without group_reporting: N jobs of one name that ran at once, as in the
     * normal output (JSON prints no group status line to check the total against) */
    bl_records none;
    bl_records_init(&none);
    bl_fio_clone_totals(jd->out, doc_first, &none);
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

/* One document: its version, date and era (3.x has *_ns latencies and io_kbytes). */
static void json_doc(json_t *doc, long first, long last, void *ctx)
{
    jdoc *jd = ctx;
    char *ver = bl_fio_strip_version(bl_fj_str(doc, "fio version"));
    jd->version = ver;
    jd->date = bl_fj_str(doc, "time");
    jd->timestamp = bl_fj_num(doc, "timestamp");
    jd->v3 = 0;
    json_t *j0 = json_array_get(json_object_get(doc, "jobs"), 0);
    static const char *const dirs[] = {"read", "write", "trim", "mixed"};
    for (int d = 0; d < 4; d++) {
        json_t *o = json_object_get(j0, dirs[d]);
        jd->v3 |= json_object_get(o, "clat_ns") != NULL || json_object_get(o, "io_kbytes") != NULL;
    }
    jd->run++;
    read_doc(jd, doc, jd->text, first, last);
    jd->version = NULL;
    free(ver);
}

static void fio_json_parse(const bl_text *t, bl_parse_out *out)
{
    jdoc jd = {.out = out, .run = 0, .text = t};
    bl_fj_each_doc(t, out, "jobs", "fio JSON", looks_fio, json_doc, &jd);
}

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
};
