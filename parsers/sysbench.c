/* sysbench fileio, 1.0 and 0.4/0.5, one record per direction that moved data.
 *   1.0:  File operations:  reads/s: 22165.59  writes/s: 14777.06  fsyncs/s: 1478.71
 *         Throughput:  read, MiB/s: 346.34  written, MiB/s: 230.89
 *         General statistics:  total time: 3.0014s ...  Latency (ms): min/avg/max/95th percentile
 *   0.4:  Operations performed:  5999 Read, 4001 Write, 12800 Other = 22800 Total
 *         Read 93.734Mb  Written 62.516Mb  Total transferred 156.25Mb  (10.235Mb/sec)
 *         Test execution summary: total time: 15.2656s ... per-request statistics: min/avg/max/
 *         approx.  95 percentile
 * The setup lines above (threads, "Block size 16KiB", "Extra file open flags: directio",
 * "Doing random r/w test") give bs, numjobs, direct and the test. sysbench's sizes are all
 * binary (Mb in 0.4 is 2^20). Each request moves one block, so bw = IOPS x bs; when the
 * printed bandwidth contradicts that beyond its rounding the direction is refused. The
 * latency figures are over all requests of the run, which the note says when more than one
 * kind of request ran. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MIB 1048576.0

typedef struct sb_setup {
    char *version;
    char *mode; /* "random r/w", "sequential read", ... */
    int64_t threads, bs, total_size;
    int direct;
} sb_setup;

typedef struct sb_result {
    long line;            /* 1-based line of the block's first figure */
    double rate[2];       /* 1.0: reads/s, writes/s */
    double mib_s[2];      /* 1.0: read, written MiB/s */
    double ops[2], other; /* 0.4: Read, Write, Other counts */
    double bytes[2];      /* 0.4: Read, Written sizes */
    double fsyncs_s;      /* 1.0 */
    double total_s;
    bl_lat lat;
    int old; /* 0.4/0.5 layout */
} sb_result;

static const char *after_colon(const char *s)
{
    const char *c = strchr(s, ':');
    return c ? c + 1 + strspn(c + 1, " \t") : NULL;
}

static int starts(const char *s, const char *word)
{
    s += strspn(s, " \t");
    return strncmp(s, word, strlen(word)) == 0;
}

/* "16KiB", "16Kb", "2Gb", "64MiB", "93.734Mb", "1024b": bytes (sysbench is binary). */
static int sb_size(const char *s, double *out, const char **end)
{
    const char *e;
    if (!bl_parse_number(s, 0, out, &e))
        return 0;
    static const char units[] = "KMGTPE";
    const char *u = *e ? strchr(units, *e) : NULL;
    if (u) {
        *out *= pow(1024, (double)(u - units + 1));
        e++;
        if (*e == 'i')
            e++;
    }
    if (*e != 'b' && *e != 'B')
        return 0;
    if (end)
        *end = e + 1;
    return 1;
}

static void read_setup(const bl_text *t, size_t from, size_t to, sb_setup *st)
{
    memset(st, 0, sizeof *st);
    st->threads = st->bs = st->total_size = -1;
    st->direct = BL_TRI_ABSENT;
    for (size_t i = from; i < to; i++) {
        const char *s = t->line[i] + strspn(t->line[i], " \t"), *v;
        double d;
        if (strncmp(s, "sysbench ", 9) == 0 && isdigit((unsigned char)s[9])) {
            free(st->version);
            st->version = bl_xstrndup(s + 9, strcspn(s + 9, ": "));
        } else if (starts(s, "Number of threads:") && (v = after_colon(s)))
            st->threads = atoll(v);
        else if (starts(s, "Block size ") && sb_size(s + 11, &d, NULL))
            st->bs = bl_count_or(d, -1);
        else if (strstr(s, " total file size") && sb_size(s, &d, NULL))
            st->total_size = bl_count_or(d, -1);
        else if (starts(s, "Extra file open flags:") && (v = after_colon(s)))
            st->direct = strstr(v, "direct") ? BL_TRUE : BL_FALSE;
        else if (starts(s, "Doing ") && (v = strstr(s, " test")) && v > s + 6) {
            free(st->mode);
            st->mode = bl_xstrndup(s + 6, (size_t)(v - s - 6));
        }
    }
}

/* Latency lines: "min: 0.00" under "Latency (ms):" (1.0), "min: 0.01ms" (0.4), and the
 * percentile line "95th percentile:" / "approx.  95 percentile:". */
