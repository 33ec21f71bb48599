/* A matrix of job option values run as one command (sweep.h). */
#include "sweep.h"
#include "../core/strbuf.h"
#include "exec.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bl_sweep_free(bl_sweep *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].key);
        for (size_t k = 0; k < s->v[i].n; k++)
            free(s->v[i].values[k]);
        free(s->v[i].values);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* One "KEY=V1,V2" word: every value taken by the option on a job of fio's defaults. */
static int parse_param(const char *word, bl_sweep *s, char *err, size_t errlen)
{
    const char *eq = strchr(word, '=');
    if (!eq || eq == word || !eq[1]) {
        snprintf(err, errlen, "--sweep: '%s' is not KEY=V1,V2,... (e.g. iodepth=1,2,4,8)", word);
        return -1;
    }
    bl_sweep_param p = {bl_xstrndup(word, (size_t)(eq - word)), 0, NULL};
    int rc = 0;
    if (!bl_job_opt_find(p.key)) {
        snprintf(err, errlen,
                 "--sweep: option '%s' is not a job file option (benchlog run "
                 "--help-options lists them)",
                 p.key);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < s->n; i++)
        if (bl_job_opt_find(s->v[i].key) == bl_job_opt_find(p.key)) {
            snprintf(err, errlen, "--sweep: option '%s' is given twice", p.key);
            rc = -1;
        }
    for (const char *v = eq + 1; rc == 0 && v;) {
        const char *comma = strchr(v, ',');
        char *val = comma ? bl_xstrndup(v, (size_t)(comma - v)) : bl_xstrdup(v);
        bl_job j;
        bl_job_defaults(&j);
        char why[256];
        if (!*val) {
            snprintf(err, errlen, "--sweep: option '%s': an empty value in '%s'", p.key, eq + 1);
            rc = -1;
        } else if (bl_job_set(&j, p.key, val, why, sizeof why) != 0) {
            snprintf(err, errlen, "--sweep: %s", why);
            rc = -1;
        }
        for (size_t k = 0; rc == 0 && k < p.n; k++)
            if (strcmp(p.values[k], val) == 0) {
                snprintf(err, errlen, "--sweep: option '%s': '%s' is given twice", p.key, val);
                rc = -1;
            }
        bl_job_free(&j);
        p.values = bl_xrealloc(p.values, (p.n + 1) * sizeof *p.values);
        p.values[p.n++] = val;
        v = comma ? comma + 1 : NULL;
    }
    s->v = bl_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
    s->v[s->n++] = p; /* owned by s even when refused: one free path */
    return rc;
}

int bl_sweep_parse(const char *spec, bl_sweep *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->repeats = 1;
    char *copy = bl_xstrdup(spec ? spec : "");
    int rc = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t\n", &save); w && rc == 0;
         w = strtok_r(NULL, " \t\n", &save))
        rc = parse_param(w, s, err, errlen);
    free(copy);
    if (rc == 0 && s->n == 0) {
        snprintf(err, errlen, "--sweep: no KEY=V1,V2,... given");
        rc = -1;
    }
    if (rc == 0 && bl_sweep_points(s) > 100000) {
        snprintf(err, errlen, "--sweep: %zu points is more than 100000", bl_sweep_points(s));
        rc = -1;
    }
    return rc;
}

size_t bl_sweep_points(const bl_sweep *s)
{
    size_t n = 1;
    for (size_t i = 0; i < s->n; i++)
        n = n > 100000 ? n : n * s->v[i].n;
    return n;
}

void bl_sweep_point(const bl_sweep *s, size_t i, bl_label *out)
{
    for (size_t k = s->n; k-- > 0;) {
        out[k].key = s->v[k].key;
        out[k].value = s->v[k].values[i % s->v[k].n];
        i /= s->v[k].n;
    }
}

/* "iodepth=4 numjobs=2" */
static void point_text(const bl_label *pt, size_t n, bl_strbuf *sb)
{
    for (size_t k = 0; k < n; k++)
        bl_strbuf_printf(sb, "%s%s=%s", k ? " " : "", pt[k].key, pt[k].value);
}

static int check_job(const bl_run_opts *po, const bl_job *src, char *err, size_t errlen)
{
    bl_job j;
    bl_job_copy(&j, src);
    bl_exec_apply_sets(po, &j);
    if (po->size)
        j.size = po->size;
    if (po->runtime_s > 0)
        j.runtime_s = po->runtime_s;
    if (po->engine)
        j.engine = po->engine;
    int rc = bl_job_check(&j, err, errlen);
    bl_job_free(&j);
    return rc;
}

