/* fio's normal (human) output, fio 2.0.x to 3.3x, also when pasted among other text.
 *
 * The text is read line by line. Job header lines (`name: (g=0): rw=...`) define jobs;
 * a result header (`name: (groupid=0, jobs=1): err= 0: ...`) opens a job block; each
 * direction line in it (`read : io=...` in 2.x, `read: IOPS=..., BW=...` from 2.17 on)
 * opens one record that the following slat/clat/lat, percentile, bw and iops lines fill;
 * the cpu line applies to every record of the block. A run ends where a new job header or
 * version line follows results. The devices of the "Disk stats" block go to every record
 * of the run (extension disk_util). Progress lines are ignored; records are per job. In fio
 * --client output a "<hostname>" line stands right above the job block of that server (label
 * host); a block without one gets a note, and fio's "All clients" block is host "all clients"
 * with the test of its group's jobs.
 *
 * Fragments are read for what they hold: a result block pasted without its job header gives
 * its records (note says so), and the "Run status group" lines of a group none of whose jobs
 * is in the text give group-total records (label scope=group total). */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "fio_clones.h"
#include "fio_normal_lines.h"
#include "fio_common.h"
#include "fio_totals.h"
#include "fio_units.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nstate {
    bl_parse_out *out;
    bl_fio_jobdefs defs;
    char *version;
    int64_t run;
    int run_has_results;
    /* the open job block */
    char *job;
    long job_line;
    char *group, *date;
    int64_t jobs;
    long err;
    bl_record *recs[4];
    size_t nrecs;
    bl_record *cur;    /* record of the last direction line */
    bl_lat *pct;       /* open percentile block */
    double pct_unit;   /* ns per printed unit */
    long status_group; /* group of the "Run status group N" block being read, or -1 */
    long last_status;  /* the run's highest "Run status group" number so far, or -1 */
    size_t run_first;  /* index in out->recs of the current run's first record */
    int in_disks;      /* reading the "Disk stats" block */
    char *host_line;   /* "<vm>" just above: the server of the next job block */
    char *host;        /* server of the open job block */
    int client_text;   /* the text is fio --client output */
    int headless;      /* the open block's job header was not in the text */
    int kb_si;         /* the block's figures say kb_base=1000 (SI first in BW=A (B)) */
    bl_records totals; /* "Run status group" lines of the run, as group-total records */
} nstate;

static void close_job(nstate *s)
{
    free(s->host);
    s->host = NULL;
    free(s->job);
    free(s->group);
    free(s->date);
    s->job = s->group = s->date = NULL;
    s->headless = 0;
    s->kb_si = 0;
    s->nrecs = 0;
    s->cur = NULL;
    s->pct = NULL;
}

static void flush_totals(nstate *s);

static void new_run(nstate *s)
{
    close_job(s);
    flush_totals(s);
    bl_fio_jobdefs_clear(&s->defs);
    s->run++;
    s->run_has_results = 0;
    s->status_group = -1;
    s->last_status = -1;
    s->run_first = s->out->recs.n;
    s->in_disks = 0;
}

/* fio 2.0 printed, for a job that looped over its file (loops=N), the io of one pass in
 * the job's "io=" while bw and runt cover every pass; the group summary has the whole io.
 * When the job line contradicts its own bw x runt and the group is this one job, the
 * group's io is taken and the job line's figure kept as the size of one pass. */
static void group_io(nstate *s, int ddir, double io)
{
    bl_record *only = NULL;
    size_t n = 0;
    char g[32];
    snprintf(g, sizeof g, "%ld", s->status_group);
    for (size_t i = s->run_first; i < s->out->recs.n; i++) {
        bl_record *r = s->out->recs.v[i];
        const char *rg = bl_record_label(r, "group");
        if (rg && strcmp(rg, g) == 0 && r->op && ddir >= 0 &&
            strcmp(r->op, bl_fio_ddir_name(ddir)) == 0) {
            only = r;
            n++;
        }
    }
    if (n != 1 || only->io_bytes <= 0 || !bl_present(only->bw_bytes_s) ||
        !bl_present(only->runtime_s))
        return;
    double moved = only->bw_bytes_s * only->runtime_s;
    if (fabs((double)only->io_bytes - moved) <= 0.1 * moved || fabs(io - moved) > 0.02 * moved)
        return;
    only->size_bytes = only->io_bytes;
    only->io_bytes = bl_count_or(io, -1);
    bl_record_set_str(&only->note, "io of the job line covers one loop (fio 2.0); total io "
                                   "from the group summary");
}