static void latency_line(const char *s, bl_lat *l)
{
    s += strspn(s, " \t");
    const char *v = after_colon(s);
    double ns;
    if (!v || !bl_parse_duration_ns(v, 1e6, &ns, NULL))
        return;
    if (starts(s, "min:"))
        l->min = ns, l->present = true;
    else if (starts(s, "avg:"))
        l->mean = ns, l->present = true;
    else if (starts(s, "max:"))
        l->max = ns, l->present = true;
    else if (strstr(s, "percentile:")) {
        const char *p = s;
        while (*p && !isdigit((unsigned char)*p))
            p++;
        double pct;
        if (bl_parse_number(p, 0, &pct, NULL) && pct > 0 && pct <= 100)
            bl_lat_add_pct(l, pct, ns);
    }
}

static void stat_line(const char *s, sb_result *r)
{
    const char *v = after_colon(s);
    double d;
    if (starts(s, "reads/s:") && v)
        bl_parse_number(v, 0, &r->rate[0], NULL);
    else if (starts(s, "writes/s:") && v)
        bl_parse_number(v, 0, &r->rate[1], NULL);
    else if (starts(s, "fsyncs/s:") && v)
        bl_parse_number(v, 0, &r->fsyncs_s, NULL);
    else if (starts(s, "read, MiB/s:") && v)
        bl_parse_number(v, 0, &r->mib_s[0], NULL);
    else if (starts(s, "written, MiB/s:") && v)
        bl_parse_number(v, 0, &r->mib_s[1], NULL);
    else if (starts(s, "total time:") && v && bl_parse_number(v, 0, &d, NULL))
        r->total_s = d;
    else if ((starts(s, "Read ") || starts(s, "read ")) &&
             (strstr(s, "Written ") || strstr(s, "written "))) {
        const char *w = strstr(s, "Written ") ? strstr(s, "Written ") : strstr(s, "written ");
        s += strspn(s, " \t") + 5;
        if (sb_size(s, &d, NULL))
            r->bytes[0] = d;
        if (sb_size(w + 8, &d, NULL))
            r->bytes[1] = d;
    } else
        latency_line(s, &r->lat);
}

/* A count and its word ("5999 Read", "1500 reads"), any case, then the comma or end. */
static const char *count_word(const char *p, const char *word, double *v)
{
    char *e;
    *v = strtod(p, &e);
    if (e == p || *e != ' ')
        return NULL;
    size_t n = strlen(word);
    if (strncasecmp(e + 1, word, n) != 0)
        return NULL;
    e += 1 + n;
    if (*e == 's')
        e++;
    return *e == ',' ? e + 1 + strspn(e + 1, " ") : *e == ' ' || !*e ? e : NULL;
}

/* "Operations performed:  5999 Read, 4001 Write, 12800 Other = 22800 Total" (0.4), and the
 * lowercase "1500 reads, 1000 writes, 1280 Other" of some 0.4/0.5 builds */
static int old_ops(const char *s, sb_result *r)
{
    const char *v = after_colon(s);
    if (!starts(s, "Operations performed:") || !v)
        return 0;
    v = count_word(v, "read", &r->ops[0]);
    v = v ? count_word(v, "write", &r->ops[1]) : NULL;
    return v && count_word(v, "other", &r->other) != NULL;
}

static int block_start(const bl_text *t, size_t i, sb_result *r)
{
    memset(r, 0, sizeof *r);
    for (int d = 0; d < 2; d++)
        r->rate[d] = r->mib_s[d] = r->ops[d] = r->bytes[d] = NAN;
    r->fsyncs_s = r->total_s = r->other = NAN;
    r->lat.min = r->lat.max = r->lat.mean = r->lat.stdev = NAN;
    r->line = (long)i + 1;
    if (old_ops(t->line[i], r))
        return r->old = 1;
    return starts(t->line[i], "File operations:") && i + 1 < t->nlines &&
           starts(t->line[i + 1], "reads/s:");
}

static int sysbench_probe(const bl_text *t)
{
    sb_result r;
    for (size_t i = 0; i < t->nlines; i++) {
        /* both kinds of block start with "Operations ..." or "File ...": others are not
         * worth block_start's set-up */
        const char *s = t->line[i] + strspn(t->line[i], " \t");
        if ((*s == 'O' || *s == 'F') && block_start(t, i, &r))
            return 90;
    }
    return 0;
}

/* True when bw = IOPS x bs agrees with the printed MiB/s to its two decimals. */
static int mib_agrees(double iops, int64_t bs, double mib_s)
{
    if (bs <= 0 || isnan(mib_s))
        return 1;
    return fabs(iops * (double)bs / MIB - mib_s) <= 0.0051 + mib_s * 1e-6;
}

/* 0.4's "%.5g" sizes: the count of requests times bs within that rounding. */
static int bytes_agree(double ops, int64_t bs, double bytes)
{
    if (bs <= 0 || isnan(bytes))
        return 1;
    double want = ops * (double)bs;
    return fabs(want - bytes) <= fmax(want, bytes) * 1e-4 + 1;
}

