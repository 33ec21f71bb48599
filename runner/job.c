#include "job.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <errno.h>
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

static int set_bool(const char *v, bool *out)
{
    if (!v || !*v || strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) {
        *out = true;
        return 0;
    }
    if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) {
        *out = false;
        return 0;
    }
    return -1;
}

/* Numeric setters return 0, -1 (not a number of that kind) or -2 (out of range, with the
 * range written into range). */
static int set_int(const char *v, int lo, int hi, int *out, char *range, size_t rn)
{
    if (!v)
        return -1;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end)
        return -1;
    if (errno || x < lo || x > hi) {
        snprintf(range, rn, "%d to %d", lo, hi);
        return -2;
    }
    *out = (int)x;
    return 0;
}

static void set_str(char **field, const char *v)
{
    free(*field);
    *field = bl_xstrdup(v ? v : "");
}

static int set_rw(bl_job *j, const char *v)
{
    static const struct {
        const char *name;
        bool r, w, rnd, trim;
    } modes[] = {{"read", 1, 0, 0, 0},      {"write", 0, 1, 0, 0}, {"randread", 1, 0, 1, 0},
                 {"randwrite", 0, 1, 1, 0}, {"rw", 1, 1, 0, 0},    {"readwrite", 1, 1, 0, 0},
                 {"randrw", 1, 1, 1, 0},    {"trim", 0, 1, 0, 1},  {"randtrim", 0, 1, 1, 1}};
    for (size_t i = 0; v && i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(v, modes[i].name) == 0) {
            j->is_read = modes[i].r;
            j->is_write = modes[i].w;
            j->random = modes[i].rnd;
            j->is_trim = modes[i].trim;
            return 0;
        }
    return -1;
}

/* Any name or alias of the engine table; the message lists them. */
static int set_engine(bl_job *j, const char *v, char *err, size_t errlen)
{
    const bl_engine_ops *e = bl_engine_find(v);
    if (e) {
        j->engine = e;
        return 0;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < bl_engine_count(); i++) {
        const bl_engine_ops *x = bl_engine_at(i);
        bl_strbuf_printf(&sb, "%s%s", i ? ", " : "", x->name);
        for (const char *const *a = x->aliases; a && *a; a++)
            bl_strbuf_printf(&sb, ", %s", *a);
    }
    snprintf(err, errlen, "option 'ioengine': '%s' is not one of benchlog's engines (%s)",
             v ? v : "", sb.s);
    bl_strbuf_free(&sb);
    return -1;
}

static int set_size(const char *v, uint64_t *out, uint64_t lo, uint64_t hi, const char *hi_text,
                    char *range, size_t rn)
{
    uint64_t x;
    if (!v || !isdigit((unsigned char)*v))
        return -1;
    if (!bl_fio_size(v, &x) || x < lo || x > hi) {
        char *end;
        errno = 0;
        (void)strtod(v, &end);
        if (!errno && end != v && strlen(end) > 3)
            return -1; /* a unit we do not know: a syntax error, not a range one */
        snprintf(range, rn, "%llu to %s", (unsigned long long)lo, hi_text);
        return -2;
    }
    *out = x;
    return 0;
}

static int set_time(const char *v, double *out, double max, const char *max_text, char *range,
                    size_t rn)
{
    double t;
    if (!v || !bl_fio_time_s(v, &t)) {
        char *end;
        errno = 0;
        double x = v ? strtod(v, &end) : 0;
        if (v && isdigit((unsigned char)*v) && end != v && (errno == ERANGE || x > max)) {
            snprintf(range, rn, "0 to %s", max_text);
            return -2;
        }
        return -1;
    }
    if (t > max) {
        snprintf(range, rn, "0 to %s", max_text);
        return -2;
    }
    *out = t;
    return 0;
}

/* A time of up to 10 s in ns (the null engine's simulated service time). */
static int set_ns(const char *v, uint64_t *out, char *range, size_t rn)
{
    double t = 0;
    int rc = set_time(v, &t, 10, "10 s", range, rn);
    if (rc == 0)
        *out = (uint64_t)(t * 1e9 + 0.5);
    return rc;
}