static void group_total(nstate *s, int ddir, const char *p, long lineno)
{
    bl_record *r = bl_fio_group_total(p, ddir, s->status_group, s->version);
    if (!r)
        return;
    bl_record_set_str(&r->source, s->out->source ? s->out->source : "");
    r->line = lineno;
    r->run = s->run;
    bl_records_push(&s->totals, r);
}

static void flush_totals(nstate *s)
{
    /* fio --client prints "<hostname>" only: two servers on one host look like clones */
    if (!s->client_text)
        bl_fio_clone_totals(s->out, s->run_first, &s->totals);
    bl_fio_flush_totals(&s->totals, &s->out->recs, s->run_first);
}

/* `   READ: io=5120.0MB, aggrb=...` (2.x) or `   READ: bw=..., io=140MiB (147MB), ...`;
 * a 3.x line whose two figures of bw or io disagree is refused. */
static void status_line(nstate *s, const char *p, long lineno)
{
    size_t k = strcspn(p, ":");
    int ddir = bl_fio_ddir_from(p, k);
    double io, bw;
    int si = 0;
    if (ddir >= 0 && p[k] == ':' &&
        (bl_fio_figure_after(p + k, "bw=", 0, &bw, &si) == BL_FIO_FIG_DISAGREE ||
         bl_fio_figure_after(p + k, "io=", si, &io, NULL) == BL_FIO_FIG_DISAGREE)) {
        bl_out_error(s->out, lineno,
                     "fio %.*s line of group %ld: the two figures of a bw=A (B) or io=A (B) "
                     "pair disagree (retyped?); line refused",
                     (int)k, p, s->status_group);
        return;
    }
    const char *v = p[k] == ':' ? bl_fio_after(p + k, "io=") : NULL;
    if (ddir >= 0 && v &&
        (bl_fio_figure(v, si, &io, NULL, NULL) == BL_FIO_FIG_OK ||
         bl_parse_size(v, BL_BINARY, &io, NULL)))
        group_io(s, ddir, io);
    if (ddir >= 0 && p[k] == ':')
        group_total(s, ddir, p + k + 1, lineno);
}

/* `name: (groupid=0, jobs=1): err= 0: pid=5124[: date]` */
static void open_job(nstate *s, const char *line, const char *g, long lineno)
{
    close_job(s);
    const char *start = line;
    for (const char *p = line; p < g; p++)
        if (*p == ']')
            start = p + 1;
    start = bl_fio_skip(start);
    s->job = bl_xstrndup(start, (size_t)(g - start));
    s->job_line = lineno;
    s->host = s->host_line;
    s->host_line = NULL;
    const char *v = g + strlen(": (groupid=");
    s->group = bl_xstrndup(v, strspn(v, "0123456789"));
    const char *j = bl_fio_after(g, "jobs=");
    s->jobs = j ? strtoll(j, NULL, 10) : -1;
    const char *e = bl_fio_after(g, "err=");
    s->err = e ? strtol(e, NULL, 10) : 0;
    const char *pid = bl_fio_after(g, "pid=");
    if (pid) {
        pid += strspn(pid, "0123456789");
        if (*pid == ':' && *bl_fio_skip(pid + 1))
            s->date = bl_xstrdup(bl_fio_skip(pid + 1));
    }
    s->run_has_results = 1;
}

/* fio's "All clients" block sums its group's jobs of every server: their definition when
 * they all share one rw and block sizes, else none. */
static const bl_fio_jobdef *group_def(const nstate *s)
{
    const bl_fio_jobdef *one = NULL;
    long g = s->group ? strtol(s->group, NULL, 10) : -1;
    for (size_t i = 0; i < s->defs.n; i++) {
        const bl_fio_jobdef *d = &s->defs.v[i];
        if (d->group != g)
            continue;
        if (one && (!one->rw || !d->rw || strcmp(one->rw, d->rw) != 0 ||
                    memcmp(one->bs, d->bs, sizeof one->bs) != 0))
            return NULL;
        one = d;
    }
    return one;
}

