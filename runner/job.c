#include "job.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void bl_job_defaults(bl_job *j)
{
    memset(j, 0, sizeof *j);
    j->is_read = true;
    j->rwmixread = 50;
    j->bs = 4096;
    j->numjobs = 1;
    j->iodepth = 1;
    j->iodepth_batch = 1;
    j->userspace_reap = true;
    j->loops = 1;
    j->engine = bl_engine_find("sync");
    j->fixedbufs = j->registerfiles = true;
    j->do_verify = true;
    j->randrepeat = true;
    j->nrfiles = 1;
}

static char *dup0(const char *s)
{
    return s ? bl_xstrdup(s) : NULL;
}

void bl_job_copy(bl_job *dst, const bl_job *src)
{
    *dst = *src;
    dst->name = dup0(src->name);
    dst->filename = dup0(src->filename);
    dst->directory = dup0(src->directory);
    dst->bw_log = dup0(src->bw_log);
    dst->iops_log = dup0(src->iops_log);
    dst->lat_log = dup0(src->lat_log);
    dst->hist_log = dup0(src->hist_log);
    dst->description = dup0(src->description);
    dst->cdm_test = dup0(src->cdm_test);
}

void bl_job_free(bl_job *j)
{
    free(j->name);
    free(j->filename);
    free(j->directory);
    free(j->bw_log);
    free(j->iops_log);
    free(j->lat_log);
    free(j->hist_log);
    free(j->description);
    free(j->cdm_test);
    memset(j, 0, sizeof *j);
}

void bl_jobs_free(bl_jobs *js)
{
    for (size_t i = 0; i < js->n; i++)
        bl_job_free(&js->v[i]);
    free(js->v);
    js->v = NULL;
    js->n = 0;
}

bool bl_fio_size(const char *s, uint64_t *out)
{
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)*s))
        return false;
    double v = strtod(s, &end);
    if (errno || end == s)
        return false;
    char suf[8] = "";
    size_t n = strlen(end);
    if (n > 3) /* "k-16k", "k,8k": more than a unit; never read as the first number alone */
        return false;
    for (size_t i = 0; i <= n; i++)
        suf[i] = (char)tolower((unsigned char)end[i]);
    /* fio's kb_base=1024 default: k/kb/ki = 1024, but the explicit IEC "kib" = 1000. */
    bool decimal = n == 3 && suf[1] == 'i' && suf[2] == 'b';
    double mult = 1;
    if (n > 0) {
        const char *p = strchr("kmgtp", suf[0]);
        if (suf[0] == 'b' && n == 1)
            mult = 1;
        else if (!p || suf[0] == '\0')
            return false;
        else {
            if (n == 2 && suf[1] != 'b' && suf[1] != 'i')
                return false;
            if (n == 3 && !decimal)
                return false;
            int e = (int)(p - "kmgtp") + 1;
            for (int i = 0; i < e; i++)
                mult *= decimal ? 1000.0 : 1024.0;
        }
    }
    /* A whole number is taken exactly: through a double, 2^63-1 (the stated upper bound of
     * size and offset) became 2^63 and was refused. */
    size_t digits = strspn(s, "0123456789");
    if (s + digits == end) {
        unsigned long long x = strtoull(s, NULL, 10), m = (unsigned long long)mult;
        if (errno || (m && x > ULLONG_MAX / m))
            return false;
        *out = x * m;
        return true;
    }
    double r = v * mult;
    if (r < 0 || r > 1.8e19)
        return false;
    *out = (uint64_t)(r + 0.5);
    return true;
}

bool bl_fio_time_s(const char *s, double *out)
{
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)*s))
        return false;
    double v = strtod(s, &end);
    if (errno || end == s || v < 0)
        return false;
    static const struct {
        const char *suf;
        double mult;
    } units[] = {{"", 1},        {"s", 1},  {"sec", 1},  {"ms", 1e-3}, {"msec", 1e-3}, {"us", 1e-6},
                 {"usec", 1e-6}, {"m", 60}, {"min", 60}, {"h", 3600},  {"d", 86400}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(end, units[i].suf) == 0) {
            *out = v * units[i].mult;
            return true;
        }
    return false;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static void push_job(bl_jobs *js, const bl_job *global, const char *name, long line)
{
    js->v = bl_xrealloc(js->v, (js->n + 1) * sizeof *js->v);
    bl_job *j = &js->v[js->n++];
    bl_job_copy(j, global);
    free(j->name);
    j->name = bl_xstrdup(name);
    j->line = line;
}

/* One "key=value" or "key" line into the current section. */
static int parse_option(char *s, bl_job *cur, long line, bl_diags *out)
{
    char *eq = strchr(s, '=');
    char *key = s, *val = NULL;
    if (eq) {
        *eq = '\0';
        val = trim(eq + 1);
    }
    key = trim(key);
    char err[256];
    if (!*key) {
        bl_diags_add(out, line, "expected option=value, got '=%s'", val ? val : "");
        return 1;
    }
    if (val && strchr(val, '$')) {
        bl_diags_add(out, line, "option '%s': $ variables are not supported", key);
        return 1;
    }
    if (bl_job_set(cur, key, val, err, sizeof err) != 0) {
        bl_diags_add(out, line, "%s", err);
        return 1;
    }
    return 0;
}

int bl_jobfile_parse(const bl_text *t, bl_jobs *jobs, bl_diags *out)
{
    bl_job global;
    bl_job_defaults(&global);
    bl_job *cur = &global; /* options before any section are global, like fio's */
    int errors = 0;
    bool in_global = true;
    for (size_t i = 0; i < t->nlines; i++) {
        long line = (long)i + 1;
        char *copy = bl_xstrdup(t->line[i]);
        char *s = trim(copy);
        if (!*s || *s == '#' || *s == ';') {
            free(copy);
            continue;
        }
        if (*s == '[') {
            char *close = strchr(s, ']');
            if (!close || close == s + 1 || *trim(close + 1)) {
                bl_diags_add(out, line, "bad section header '%s'", s);
                errors++;
            } else {
                *close = '\0';
                in_global = strcmp(s + 1, "global") == 0;
                if (in_global)
                    cur = &global;
                else {
                    push_job(jobs, &global, s + 1, line);
                    cur = &jobs->v[jobs->n - 1];
                }
            }
        } else if (strncmp(s, "include ", 8) == 0) {
            bl_diags_add(out, line, "'include' is not supported");
            errors++;
        } else
            errors += parse_option(s, cur, line, out);
        free(copy);
    }
    (void)in_global;
    char err[256];
    for (size_t k = 0; k < jobs->n; k++)
        if (bl_job_check(&jobs->v[k], err, sizeof err) != 0) {
            bl_diags_add(out, jobs->v[k].line, "%s", err);
            errors++;
        }
    if (jobs->n == 0 && errors == 0) {
        bl_diags_add(out, 0, "no job section ([name]) in the job file");
        errors++;
    }
    bl_job_free(&global);
    return errors;
}
