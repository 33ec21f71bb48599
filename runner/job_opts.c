/* The job file's options as one table, as fio's options.c holds its own: each key's type,
 * bounds, field (or parser) and help. bl_job_set reads a key through it; the help lists it.
 * Before, a 200-line strcmp chain held the same facts in code, with the "a rate for each
 * direction" refusal pasted four times. */
#include "job.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What the parsers return: the value is set, not a value of that kind, out of the option's
 * bounds, or refused with the parser's own message in err. */
enum { OK = 0, BAD = -1, RANGE = -2, SAID = -3 };

static int parse_bool(const char *v, bool *out)
{
    if (!v || !*v || strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) {
        *out = true;
        return OK;
    }
    if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) {
        *out = false;
        return OK;
    }
    return BAD;
}

static int parse_int(const bl_job_opt *o, const char *v, int *out)
{
    if (!v)
        return BAD;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end)
        return BAD;
    if (errno || x < (long)o->lo || x > (long)o->hi)
        return RANGE;
    *out = (int)x;
    return OK;
}

static int parse_size(const bl_job_opt *o, const char *v, uint64_t *out)
{
    uint64_t x;
    if (!v || !isdigit((unsigned char)*v))
        return BAD;
    if (!bl_fio_size(v, &x) || x < o->lo || x > o->hi) {
        char *end;
        errno = 0;
        (void)strtod(v, &end);
        if (!errno && end != v && strlen(end) > 3)
            return BAD; /* a unit we do not know: a syntax error, not a range one */
        return RANGE;
    }
    *out = x;
    return OK;
}

static int parse_time(const bl_job_opt *o, const char *v, double *out)
{
    double t, max = (double)o->hi;
    if (!v || !bl_fio_time_s(v, &t)) {
        char *end;
        errno = 0;
        double x = v ? strtod(v, &end) : 0;
        if (v && isdigit((unsigned char)*v) && end != v && (errno == ERANGE || x > max))
            return RANGE;
        return BAD;
    }
    if (t > max)
        return RANGE;
    *out = t;
    return OK;
}

static void set_str(char **field, const char *v)
{
    free(*field);
    *field = bl_xstrdup(v ? v : "");
}

#define FIELD(j, o, type) ((type *)((char *)(j) + (o)->off))

/* ---- the options with parsers of their own ---- */

static int fn_filename(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                       size_t errlen)
{
    (void)o, (void)k;
    if (!v || !*v)
        return BAD;
    if (strchr(v, ':')) {
        snprintf(err, errlen, "option 'filename': several files ('%s') are not supported", v);
        return SAID;
    }
    set_str(&j->filename, v);
    return OK;
}

static int fn_rw(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                 size_t errlen)
{
    (void)o, (void)k, (void)err, (void)errlen;
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
            return OK;
        }
    return BAD;
}

static int fn_rwmixwrite(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                         size_t errlen)
{
    (void)k, (void)err, (void)errlen;
    int w, rc = parse_int(o, v, &w);
    if (rc == OK)
        j->rwmixread = 100 - w;
    return rc;
}

static int fn_direct(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                     size_t errlen)
{
    (void)o, (void)err, (void)errlen;
    bool b;
    int rc = parse_bool(v, &b);
    if (rc == OK)
        j->direct = strcmp(k, "buffered") == 0 ? !b : b;
    return rc;
}

/* A time of up to hi seconds in ns (the null engine's simulated service time). */
static int fn_service_time(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                           size_t errlen)
{
    (void)k, (void)err, (void)errlen;
    double t = 0;
    int rc = parse_time(o, v, &t);
    if (rc == OK)
        j->service_ns = (uint64_t)(t * 1e9 + 0.5);
    return rc;
}

static int fn_ss_dur(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                     size_t errlen)
{
    (void)k, (void)err, (void)errlen;
    double t = 0;
    int rc = parse_time(o, v, &t);
    if (rc == OK)
        j->ss.dur_s = (int)t; /* whole seconds, as fio keeps it */
    return rc;
}