static void open_direction(nstate *s, int ddir, const char *p, long lineno)
{
    if (s->nrecs == sizeof s->recs / sizeof s->recs[0])
        return;
    double x;
    if (bl_fio_after(p, "IOPS=") &&
        bl_fio_figure_after(p, "BW=", 0, &x, NULL) == BL_FIO_FIG_DISAGREE) {
        bl_out_error(s->out, lineno,
                     "fio %s line of job '%s': the two figures of BW=A (B) disagree "
                     "(retyped?); line refused",
                     ddir >= 0 ? bl_fio_ddir_name(ddir) : "mixed", s->job ? s->job : "?");
        s->cur = NULL;
        s->pct = NULL;
        return;
    }
    bl_record *r = bl_out_record(s->out, s->job_line > 0 && !s->headless ? s->job_line : lineno);
    r->run = s->run;
    int all_clients = s->client_text && s->job && strcmp(s->job, "All clients") == 0;
    const bl_fio_jobdef *def =
        s->headless && s->defs.n == 1 ? &s->defs.v[0] : bl_fio_jobdef_find(&s->defs, s->job);
    bl_fio_fill(r, ddir, s->job, def ? def : all_clients ? group_def(s) : NULL, s->version);
    if (s->host)
        bl_record_set_label(r, "host", s->host);
    else if (all_clients)
        bl_record_set_label(r, "host", "all clients");
    else if (s->client_text)
        bl_record_set_str(&r->note, "fio --client: no <host> line above this job block, so "
                                    "its server is not known");
    if (s->headless)
        bl_record_set_str(&r->note, s->defs.n == 1
                                        ? "fio job header missing from the text: job name, "
                                          "group and error status unknown; options from the "
                                          "one job definition above"
                                        : "fio job header missing from the text: job name, "
                                          "group, options and error status unknown");
    if (s->group)
        bl_record_set_label(r, "group", s->group);
    if (s->date)
        bl_record_set_label(r, "date", s->date);
    if (s->jobs > 0)
        r->numjobs = s->jobs;
    if (s->err > 0) {
        char b[48];
        snprintf(b, sizeof b, "fio job error %ld", s->err);
        bl_record_set_str(&r->note, b);
    }
    if (ddir < 0)
        bl_record_set_label(r, "ddir", "mixed");
    if (bl_fio_after(p, "IOPS="))
        bl_fio_new_summary(p, r, &s->kb_si);
    else
        bl_fio_old_summary(p, r);
    if (!bl_present(r->bw_bytes_s) || !bl_present(r->iops))
        bl_out_error(s->out, lineno, "fio %s line of job '%s': bandwidth or IOPS unreadable",
                     ddir >= 0 ? bl_fio_ddir_name(ddir) : "mixed", s->job ? s->job : "?");
    s->recs[s->nrecs++] = r;
    s->cur = r;
    s->pct = NULL;
}

static void parse_cpu(nstate *s, const char *p)
{
    const char *u = bl_fio_after(p, "usr="), *y = bl_fio_after(p, "sys=");
    double a, b;
    for (size_t i = 0; i < s->nrecs; i++) {
        if (u && bl_parse_number(u, 0, &a, NULL))
            s->recs[i]->cpu_usr_pct = a;
        if (y && bl_parse_number(y, 0, &b, NULL))
            s->recs[i]->cpu_sys_pct = b;
    }
}

/* A bucket line of the job ("lat (usec) : 250=61.91%", "IO depths : 4=100.0%"): every
 * record of the block gets it, as fio counts all directions together. */
static void job_dist(nstate *s, const char *p, double unit, int lat, long lineno)
{
    for (size_t i = 0; i < s->nrecs; i++) {
        bl_dist *d = lat ? &s->recs[i]->lat_dist : &s->recs[i]->iodepth_dist;
        if (!bl_fio_parse_dist(p, unit, d) && i == 0)
            bl_out_error(s->out, lineno, "fio %s line: unreadable bucket",
                         lat ? "latency distribution" : "IO depths");
    }
}