static void set_test(bl_record *r, const sb_setup *st, int dir)
{
    const char *pattern = NULL;
    if (st->mode && strncmp(st->mode, "random", 6) == 0)
        pattern = "rand";
    else if (st->mode && strncmp(st->mode, "sequential", 10) == 0)
        pattern = "seq";
    char test[32];
    snprintf(test, sizeof test, "%s-%s", pattern ? pattern : "seq", dir ? "write" : "read");
    if (pattern && st->mode && strstr(st->mode, "rewrite"))
        snprintf(test, sizeof test, "seq-rewrite");
    bl_record_set_str(&r->test, test);
    bl_record_set_str(&r->pattern, pattern);
    if (st->mode)
        bl_record_set_label(r, "sysbench_mode", st->mode);
}

static void emit(bl_parse_out *out, const sb_setup *st, const sb_result *res, int64_t run)
{
    int dirs = 0;
    for (int d = 0; d < 2; d++)
        dirs += res->old ? res->ops[d] > 0 : res->rate[d] > 0;
    for (int d = 0; d < 2; d++) {
        double iops = res->old ? res->ops[d] / res->total_s : res->rate[d];
        if (!(iops > 0) && !(res->old && res->ops[d] > 0))
            continue;
        if (res->old ? !bytes_agree(res->ops[d], st->bs, res->bytes[d])
                     : !mib_agrees(iops, st->bs, res->mib_s[d])) {
            bl_out_error(out, res->line, "sysbench %s figures disagree with the block size",
                         d ? "write" : "read");
            continue;
        }
        bl_record *r = bl_out_record(out, res->line);
        r->run = run;
        bl_record_set_str(&r->tool, "sysbench");
        bl_record_set_str(&r->tool_version, st->version);
        bl_record_set_str(&r->op, d ? "write" : "read");
        set_test(r, st, d);
        r->bs = st->bs;
        r->numjobs = st->threads;
        r->direct = st->direct;
        r->size_bytes = st->total_size;
        r->runtime_s = res->total_s;
        r->iops = iops;
        if (st->bs > 0)
            r->bw_bytes_s = iops * (double)st->bs;
        else if (res->old && res->total_s > 0)
            r->bw_bytes_s = res->bytes[d] / res->total_s;
        else
            r->bw_bytes_s = res->mib_s[d] * MIB;
        if (res->old) {
            r->io_bytes = st->bs > 0 ? bl_count_or(res->ops[d] * (double)st->bs, -1)
                                     : bl_count_or(res->bytes[d], -1);
            r->iops = res->total_s > 0 ? res->ops[d] / res->total_s : NAN;
        }
        if (res->lat.present) {
            r->lat_ns = res->lat;
            r->lat_ns.pct = NULL;
            r->lat_ns.n_pct = 0;
            for (size_t k = 0; k < res->lat.n_pct; k++)
                bl_lat_add_pct(&r->lat_ns, res->lat.pct[k].pct, res->lat.pct[k].value);
            if (!res->old && (dirs > 1 || res->fsyncs_s > 0))
                bl_record_set_str(&r->note, "sysbench: latency is over all requests of the "
                                            "run (reads, writes and fsyncs together)");
            else if (res->old && dirs > 1)
                bl_record_set_str(&r->note, "sysbench: latency is over all requests of the "
                                            "run (reads and writes together)");
        }
        if (!res->old && res->fsyncs_s > 0) {
            char v[32];
            snprintf(v, sizeof v, "%.2f", res->fsyncs_s);
            bl_record_set_label(r, "fsyncs_s", v);
        }
    }
}

static void sysbench_parse(const bl_text *t, bl_parse_out *out)
{
    int64_t run = 0;
    size_t setup_from = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        sb_result res;
        if (!block_start(t, i, &res))
            continue;
        sb_setup st;
        read_setup(t, setup_from, i, &st);
        size_t k = i + 1;
        for (; k < t->nlines && !starts(t->line[k], "Threads fairness:"); k++) {
            sb_result next;
            if (block_start(t, k, &next))
                break;
            stat_line(t->line[k], &res);
        }
        run++;
        if (isnan(res.total_s) || (res.old && !(res.total_s > 0)))
            bl_out_error(out, res.line, "sysbench fileio block without its total time");
        else
            emit(out, &st, &res, run);
        free(res.lat.pct);
        free(st.version);
        free(st.mode);
        setup_from = k;
        i = k - 1;
    }
}

/* block_start's two kinds of block: old_ops' lead and the newer one's. */
static const char *const sysbench_needles[] = {"Operations performed:", "File operations:", NULL};

const bl_format bl_format_sysbench = {
    .name = "sysbench",
    .summary = "sysbench fileio results: 1.0 and 0.4/0.5 layouts, one record per direction",
    .family = "sysbench",
    .rank = 1,
    .probe = sysbench_probe,
    .parse = sysbench_parse,
    .needles = sysbench_needles,
};