/* Block sizes fio mixes (bs=4k-16k, bsrange, bssplit, bs=4k,8k): we would run one size and
 * store it as if it were the job, so they are refused. */
static int refuse_bs_mix(const char *k, const char *v, char *err, size_t errlen)
{
    if (strcmp(k, "bsrange") == 0 || strcmp(k, "blocksize_range") == 0 ||
        strcmp(k, "bssplit") == 0) {
        snprintf(err, errlen,
                 "option '%s': mixed block sizes are not supported by benchlog's runner (it "
                 "would not run the mix fio runs); give one bs",
                 k);
        return -1;
    }
    if ((strcmp(k, "bs") == 0 || strcmp(k, "blocksize") == 0) && v && strpbrk(v, "-,:/")) {
        snprintf(err, errlen,
                 "option '%s': '%s' asks for several block sizes; benchlog's runner runs one "
                 "(it would not run the mix fio runs): give one size",
                 k, v);
        return -1;
    }
    return 0;
}

/* Options that are accepted because they change nothing in how we run. */
static bool harmless(const char *key)
{
    return strcmp(key, "thread") == 0;
}

int bl_job_set(bl_job *j, const char *k, const char *v, char *err, size_t errlen)
{
    int rc = 0;
    bool b = false;
    char range[96] = "";
    const size_t rn = sizeof range;
    if (harmless(k))
        return 0;
    if (refuse_bs_mix(k, v, err, errlen) != 0)
        return -1;
    if (strcmp(k, "name") == 0 && v)
        set_str(&j->name, v);
    else if (strcmp(k, "description") == 0 && v)
        set_str(&j->description, v);
    else if (strcmp(k, "filename") == 0 && v && *v) {
        if (strchr(v, ':')) {
            snprintf(err, errlen, "option 'filename': several files ('%s') are not supported", v);
            return -1;
        }
        set_str(&j->filename, v);
    } else if (strcmp(k, "directory") == 0 && v && *v)
        set_str(&j->directory, v);
    else if (strcmp(k, "rw") == 0 || strcmp(k, "readwrite") == 0)
        rc = set_rw(j, v);
    else if (strcmp(k, "rwmixread") == 0)
        rc = set_int(v, 0, 100, &j->rwmixread, range, rn);
    else if (strcmp(k, "rwmixwrite") == 0) {
        int w;
        if ((rc = set_int(v, 0, 100, &w, range, rn)) == 0)
            j->rwmixread = 100 - w;
    } else if (strcmp(k, "bs") == 0 || strcmp(k, "blocksize") == 0)
        rc = set_size(v, &j->bs, 1, BL_MAX_BS, "256 MiB", range, rn);
    else if (strcmp(k, "size") == 0)
        rc = set_size(v, &j->size, 1, BL_MAX_OFF, "2^63-1 bytes", range, rn);
    else if (strcmp(k, "offset") == 0)
        rc = set_size(v, &j->offset, 0, BL_MAX_OFF, "2^63-1 bytes", range, rn);
    else if (strcmp(k, "numjobs") == 0)
        rc = set_int(v, 1, 1024, &j->numjobs, range, rn);
    else if (strcmp(k, "iodepth") == 0)
        rc = set_int(v, 1, 256, &j->iodepth, range, rn);
    else if (strcmp(k, "service_time") == 0)
        rc = set_ns(v, &j->service_ns, range, rn);
    else if (strcmp(k, "iodepth_batch") == 0 || strcmp(k, "iodepth_batch_submit") == 0)
        rc = set_int(v, 0, 256, &j->iodepth_batch, range, rn);
    else if (strcmp(k, "userspace_reap") == 0)
        rc = set_bool(v, &j->userspace_reap);
    else if (strcmp(k, "loops") == 0)
        rc = set_int(v, 1, 1000000, &j->loops, range, rn);
    else if (strcmp(k, "runtime") == 0 || strcmp(k, "timeout") == 0)
        rc = set_time(v, &j->runtime_s, BL_MAX_TIME_S, "100 days", range, rn);
    else if (strcmp(k, "ramp_time") == 0)
        rc = set_time(v, &j->ramp_time_s, BL_MAX_TIME_S, "100 days", range, rn);
    else if (strcmp(k, "time_based") == 0)
        rc = set_bool(v, &j->time_based);
    else if (strcmp(k, "direct") == 0) {
        if ((rc = set_bool(v, &b)) == 0)
            j->direct = b;
    } else if (strcmp(k, "buffered") == 0) {
        if ((rc = set_bool(v, &b)) == 0)
            j->direct = !b;
    } else if (strcmp(k, "end_fsync") == 0)
        rc = set_bool(v, &j->end_fsync);
    else if (strcmp(k, "fsync") == 0)
        rc = set_int(v, 0, 1 << 30, &j->fsync_every, range, rn);
    else if (strcmp(k, "fdatasync") == 0)
        rc = set_int(v, 0, 1 << 30, &j->fdatasync_every, range, rn);
    else if (strcmp(k, "norandommap") == 0)
        rc = set_bool(v, &j->norandommap);
    else if (strcmp(k, "nrfiles") == 0 || strcmp(k, "nr_files") == 0)
        rc = set_int(v, 1, BL_MAX_FILES, &j->nrfiles, range, rn);
    else if (strcmp(k, "overwrite") == 0)
        rc = set_bool(v, &j->overwrite);
    else if (strcmp(k, "fallocate") == 0) {
        if (bl_falloc_parse(v, &j->fallocate) != 0) {
            snprintf(err, errlen,
                     "option 'fallocate': '%s' is not one of none, native, posix, keep, "
                     "truncate, 0, 1",
                     v ? v : "");
            return -1;
        }
    } else if (strcmp(k, "hipri") == 0)
        rc = set_bool(v, &j->hipri);
    else if (strcmp(k, "sqthread_poll") == 0)
        rc = set_bool(v, &j->sqthread_poll);
    else if (strcmp(k, "fixedbufs") == 0)
        rc = set_bool(v, &j->fixedbufs);
    else if (strcmp(k, "registerfiles") == 0)
        rc = set_bool(v, &j->registerfiles);
    else if (strcmp(k, "rate") == 0) {
        if (v && strchr(v, ',')) {
            snprintf(err, errlen,
                     "option 'rate': a rate for each direction ('%s') is not "
                     "supported by benchlog's runner",
                     v);
            return -1;
        }
        rc = set_size(v, &j->rate_bps, 1, 1ull << 40, "1 TiB/s", range, rn);
    } else if (strcmp(k, "rate_min") == 0 || strcmp(k, "ratemin") == 0) {
        if (v && strchr(v, ',')) {
            snprintf(err, errlen,
                     "option '%s': a rate for each direction ('%s') is not "
                     "supported by benchlog's runner",
                     k, v);
            return -1;
        }
        rc = set_size(v, &j->rate_min_bps, 1, 1ull << 40, "1 TiB/s", range, rn);
    } else if (strcmp(k, "rate_iops_min") == 0) {
        if (v && strchr(v, ',')) {
            snprintf(err, errlen,
                     "option 'rate_iops_min': a rate for each direction ('%s') "
                     "is not supported by benchlog's runner",
                     v);
            return -1;
        }
        rc = set_int(v, 1, 100000000, &j->rate_iops_min, range, rn);
    } else if (strcmp(k, "rate_iops") == 0) {
        if (v && strchr(v, ',')) {
            snprintf(err, errlen,
                     "option 'rate_iops': a rate for each direction ('%s') is not "
                     "supported by benchlog's runner",
                     v);
            return -1;
        }
        rc = set_int(v, 1, 100000000, &j->rate_iops, range, rn);
    } else if (strcmp(k, "random_distribution") == 0) {
        char why[160];
        if (bl_dist_parse(v, &j->dist, &j->dist_param, why, sizeof why) != 0) {
            snprintf(err, errlen, "option 'random_distribution': %s", why);
            return -1;
        }
    } else if (strcmp(k, "ss") == 0 || strcmp(k, "steadystate") == 0) {
        char why[160];
        if (bl_ss_parse(v, &j->ss, why, sizeof why) != 0) {
            snprintf(err, errlen, "option '%s': %s", k, why);
            return -1;
        }
    } else if (strcmp(k, "ss_dur") == 0 || strcmp(k, "steadystate_duration") == 0) {
        double t = 0;
        if ((rc = set_time(v, &t, 86400, "1 day", range, rn)) == 0)
            j->ss.dur_s = (int)t; /* whole seconds, as fio keeps it */
    } else if (strcmp(k, "ss_ramp") == 0 || strcmp(k, "steadystate_ramp_time") == 0)
        rc = set_time(v, &j->ss.ramp_s, BL_MAX_TIME_S, "100 days", range, rn);
    else if (strcmp(k, "randrepeat") == 0)
        rc = set_bool(v, &j->randrepeat);
    else if (strcmp(k, "randseed") == 0) {
        char *end = NULL;
        errno = 0;
        unsigned long long x = v && isdigit((unsigned char)*v) ? strtoull(v, &end, 0) : 0;
        if (!end || *end || errno) {
            snprintf(err, errlen, "option 'randseed': bad value '%s' (a number up to 2^64-1)",
                     v ? v : "");
            return -1;
        }
        j->randseed = x;
        j->randseed_set = true;
    } else if (strcmp(k, "verify") == 0) {
        if (bl_verify_parse(v, &j->verify) != 0) {
            snprintf(err, errlen,
                     "option 'verify': '%s' is not supported by benchlog's runner (crc32c, md5, "
                     "sha256, xxhash or 0)",
                     v ? v : "");
            return -1;
        }
    } else if (strcmp(k, "do_verify") == 0)
        rc = set_bool(v, &j->do_verify);
    else if (strcmp(k, "verify_fatal") == 0)
        rc = set_bool(v, &j->verify_fatal);
    else if (strcmp(k, "verify_only") == 0)
        rc = set_bool(v, &j->verify_only);
    else if (strcmp(k, "ioengine") == 0)
        return set_engine(j, v, err, errlen);
    else if (strcmp(k, "stonewall") == 0 || strcmp(k, "wait_for_previous") == 0)
        rc = set_bool(v, &j->stonewall);
    else if (strcmp(k, "new_group") == 0)
        rc = set_bool(v, &j->new_group);
    else if (strcmp(k, "group_reporting") == 0)
        rc = set_bool(v, &j->group_reporting);
    else if (strcmp(k, "write_bw_log") == 0)
        set_str(&j->bw_log, v && *v ? v : j->name ? j->name : "job");
    else if (strcmp(k, "write_iops_log") == 0)
        set_str(&j->iops_log, v && *v ? v : j->name ? j->name : "job");
    else if (strcmp(k, "write_lat_log") == 0)
        set_str(&j->lat_log, v && *v ? v : j->name ? j->name : "job");
    else if (strcmp(k, "write_hist_log") == 0)
        set_str(&j->hist_log, v && *v ? v : j->name ? j->name : "job");
    else if (strcmp(k, "log_hist_msec") == 0)
        rc = set_int(v, 0, 1 << 30, &j->log_hist_msec, range, rn);
    else if (strcmp(k, "log_hist_coarseness") == 0)
        rc = set_int(v, 0, 6, &j->log_hist_coarseness, range, rn);
    else if (strcmp(k, "log_avg_msec") == 0)
        rc = set_int(v, 0, 1 << 30, &j->log_avg_msec, range, rn);
    else {
        snprintf(err, errlen, "option '%s' is not supported by benchlog's runner", k);
        return -1;
    }
    if (rc == -2)
        snprintf(err, errlen, "option '%s': %s is out of range (%s)", k, v, range);
    else if (rc != 0)
        snprintf(err, errlen, "option '%s': bad value '%s'", k, v ? v : "");
    return rc ? -1 : 0;
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
    set_str(&j->name, name);
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