/* Lines inside a job block; returns 1 when the line was the block's own. */
static int job_line(nstate *s, const char *p, long lineno)
{
    if (*p == '|' && s->pct && s->cur) {
        if (bl_fio_pct_line(p, s->pct_unit, s->pct) < 0)
            bl_out_error(s->out, lineno, "fio percentile line: unreadable value");
        return 1;
    }
    s->pct = NULL;
    const char *colon = strchr(p, ':');
    size_t klen = strcspn(p, " :");
    int ddir = bl_fio_ddir_from(p, klen);
    if ((ddir >= 0 || bl_fio_line_key(p, "mixed")) && colon &&
        (bl_fio_after(colon, "io=") || bl_fio_after(colon, "IOPS="))) {
        open_direction(s, ddir, colon + 1, lineno);
        return 1;
    }
    if (bl_fio_line_key(p, "cpu") && bl_fio_after(p, "usr=")) {
        parse_cpu(s, p);
        return 1;
    }
    if (*p == 'I' && strncmp(p, "IO depths", 9) == 0 && colon) {
        job_dist(s, colon + 1, 1, 0, lineno);
        return 1;
    }
    if (!s->cur)
        return 0;
    size_t kl;
    bl_lat *l = bl_fio_lat_of(s->cur, p, &kl);
    const char *after;
    if (l) {
        double unit = bl_fio_paren_unit(p + kl, &after);
        if (unit > 0 && *bl_fio_skip(after) == ':' && bl_fio_after(after, "min=")) {
            if (!bl_fio_lat_line(after, unit, l))
                bl_out_error(s->out, lineno, "fio latency line: unreadable figure");
            return 1;
        }
        const char *sep = unit > 0 ? bl_fio_skip(after) : "";
        const char *b = *sep == ':' ? bl_fio_skip(sep + 1) : sep;
        if (l == &s->cur->lat_ns && *sep == ':' &&
            (isdigit((unsigned char)*b) || *b == '>')) { /* "lat (usec) : 250=61.91%" */
            job_dist(s, b, unit, 1, lineno);
            return 1;
        }
        if (strncmp(p + kl, " percentiles", 12) == 0) {
            double pu = bl_fio_paren_unit(p + kl + 12, &after);
            if (pu > 0) {
                l->present = true;
                s->pct = l;
                s->pct_unit = pu;
            }
            return 1;
        }
        return 0;
    }
    if (bl_fio_line_key(p, "bw") && bl_fio_after(p, "min=")) {
        double m =
            s->kb_si && strchr(p, '(') ? bl_fio_sample_unit(strchr(p, '('), 1) : bl_fio_bw_unit(p);
        if (m <= 0 || !bl_fio_samples_line(p, m, &s->cur->bw_samples))
            bl_out_error(s->out, lineno, "fio bw sample line: unreadable figure");
        return 1;
    }
    if (bl_fio_line_key(p, "iops") && bl_fio_after(p, "min=")) {
        if (!bl_fio_samples_line(p, 1, &s->cur->iops_samples))
            bl_out_error(s->out, lineno, "fio iops sample line: unreadable figure");
        return 1;
    }
    return 0;
}

/* A mail client that re-wraps long lines moves the year of a job header's date
 * ("...pid=4242: Tue Mar  3 10:11:12") to the start of the next line ("2020 read: IOPS=...").
 * The year goes back to the date; the rest is the job's direction line. */
static const char *carried_year(nstate *s, const char *p)
{
    size_t n = s->date ? strlen(s->date) : 0;
    if (n < 8 || !isdigit((unsigned char)s->date[n - 1]) || s->date[n - 3] != ':' ||
        strspn(p, "0123456789") != 4 || (strncmp(p, "19", 2) != 0 && strncmp(p, "20", 2) != 0) ||
        p[4] != ' ')
        return p;
    const char *rest = bl_fio_skip(p + 4);
    size_t k = strcspn(rest, " :");
    if (bl_fio_ddir_from(rest, k) < 0 && !bl_fio_line_key(rest, "mixed"))
        return p;
    char *date = bl_xmalloc(n + 6);
    snprintf(date, n + 6, "%s %.4s", s->date, p);
    free(s->date);
    s->date = date;
    return rest;
}

/* The phrases after a colon that decide what a line is, found in one pass over its colons
 * (a line has few): each the first occurrence, as strstr would give it. */
typedef struct colon_marks {
    const char *groupid; /* ": (groupid=" */
    const char *jobdef;  /* ": (g=" */
    const char *layout;  /* ": Laying out IO file" */
} colon_marks;

static colon_marks colon_marks_of(const char *p)
{
    colon_marks m = {NULL, NULL, NULL};
    for (const char *c = strchr(p, ':'); c; c = strchr(c + 1, ':')) {
        if (c[1] != ' ')
            continue;
        if (c[2] == '(') { /* the byte after ": " tells which phrase may follow */
            if (!m.groupid && strncmp(c + 3, "groupid=", 8) == 0)
                m.groupid = c;
            if (!m.jobdef && c[3] == 'g' && c[4] == '=')
                m.jobdef = c;
        } else if (c[2] == 'L' && !m.layout && strncmp(c + 3, "aying out IO file", 17) == 0) {
            m.layout = c;
        }
    }
    return m;
}