static int fn_fallocate(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                        size_t errlen)
{
    (void)o, (void)k;
    if (bl_falloc_parse(v, &j->fallocate) == 0)
        return OK;
    snprintf(err, errlen,
             "option 'fallocate': '%s' is not one of none, native, posix, keep, truncate, 0, 1",
             v ? v : "");
    return SAID;
}

static int fn_distribution(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                           size_t errlen)
{
    (void)o, (void)k;
    char why[160];
    if (bl_dist_parse(v, &j->dist, &j->dist_param, why, sizeof why) == 0)
        return OK;
    snprintf(err, errlen, "option 'random_distribution': %s", why);
    return SAID;
}

static int fn_ss(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                 size_t errlen)
{
    (void)o;
    char why[160];
    if (bl_ss_parse(v, &j->ss, why, sizeof why) == 0)
        return OK;
    snprintf(err, errlen, "option '%s': %s", k, why);
    return SAID;
}

static int fn_randseed(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                       size_t errlen)
{
    (void)o, (void)k;
    char *end = NULL;
    errno = 0;
    unsigned long long x = v && isdigit((unsigned char)*v) ? strtoull(v, &end, 0) : 0;
    if (!end || *end || errno) {
        snprintf(err, errlen, "option 'randseed': bad value '%s' (a number up to 2^64-1)",
                 v ? v : "");
        return SAID;
    }
    j->randseed = x;
    j->randseed_set = true;
    return OK;
}

static int fn_verify(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                     size_t errlen)
{
    (void)o, (void)k;
    if (bl_verify_parse(v, &j->verify) == 0)
        return OK;
    snprintf(err, errlen,
             "option 'verify': '%s' is not supported by benchlog's runner (crc32c, md5, sha256, "
             "xxhash or 0)",
             v ? v : "");
    return SAID;
}