int bl_sweep_check(const bl_sweep *s, const bl_jobs *jobs, const bl_suite *suite, char *err,
                   size_t errlen)
{
    size_t np = bl_sweep_points(s);
    bl_label *pt = bl_xcalloc(s->n, sizeof *pt);
    bl_run_opts po = {.n_sets = s->n, .sets = pt};
    char why[384];
    int rc = 0;
    for (size_t i = 0; i < np && rc == 0; i++) {
        bl_sweep_point(s, i, pt);
        for (size_t k = 0; suite && k < 2 * suite->n_tests && rc == 0; k++) {
            bl_job j;
            bl_suite_job(suite, k % suite->n_tests, k < suite->n_tests ? BL_DIR_READ : BL_DIR_WRITE,
                         &j);
            rc = check_job(&po, &j, why, sizeof why);
            bl_job_free(&j);
        }
        for (size_t k = 0; !suite && jobs && k < jobs->n && rc == 0; k++)
            rc = check_job(&po, &jobs->v[k], why, sizeof why);
        if (rc != 0) {
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            point_text(pt, s->n, &sb);
            snprintf(err, errlen, "--sweep: the point %s cannot run: %s", sb.s, why);
            bl_strbuf_free(&sb);
        }
    }
    free(pt);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The run options of one point: o's, with the point's values set on every job and labelled
 * (sweep, sweep_KEY) after o's own labels. Strings are owned by sb-allocated copies in keep. */
typedef struct point_opts {
    bl_run_opts o;
    bl_label *pt, *labels;
    bl_strbuf what;
} point_opts;

static void point_init(point_opts *p, const bl_sweep *s, const bl_run_opts *o)
{
    memset(p, 0, sizeof *p);
    p->o = *o;
    p->pt = bl_xcalloc(s->n, sizeof *p->pt);
    size_t nl = o->n_labels + 1 + s->n;
    p->labels = bl_xcalloc(nl, sizeof *p->labels);
    for (size_t i = 0; i < o->n_labels; i++)
        p->labels[i] = o->labels[i];
    bl_strbuf keys;
    bl_strbuf_init(&keys);
    for (size_t k = 0; k < s->n; k++) {
        bl_strbuf_printf(&keys, "%s%s", k ? "," : "", s->v[k].key);
        bl_strbuf lk;
        bl_strbuf_init(&lk);
        bl_strbuf_printf(&lk, "sweep_%s", s->v[k].key);
        p->labels[o->n_labels + 1 + k].key = bl_strbuf_take(&lk);
    }
    p->labels[o->n_labels].key = bl_xstrdup("sweep");
    p->labels[o->n_labels].value = bl_strbuf_take(&keys);
    p->o.labels = p->labels;
    p->o.n_labels = nl;
    p->o.sets = p->pt;
    p->o.n_sets = s->n;
    bl_strbuf_init(&p->what);
}

static void point_free(point_opts *p, const bl_sweep *s)
{
    for (size_t k = 0; k <= s->n; k++)
        free(p->labels[p->o.n_labels - 1 - s->n + k].key);
    free(p->labels[p->o.n_labels - 1 - s->n].value);
    free(p->labels);
    free(p->pt);
    bl_strbuf_free(&p->what);
}

/* Point i of round r of the matrix, k-th run of total. */
static void point_set(point_opts *p, const bl_sweep *s, size_t i, int r, size_t k, size_t total)
{
    bl_sweep_point(s, i, p->pt);
    size_t base = p->o.n_labels - s->n;
    for (size_t j = 0; j < s->n; j++)
        p->labels[base + j].value = p->pt[j].value;
    p->what.len = 0;
    if (p->what.s)
        p->what.s[0] = '\0';
    bl_strbuf_printf(&p->what, "%zu/%zu ", k + 1, total);
    point_text(p->pt, s->n, &p->what);
    if (s->repeats > 1)
        bl_strbuf_printf(&p->what, " #%d", r + 1);
    p->o.progress_point = p->what.s;
}

int bl_run_sweep(const bl_sweep *s, const bl_jobs *jobs, const bl_suite *suite,
                 const bl_run_opts *o, bl_records *out)
{
    size_t np = bl_sweep_points(s);
    int rounds = s->repeats > 0 ? s->repeats : 1;
    size_t total = np * (size_t)rounds;
    double est = suite ? bl_suite_seconds(suite, o) : bl_jobs_seconds(jobs, o);
    FILE *msg = o->msg ? o->msg : stderr;
    bl_exec ex;
    bl_exec_init(&ex, o);
    point_opts p;
    point_init(&p, s, o);
    double t0 = now_s();
    int rc = BL_RUN_OK;
    for (size_t k = 0; k < total && rc == BL_RUN_OK; k++) {
        point_set(&p, s, k % np, (int)(k / np), k, total);
        double done = now_s() - t0;
        double per = k ? done / (double)k : est; /* measured once a point has run */
        p.o.progress_done_s = done;
        p.o.progress_later_s = per * (double)(total - k - 1);
        fprintf(msg, "sweep %s\n", p.what.s);
        ex.o = &p.o;
        size_t first = out->n;
        rc = suite ? bl_run_suite_on(&ex, suite, out) : bl_run_jobs_on(&ex, jobs, out);
        ex.o = o;
        /* Each point (of each round) is a run of its own, as if run alone: a run ID a point,
         * its parameters in its labels; a point's runs of several rounds are its repeats. */
        for (size_t q = first; q < out->n; q++)
            out->v[q]->run = (long)k + 1;
    }
    point_free(&p, s);
    bl_exec_done(&ex);
    return rc;
}