static void parse_line(nstate *s, const char *line, long lineno)
{
    const char *p = bl_fio_skip(line);
    char *v = bl_fio_version_line(p);
    if (v) {
        if (s->run_has_results || s->last_status >= 0)
            new_run(s);
        free(s->version);
        s->version = v;
        return;
    }
    if (s->in_disks) { /* the devices of the run, on each of its records */
        size_t n = s->out->recs.n - s->run_first;
        if (bl_fio_disk_line(p, n ? s->out->recs.v + s->run_first : NULL, n))
            return;
        s->in_disks = 0;
    }
    if (*p == '<') {
        size_t n = strcspn(p, ">");
        if (p[n] == '>' && n > 1 && !*bl_fio_skip(p + n + 1)) {
            free(s->host_line);
            s->host_line = bl_xstrndup(p + 1, n - 1);
            s->client_text = 1;
            return;
        }
    }
    colon_marks m = colon_marks_of(p);
    if (m.groupid) {
        open_job(s, p, m.groupid, lineno);
        return;
    }
    if (*p) { /* a "<host>" line names the server of the block right below it only */
        free(s->host_line);
        s->host_line = NULL;
    }
    if (m.layout && bl_fio_parse_layout_line(p, &s->defs))
        return;
    if (m.jobdef) {
        /* after a "Run status group" heading, a job line is the next run's even when that
         * heading had no figures (a run interrupted before any I/O, logs appended) */
        if (s->run_has_results || s->last_status >= 0)
            new_run(s);
        bl_fio_parse_jobdef_line(p, &s->defs);
        return;
    }
    if (*p == 'R' && strncmp(p, "Run status group", 16) == 0) {
        /* fio prints each group's status once, in order: a group number again is another
         * run's (separate pastes); fio --client prints one per server, which is one run */
        long g = strtol(p + 16, NULL, 10);
        if (!s->client_text && s->last_status >= 0 && g <= s->last_status)
            new_run(s);
        close_job(s);
        s->status_group = s->last_status = g;
        return;
    }
    if (*p == 'D' && strncmp(p, "Disk stats", 10) == 0) {
        close_job(s);
        s->status_group = -1;
        s->in_disks = 1;
        return;
    }
    if (s->status_group >= 0 && !s->job && !s->headless) {
        status_line(s, p, lineno);
        return;
    }
    if (s->job && !s->nrecs)
        p = carried_year(s, p);
    if (s->job || s->headless)
        job_line(s, p, lineno);
}

/* A direction line (`write: IOPS=139k, BW=541MiB/s ...`, `read : io=..., bw=...`) whose
 * next line is one of its block's (latency, bandwidth samples, cpu): a result block pasted
 * without its `name: (groupid=...)` header. */
static int headless_block(const bl_text *t, size_t i)
{
    const char *p = bl_fio_skip(t->line[i]);
    size_t k = strcspn(p, " :");
    const char *colon = strchr(p, ':');
    if ((bl_fio_ddir_from(p, k) < 0 && !bl_fio_line_key(p, "mixed")) || !colon)
        return 0;
    if (!(bl_fio_after(colon, "IOPS=") && bl_fio_after(colon, "BW=")) &&
        !(bl_fio_after(colon, "io=") && bl_fio_after(colon, "bw=")))
        return 0;
    if (i + 1 >= t->nlines)
        return 0;
    const char *n = bl_fio_skip(t->line[i + 1]);
    static const char *const keys[] = {"slat", "clat", "lat", "bw", "iops", "cpu"};
    for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
        if (bl_fio_line_key(n, keys[j]) && strchr(n, '='))
            return 1;
    return 0;
}

static void fio_parse(const bl_text *t, bl_parse_out *out)
{
    nstate s = {.out = out, .run = 1, .status_group = -1, .last_status = -1};
    bl_records_init(&s.totals);
    for (size_t i = 0; i < t->nlines; i++) {
        if (!s.job && !s.headless && headless_block(t, i)) {
            close_job(&s);
            s.headless = 1;
            s.job_line = (long)i + 1;
            s.status_group = -1;
            s.run_has_results = 1;
        }
        parse_line(&s, t->line[i], (long)i + 1);
    }
    close_job(&s);
    flush_totals(&s);
    bl_records_free(&s.totals);
    bl_fio_jobdefs_free(&s.defs);
    free(s.version);
    free(s.host_line);
}