/* Any name or alias of the engine table; the message lists them. */
static int fn_engine(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                     size_t errlen)
{
    (void)o, (void)k;
    const bl_engine_ops *e = bl_engine_find(v);
    if (e) {
        j->engine = e;
        return OK;
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
    return SAID;
}

/* ---- the table ---- */

#define OFF(f) offsetof(bl_job, f)
#define B(n, a, f, h)                                                                              \
    {                                                                                              \
        n, {a, NULL}, BL_JO_BOOL, OFF(f), 0, 0, NULL, false, NULL, NULL, h, NULL                   \
    }
#define I(n, a, f, lo, hi, h)                                                                      \
    {                                                                                              \
        n, {a, NULL}, BL_JO_INT, OFF(f), lo, hi, NULL, false, NULL, NULL, h, NULL                  \
    }
#define SZ(n, a, f, lo, hi, ht, h)                                                                 \
    {                                                                                              \
        n, {a, NULL}, BL_JO_SIZE, OFF(f), lo, hi, ht, false, NULL, NULL, h, NULL                   \
    }
#define T(n, a, f, hi, ht, h)                                                                      \
    {                                                                                              \
        n, {a, NULL}, BL_JO_TIME, OFF(f), 0, hi, ht, false, NULL, NULL, h, NULL                    \
    }
#define S(n, f, min, h)                                                                            \
    {                                                                                              \
        n, {NULL, NULL}, BL_JO_STR, OFF(f), min, 0, NULL, false, NULL, NULL, h, NULL               \
    }
#define LOG(n, f, h)                                                                               \
    {                                                                                              \
        n, {NULL, NULL}, BL_JO_LOG, OFF(f), 0, 0, NULL, false, NULL, NULL, h, NULL                 \
    }
#define FN(n, a, fn, lo, hi, ht, ty, vals, h)                                                      \
    {                                                                                              \
        n, {a, NULL}, BL_JO_FN, 0, lo, hi, ht, false, fn, vals, h, ty                              \
    }
#define MAX_OFF_TEXT "2^63-1 bytes"
#define DAYS100 8640000u

static const bl_job_opt table[] = {
    S("name", name, 0, "the job's name (the section header sets it)"),
    S("description", description, 0, "free text, kept as the record's description"),
    FN("filename", NULL, fn_filename, 0, 0, NULL, "text", NULL,
       "the file or device to run on (one; fio's a:b lists are refused)"),
    S("directory", directory, 1, "the folder for the job's scratch files"),
    FN("rw", "readwrite", fn_rw, 0, 0, NULL, "choice",
       "read write randread randwrite rw readwrite randrw trim randtrim",
       "direction and pattern (trimwrite is refused)"),
    I("rwmixread", NULL, rwmixread, 0, 100, "percent of reads in a mixed job"),
    FN("rwmixwrite", NULL, fn_rwmixwrite, 0, 100, NULL, "int", NULL,
       "percent of writes in a mixed job"),
    SZ("bs", "blocksize", bs, 1, BL_MAX_BS, "256 MiB",
       "block size (one size: ranges, lists, bsrange and bssplit are refused)"),
    SZ("size", NULL, size, 1, BL_MAX_OFF, MAX_OFF_TEXT, "bytes of the file a pass covers"),
    SZ("offset", NULL, offset, 0, BL_MAX_OFF, MAX_OFF_TEXT, "where the region starts"),
    I("numjobs", NULL, numjobs, 1, 1024, "threads (clones) running the job"),
    I("iodepth", NULL, iodepth, 1, 256, "I/Os in flight per thread"),
    FN("service_time", NULL, fn_service_time, 0, 10, "10 s", "time", NULL,
       "null engine only: each I/O completes this long after its issue"),
    I("iodepth_batch", "iodepth_batch_submit", iodepth_batch, 0, 256,
      "I/Os per io_submit call (libaio)"),
    B("userspace_reap", NULL, userspace_reap, "libaio: read completions from the kernel's ring"),
    I("loops", NULL, loops, 1, 1000000, "passes over the region"),
    T("runtime", "timeout", runtime_s, DAYS100, "100 days", "length of the job"),
    T("ramp_time", NULL, ramp_time_s, DAYS100, "100 days", "run this long before measuring"),
    B("time_based", NULL, time_based, "keep going until runtime even after a full pass"),
    FN("direct", NULL, fn_direct, 0, 0, NULL, "bool", NULL, "O_DIRECT (bypass the page cache)"),
    FN("buffered", NULL, fn_direct, 0, 0, NULL, "bool", NULL, "the opposite of direct"),
    B("end_fsync", NULL, end_fsync, "fsync the file when the job ends (counted in its runtime)"),
    I("fsync", NULL, fsync_every, 0, 1 << 30, "fsync after every N writes (0 = never)"),
    I("fdatasync", NULL, fdatasync_every, 0, 1 << 30, "fdatasync after every N writes"),
    B("norandommap", NULL, norandommap, "plain uniform random offsets, no cover per pass"),
    I("nrfiles", "nr_files", nrfiles, 1, BL_MAX_FILES, "files of the job, size split evenly"),
    B("overwrite", NULL, overwrite, "write the file over before the job (layout)"),
    FN("fallocate", NULL, fn_fallocate, 0, 0, NULL, "choice", "none native posix keep truncate 0 1",
       "how a new file's space is reserved"),
    B("hipri", NULL, hipri, "io_uring: polled completions"),
    B("sqthread_poll", NULL, sqthread_poll, "io_uring: a kernel submission thread"),
    B("fixedbufs", NULL, fixedbufs, "io_uring: registered buffers (default on)"),
    B("registerfiles", NULL, registerfiles, "io_uring: registered file (default on)"),
    {"rate",
     {NULL, NULL},
     BL_JO_SIZE,
     OFF(rate_bps),
     1,
     1ull << 40,
     "1 TiB/s",
     true,
     NULL,
     NULL,
     "bytes/s per thread, linear (one value: not one per direction)",
     NULL},
    {"rate_min",
     {"ratemin", NULL},
     BL_JO_SIZE,
     OFF(rate_min_bps),
     1,
     1ull << 40,
     "1 TiB/s",
     true,
     NULL,
     NULL,
     "a thread below this many bytes/s for a second fails the job",
     NULL},
    {"rate_iops_min",
     {NULL, NULL},
     BL_JO_INT,
     OFF(rate_iops_min),
     1,
     100000000,
     NULL,
     true,
     NULL,
     NULL,
     "a thread below this IOPS for a second fails the job",
     NULL},
    {"rate_iops",
     {NULL, NULL},
     BL_JO_INT,
     OFF(rate_iops),
     1,
     100000000,
     NULL,
     true,
     NULL,
     NULL,
     "IOPS per thread, linear",
     NULL},
    FN("random_distribution", NULL, fn_distribution, 0, 0, NULL, "choice",
       "random zipf:THETA pareto:H normal[:DEV]", "how random offsets are drawn"),
    FN("ss", "steadystate", fn_ss, 0, 0, NULL, "choice", "iops|bw|iops_slope|bw_slope:LIMIT[%]",
       "stop when steady (fio's criteria)"),
    FN("ss_dur", "steadystate_duration", fn_ss_dur, 0, 86400, "1 day", "time", NULL,
       "the steady state window (whole seconds)"),
    T("ss_ramp", "steadystate_ramp_time", ss.ramp_s, DAYS100, "100 days",
      "time before the steady state check starts"),
    B("randrepeat", NULL, randrepeat, "the same offsets and data on every run (default on)"),
    FN("randseed", NULL, fn_randseed, 0, 0, NULL, "int", "0 to 2^64-1", "seed of offsets and data"),
    FN("verify", NULL, fn_verify, 0, 0, NULL, "choice", "crc32c crc32c-intel md5 sha256 xxhash 0",
       "a digest in every written block, read back after the writes"),
    B("do_verify", NULL, do_verify, "read back after the writes (default on)"),
    B("verify_fatal", NULL, verify_fatal, "stop at the first bad block"),
    B("verify_only", NULL, verify_only, "only read back what an earlier run wrote"),
    FN("ioengine", NULL, fn_engine, 0, 0, NULL, "choice", NULL, "the engine"),
    B("stonewall", "wait_for_previous", stonewall, "wait for the jobs before to finish"),
    B("new_group", NULL, new_group, "start a new reporting group"),
    B("group_reporting", NULL, group_reporting, "one record for the reporting group"),
    LOG("write_bw_log", bw_log, "fio's bandwidth log, prefix (default the job's name)"),
    LOG("write_iops_log", iops_log, "fio's IOPS log"),
    LOG("write_lat_log", lat_log, "fio's latency logs (lat, clat, slat)"),
    LOG("write_hist_log", hist_log, "fio's latency histogram log (needs log_hist_msec)"),
    I("log_hist_msec", NULL, log_hist_msec, 0, 1 << 30, "a histogram line per this many ms"),
    I("log_hist_coarseness", NULL, log_hist_coarseness, 0, 6, "2^N fio buckets a number"),
    I("log_avg_msec", NULL, log_avg_msec, 0, 1 << 30, "average log entries over this many ms"),
    {"thread",
     {NULL, NULL},
     BL_JO_ACCEPT,
     0,
     0,
     0,
     NULL,
     false,
     NULL,
     NULL,
     "accepted: benchlog's clones are always threads",
     NULL},
};

#define N_OPTS (sizeof table / sizeof table[0])

size_t bl_job_opt_count(void)
{
    return N_OPTS;
}

const bl_job_opt *bl_job_opt_at(size_t i)
{
    return i < N_OPTS ? &table[i] : NULL;
}

const bl_job_opt *bl_job_opt_find(const char *key)
{
    for (size_t i = 0; key && i < N_OPTS; i++) {
        const bl_job_opt *o = &table[i];
        if (strcmp(o->name, key) == 0 || (o->alias[0] && strcmp(o->alias[0], key) == 0) ||
            (o->alias[1] && strcmp(o->alias[1], key) == 0))
            return o;
    }
    return NULL;
}

void bl_job_opt_bounds(const bl_job_opt *o, char *buf, size_t n)
{
    bool numeric = o->type == BL_JO_INT || o->type == BL_JO_SIZE || o->type == BL_JO_TIME ||
                   (o->type == BL_JO_FN && o->hi);
    if (!numeric) {
        snprintf(buf, n, "%s", "");
        return;
    }
    if (o->hi_text)
        snprintf(buf, n, "%llu to %s", (unsigned long long)o->lo, o->hi_text);
    else
        snprintf(buf, n, "%llu to %llu", (unsigned long long)o->lo, (unsigned long long)o->hi);
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

static int apply(bl_job *j, const bl_job_opt *o, const char *k, const char *v, char *err,
                 size_t errlen)
{
    switch (o->type) {
    case BL_JO_BOOL:
        return parse_bool(v, FIELD(j, o, bool));
    case BL_JO_INT:
        return parse_int(o, v, FIELD(j, o, int));
    case BL_JO_SIZE:
        return parse_size(o, v, FIELD(j, o, uint64_t));
    case BL_JO_TIME:
        return parse_time(o, v, FIELD(j, o, double));
    case BL_JO_STR:
        if (!v || strlen(v) < o->lo)
            return BAD;
        set_str(FIELD(j, o, char *), v);
        return OK;
    case BL_JO_LOG:
        set_str(FIELD(j, o, char *), v && *v ? v : j->name ? j->name : "job");
        return OK;
    case BL_JO_ACCEPT:
        return OK;
    case BL_JO_FN:
        return o->parse(j, o, k, v, err, errlen);
    }
    return BAD;
}

int bl_job_set(bl_job *j, const char *k, const char *v, char *err, size_t errlen)
{
    if (refuse_bs_mix(k, v, err, errlen) != 0)
        return -1;
    const bl_job_opt *o = bl_job_opt_find(k);
    if (!o) {
        snprintf(err, errlen, "option '%s' is not supported by benchlog's runner", k);
        return -1;
    }
    if (o->one_value && v && strchr(v, ',')) {
        snprintf(err, errlen,
                 "option '%s': a rate for each direction ('%s') is not supported by benchlog's "
                 "runner",
                 k, v);
        return -1;
    }
    int rc = apply(j, o, k, v, err, errlen);
    if (rc == RANGE) {
        char range[96];
        bl_job_opt_bounds(o, range, sizeof range);
        snprintf(err, errlen, "option '%s': %s is out of range (%s)", k, v, range);
    } else if (rc == BAD)
        snprintf(err, errlen, "option '%s': bad value '%s'", k, v ? v : "");
    return rc == OK ? 0 : -1;
}

/* ioengine's values come from the engine table. */
static void engines_line(FILE *f)
{
    fprintf(f, "  %-36s %-7s", "", "");
    for (size_t i = 0; i < bl_engine_count(); i++) {
        const bl_engine_ops *x = bl_engine_at(i);
        fprintf(f, " %s", x->name);
        for (const char *const *a = x->aliases; a && *a; a++)
            fprintf(f, " %s", *a);
    }
    fputc('\n', f);
}

static const char *type_name(const bl_job_opt *o)
{
    static const char *names[] = {"bool", "int", "size", "time", "text", "prefix", "-", ""};
    if (o->type != BL_JO_FN)
        return names[o->type];
    return o->fn_type;
}

void bl_job_opts_help(FILE *f)
{
    fprintf(f, "Job file options (fio names; anything else is refused with its line):\n\n");
    for (size_t i = 0; i < N_OPTS; i++) {
        const bl_job_opt *o = &table[i];
        char name[64], bounds[96];
        snprintf(name, sizeof name, "%s%s%s%s", o->name, o->alias[0] ? " (" : "",
                 o->alias[0] ? o->alias[0] : "", o->alias[0] ? ")" : "");
        bl_job_opt_bounds(o, bounds, sizeof bounds);
        fprintf(f, "  %-36s %-7s %s\n", name, type_name(o), o->help);
        if (*bounds || o->values)
            fprintf(f, "  %-36s %-7s %s%s%s\n", "", "", *bounds ? bounds : "",
                    *bounds && o->values ? "; " : "", o->values ? o->values : "");
        if (o->parse == fn_engine)
            engines_line(f);
    }
    fprintf(f, "\nSizes take fio's suffixes (k m g t p = 1024^n, KiB MiB = 1000^n), times "
               "s ms us m h d.\nRefused: bsrange, blocksize_range, bssplit, bs lists and ranges "
               "(a mix of block sizes).\n");
}