static int fio_probe(const bl_text *t)
{
    int heads = 0, dirs = 0, fragments = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        const char *l = t->line[i];
        if (strstr(l, ": (groupid=") && strstr(l, "jobs="))
            heads++;
        const char *p = bl_fio_skip(l);
        size_t k = strcspn(p, " :");
        if ((bl_fio_ddir_from(p, k) >= 0 || bl_fio_line_key(p, "mixed")) &&
            (strstr(p, ": io=") || strstr(p, ": IOPS=")))
            dirs++;
        if (headless_block(t, i) ||
            (*p == 'R' && strncmp(p, "Run status group", 16) == 0 && i + 1 < t->nlines &&
             bl_fio_ddir_from(bl_fio_skip(t->line[i + 1]),
                              strcspn(bl_fio_skip(t->line[i + 1]), ":")) >= 0))
            fragments++;
        if (heads && dirs)
            return 90; /* what the rest holds changes nothing */
    }
    return heads && dirs ? 90 : fragments ? 60 : 0;
}

/* Where a big text may be cut (bl_format.cut_line): where the parse starts a new run
 * (new_run: a job header line or a version line after a run's results) and the new run
 * takes nothing from the one before but its version, which it must print itself before
 * any figure (the version line after the job header lines, as fio prints them). fio
 * --client text ("<host>" lines: the whole text's mode) is never cut; nor is a run right
 * after a direction line (headless_block looks at the line below it). */
enum {
    CUT_RESULTS = 1, /* the run has a job block or a "Run status group" heading */
    CUT_PENDING = 2, /* a cut marked at a job header line, waiting for the version line */
    CUT_PREV_DIR = 4 /* the line above could be a direction line */
};

/* "IOPS=", "io=", "Disk stats" or "Run status" anywhere in p: one pass over its '='s and
 * one search for what both headings share, not four searches of every line. */
static int cut_dir_like(const char *p)
{
    for (const char *e = strchr(p, '='); e; e = strchr(e + 1, '='))
        if ((e - p >= 4 && memcmp(e - 4, "IOPS", 4) == 0) ||
            (e - p >= 2 && memcmp(e - 2, "io", 2) == 0))
            return 1;
    for (const char *q = strstr(p, " stat"); q; q = strstr(q + 1, " stat"))
        if ((q - p >= 4 && memcmp(q - 4, "Disk", 4) == 0 && q[5] == 's') ||
            (q - p >= 3 && memcmp(q - 3, "Run", 3) == 0 && q[5] == 'u' && q[6] == 's'))
            return 1;
    return 0;
}

static bl_cut fio_cut_line(bl_cut_state *st, const char *line)
{
    const char *p = bl_fio_skip(line);
    int prev_dir = st->flags & CUT_PREV_DIR;
    st->flags &= ~CUT_PREV_DIR;
    if (*p == '<')
        return BL_CUT_NEVER;
    char *v = bl_fio_version_line(p);
    if (v) {
        free(v);
        if ((st->flags & CUT_RESULTS) && !prev_dir) {
            st->flags = 0;
            return BL_CUT_HERE;
        }
        int pending = st->flags & CUT_PENDING;
        st->flags &= ~CUT_PENDING;
        return pending ? BL_CUT_CONFIRM : BL_CUT_NO;
    }
    colon_marks m = colon_marks_of(p);
    if (m.groupid || (*p == 'R' && strncmp(p, "Run status group", 16) == 0)) {
        int pending = st->flags & CUT_PENDING;
        st->flags = CUT_RESULTS;
        return pending ? BL_CUT_DROP : BL_CUT_NO;
    }
    if (m.jobdef && !bl_fio_after(p, "IOPS=")) {
        if (!(st->flags & CUT_RESULTS))
            return BL_CUT_NO;
        st->flags = prev_dir ? 0 : CUT_PENDING;
        return prev_dir ? BL_CUT_NO : BL_CUT_MARK;
    }
    if (cut_dir_like(p)) {
        st->flags |= CUT_PREV_DIR;
        if (st->flags & CUT_PENDING) {
            st->flags &= ~CUT_PENDING;
            return BL_CUT_DROP;
        }
    }
    return BL_CUT_NO;
}

const bl_format bl_format_fio = {
    .name = "fio",
    .summary = "fio normal output (2.0 to 3.x), also pasted among other text",
    .family = "fio",
    .rank = 1,
    .probe = fio_probe,
    .parse = fio_parse,
    .parse_stream = NULL,
    .cut_line = fio_cut_line,
};
