/* DiskSpd's text report (ResultParser.cpp), one timespan at a time:
 *   Command Line: diskspd.exe -c1G -d10 -r -w30 -t2 -o8 -b4K -Sh -L testfile.dat
 *   ... block size: 4KiB / using random I/O / number of outstanding I/O operations ...
 *   actual test time:	10.00s
 *   Read IO
 *   thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  AvgLat  | LatStdDev | file
 *   total:         496885760 |       121310 |      47.39 |   12131.00 |    0.404 |     0.318
 *     %-ile |  Read (ms) | Write (ms) | Total (ms)      (with -L)
 * One record per direction that moved data, from the "total:" row of the Read IO and Write IO
 * tables (the columns named by the header, which -L and -D change); percentiles from the
 * latency table's Read/Write columns. With two or more threads, one record per thread row
 * too (label scope "thread N", like fio's scope "group total": comparisons keep scopes apart),
 * numjobs 1, label target; the latency table is over all threads, so a thread has no
 * percentiles. bw = I/O per s x bytes per I/O, which must agree with
 * the printed MiB/s; bs is the profile's block size when every I/O had that size. The
 * System information's "start time: 2026/12/04 17:00:00 UTC" is label date (the `when`). */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB 1048576.0
#define DS_MAXCOL 12

typedef struct ds_setup {
    char *command;
    char *date; /* "start time: 2026/12/04 17:00:00 UTC" (2.0.21a on; empty in its own tests) */
    int64_t bs, qd, threads;
    const char *pattern;
    int direct;
    double seconds;
} ds_setup;

static const char *trim(const char *s)
{
    return s + strspn(s, " \t");
}

static int starts(const char *s, const char *w)
{
    return strncmp(trim(s), w, strlen(w)) == 0;
}

/* "4KiB", "4096", "1MiB": bytes. */
static int64_t ds_size(const char *s)
{
    double v;
    const char *e;
    if (!bl_parse_number(s, 0, &v, &e))
        return -1;
    static const char units[] = "KMGT";
    const char *u = *e ? strchr(units, *e) : NULL;
    if (u)
        v *= pow(1024, (double)(u - units + 1));
    return bl_count_or(v, -1);
}

static void read_setup(const bl_text *t, size_t from, size_t to, ds_setup *st)
{
    memset(st, 0, sizeof *st);
    st->bs = st->qd = st->threads = -1;
    st->direct = BL_TRI_ABSENT;
    st->seconds = NAN;
    for (size_t i = from; i < to; i++) {
        const char *s = trim(t->line[i]), *v;
        if (starts(s, "Command Line: ")) {
            free(st->command);
            st->command = bl_xstrdup(s + 14);
        } else if (starts(s, "start time: ") && *trim(s + 12)) {
            free(st->date);
            st->date = bl_xstrdup(trim(s + 12));
        } else if (starts(s, "block size: "))
            st->bs = ds_size(s + 12);
        else if (starts(s, "using random I/O"))
            st->pattern = "rand";
        else if (starts(s, "using sequential I/O") || starts(s, "using interlocked sequential"))
            st->pattern = "seq";
        else if (starts(s, "number of outstanding I/O operations") && (v = strchr(s, ':')))
            st->qd = atoll(v + 1);
        else if (starts(s, "software cache disabled"))
            st->direct = BL_TRUE;
        else if (starts(s, "using software cache"))
            st->direct = BL_FALSE;
        else if (starts(s, "thread count:") && (v = strchr(s, ':')))
            st->threads = atoll(v + 1);
        else if (starts(s, "actual test time:") && (v = strchr(s, ':')))
            bl_parse_number(trim(v + 1), 0, &st->seconds, NULL);
    }
}

/* The header's column names, "bytes", "I/Os", "MiB/s", "I/O per s", "AvgLat", ... */
static size_t header_columns(const char *s, char cols[DS_MAXCOL][16])
{
    if (!starts(s, "thread |") || !strstr(s, "I/Os"))
        return 0;
    size_t n = 0;
    for (const char *p = strchr(s, '|'); p && n < DS_MAXCOL; p = strchr(p + 1, '|')) {
        const char *b = trim(p + 1);
        size_t len = strcspn(b, "|");
        while (len && b[len - 1] == ' ')
            len--;
        snprintf(cols[n++], 16, "%.*s", (int)len, b);
    }
    return n;
}

typedef struct ds_total {
    long line;
    double bytes, ios, mib_s, iops, avg_ms, sd_ms;
    char file[256]; /* thread rows: the target, "testfile.dat (1GiB)" */
} ds_total;

/* Cells from p on, in the header's order (bytes first); the file cell into r->file. */
static int row_cells(const char *p, char cols[DS_MAXCOL][16], size_t ncol, ds_total *r)
{
    r->bytes = r->ios = r->mib_s = r->iops = r->avg_ms = r->sd_ms = NAN;
    r->file[0] = '\0';
    for (size_t c = 0; c < ncol && p; c++) {
        if (strcmp(cols[c], "file") == 0) {
            const char *f = trim(p);
            size_t len = strcspn(f, "|");
            while (len && (f[len - 1] == ' ' || f[len - 1] == '\t'))
                len--;
            snprintf(r->file, sizeof r->file, "%.*s", (int)len, f);
        }
        double v;
        if (!bl_parse_number(trim(p), 0, &v, NULL))
            v = NAN;
        if (strcmp(cols[c], "bytes") == 0)
            r->bytes = v;
        else if (strcmp(cols[c], "I/Os") == 0)
            r->ios = v;
        else if (strcmp(cols[c], "MiB/s") == 0)
            r->mib_s = v;
        else if (strcmp(cols[c], "I/O per s") == 0)
            r->iops = v;
        else if (strcmp(cols[c], "AvgLat") == 0)
            r->avg_ms = v;
        else if (strcmp(cols[c], "LatStdDev") == 0)
            r->sd_ms = v;
        p = strchr(p, '|');
        if (p)
            p++;
    }
    return !isnan(r->bytes) && !isnan(r->ios) && !isnan(r->iops);
}

/* The "total:" row under a header. */
static int total_row(const char *s, char cols[DS_MAXCOL][16], size_t ncol, ds_total *r)
{
    return starts(s, "total:") && row_cells(trim(s) + 6, cols, ncol, r);
}

/* A thread row "     0 |       249856000 | ... | testfile.dat (1GiB)": its number in *thread. */
static int thread_row(const char *s, char cols[DS_MAXCOL][16], size_t ncol, ds_total *r,
                      long *thread)
{
    s = trim(s);
    char *e;
    long n = strtol(s, &e, 10);
    if (e == s || n < 0 || *trim(e) != '|')
        return 0;
    *thread = n;
    return row_cells(trim(e) + 1, cols, ncol, r);
}

/* The total row of the table titled `title` ("Read IO") between lines from and to; *head
 * gets the index of the table's header line (its thread rows follow it). */
static int section_total(const bl_text *t, size_t from, size_t to, const char *title, ds_total *r,
                         size_t *head)
{
    for (size_t i = from; i + 1 < to; i++) {
        if (strcmp(trim(t->line[i]), title) != 0)
            continue;
        char cols[DS_MAXCOL][16];
        size_t n = header_columns(t->line[i + 1], cols);
        for (size_t k = i + 2; n && k < to && k < i + 1100; k++)
            if (total_row(t->line[k], cols, n, r)) {
                r->line = (long)k + 1;
                *head = i + 1;
                return 1;
            }
        return 0;
    }
    return 0;
}

/* "  %-ile |  Read (ms) | Write (ms) | Total (ms)" rows: percentiles of direction d. */
static void percentiles(const bl_text *t, size_t from, size_t to, int d, bl_lat *l)
{
    static const struct {
        const char *name;
        double pct;
    } rows[] = {{"25th", 25},           {"50th", 50},          {"75th", 75},
                {"90th", 90},           {"95th", 95},          {"99th", 99},
                {"3-nines", 99.9},      {"4-nines", 99.99},    {"5-nines", 99.999},
                {"6-nines", 99.9999},   {"7-nines", 99.99999}, {"8-nines", 99.999999},
                {"9-nines", 99.9999999}};
    size_t i = from;
    while (i < to && !starts(t->line[i], "%-ile |"))
        i++;
    for (i++; i < to && i < from + 2000; i++) {
        const char *s = trim(t->line[i]);
        const char *bar = strchr(s, '|');
        if (!bar)
            continue;
        const char *cell = bar;
        for (int k = 1; k < d && cell; k++)
            cell = strchr(cell + 1, '|');
        double ms;
        if (!cell || !bl_parse_number(trim(cell + 1), 0, &ms, NULL))
            continue;               /* "N/A" */
        ms = round(ms * 1e6) / 1e6; /* DiskSpd prints whole microseconds */
        if (strncmp(s, "min ", 4) == 0)
            l->min = round(ms * 1e6), l->present = true;
        else if (strncmp(s, "max ", 4) == 0) {
            l->max = round(ms * 1e6), l->present = true;
            break;
        }
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
            if (strncmp(s, rows[r].name, strlen(rows[r].name)) == 0 &&
                s[strlen(rows[r].name)] == ' ')
                bl_lat_add_pct(l, rows[r].pct, round(ms * 1e6));
    }
}

static int diskspd_probe(const bl_text *t)
{
    char cols[DS_MAXCOL][16];
    for (size_t i = 0; i + 1 < t->nlines; i++)
        if (strcmp(trim(t->line[i]), "Total IO") == 0 && header_columns(t->line[i + 1], cols))
            return 90;
    return 0;
}

/* bw = I/O per s x bytes per I/O must be the printed MiB/s (DiskSpd prints 2 decimals). */
static int bw_agrees(const ds_total *x)
{
    double bw = x->iops * (x->bytes / x->ios);
    return isnan(x->mib_s) || fabs(bw / MIB - x->mib_s) <= 0.0051 + x->mib_s * 1e-6;
}

/* One record of a total or thread row of direction d (0 read, 1 write, 2 both: Total IO). */
static bl_record *row_record(bl_parse_out *out, const ds_total *x, int d, const ds_setup *st,
                             int64_t run)
{
    bl_record *r = bl_out_record(out, x->line);
    r->run = run;
    bl_record_set_str(&r->tool, "diskspd");
    const char *op = d == 2 ? "mixed" : d ? "write" : "read";
    bl_record_set_str(&r->op, op);
    bl_record_set_str(&r->pattern, st->pattern);
    char test[16];
    snprintf(test, sizeof test, "%s-%s", st->pattern ? st->pattern : "seq", op);
    if (st->pattern)
        bl_record_set_str(&r->test, test);
    r->bs = st->bs > 0 && x->bytes == x->ios * (double)st->bs ? st->bs : -1;
    r->iodepth = st->qd;
    r->direct = st->direct;
    r->io_bytes = bl_count_or(x->bytes, -1);
    r->runtime_s = st->seconds;
    r->iops = x->iops;
    r->bw_bytes_s = x->iops * (x->bytes / x->ios);
    if (!isnan(x->avg_ms)) {
        r->lat_ns.present = true;
        r->lat_ns.mean = round(x->avg_ms * 1e6);
        r->lat_ns.stdev = isnan(x->sd_ms) ? NAN : round(x->sd_ms * 1e6);
    }
    if (st->command)
        bl_record_set_label(r, "command", st->command);
    if (st->date) /* the driver makes it the record's `when` (GetSystemTime: UTC) */
        bl_record_set_label(r, "date", st->date);
    return r;
}

/* "testfile.dat (1GiB)" -> target "testfile.dat"; a name without the size stays whole. */
static void set_target(bl_record *r, const char *file)
{
    size_t len = strlen(file);
    const char *open = strrchr(file, '(');
    if (len && file[len - 1] == ')' && open && open > file && open[-1] == ' ')
        len = (size_t)(open - 1 - file);
    char *name = bl_xstrndup(file, len);
    bl_record_set_label(r, "target", name);
    free(name);
}

/* One record a thread row (see emit_threads). */
static void thread_records(bl_parse_out *out, const ds_total *rows, const long *nums, size_t n,
                           int d, const ds_setup *st, int64_t run)
{
    for (size_t i = 0; i < n; i++) {
        if (!(rows[i].ios > 0))
            continue;
        if (!bw_agrees(&rows[i])) {
            bl_out_error(out, rows[i].line,
                         "diskspd %s thread %ld: %.2f I/O per s of %.0f bytes is "
                         "not %.2f MiB/s",
                         d ? "write" : "read", nums[i], rows[i].iops, rows[i].bytes / rows[i].ios,
                         rows[i].mib_s);
            continue;
        }
        bl_record *r = row_record(out, &rows[i], d, st, run);
        r->numjobs = 1;
        char b[32];
        snprintf(b, sizeof b, "thread %ld", nums[i]);
        bl_record_set_label(r, "scope", b);
        snprintf(b, sizeof b, "%ld", nums[i]);
        bl_record_set_label(r, "thread", b);
        if (rows[i].file[0])
            set_target(r, rows[i].file);
    }
}

/* The thread rows of the table whose header is line head, up to its total row: one record
 * each (label scope "thread N", thread, target; numjobs 1), when there are two or more (one
 * row is the total itself). Their bytes must add up to the total's. */
static void emit_threads(bl_parse_out *out, const bl_text *t, size_t head, const ds_total *tot,
                         int d, const ds_setup *st, int64_t run)
{
    char cols[DS_MAXCOL][16];
    size_t ncol = header_columns(t->line[head], cols);
    /* the rows lie between the header and the total row: no more than those lines */
    size_t cap = (size_t)tot->line > head ? (size_t)tot->line - head : 1;
    ds_total *rows = bl_xcalloc(cap, sizeof *rows);
    long *nums = bl_xcalloc(cap, sizeof *nums);
    size_t n = 0;
    double bytes = 0;
    for (size_t k = head + 1; k + 1 < (size_t)tot->line && n < cap; k++)
        if (thread_row(t->line[k], cols, ncol, &rows[n], &nums[n])) {
            rows[n].line = (long)k + 1;
            bytes += rows[n].bytes;
            n++;
        }
    if (n >= 2 && bytes != tot->bytes) {
        bl_out_error(out, tot->line,
                     "diskspd %s: thread rows add up to %.0f bytes, the total says %.0f: "
                     "thread rows left out",
                     d ? "write" : "read", bytes, tot->bytes);
        n = 0;
    }
    if (n >= 2)
        thread_records(out, rows, nums, n, d, st, run);
    free(rows);
    free(nums);
}

static void emit(bl_parse_out *out, const bl_text *t, size_t from, size_t to, const ds_setup *st,
                 int64_t run)
{
    static const char *const titles[] = {"Read IO", "Write IO"};
    for (int d = 0; d < 2; d++) {
        ds_total tot;
        size_t head;
        if (!section_total(t, from, to, titles[d], &tot, &head) || !(tot.ios > 0))
            continue;
        if (!bw_agrees(&tot)) {
            bl_out_error(out, tot.line,
                         "diskspd %s total: %.2f I/O per s of %.0f bytes is not "
                         "%.2f MiB/s",
                         d ? "write" : "read", tot.iops, tot.bytes / tot.ios, tot.mib_s);
            continue;
        }
        bl_record *r = row_record(out, &tot, d, st, run);
        r->numjobs = st->threads;
        if (r->lat_ns.present)
            percentiles(t, from, to, d + 1, &r->lat_ns);
        emit_threads(out, t, head, &tot, d, st, run);
    }
}

/* -w of the command line: the percentage of writes (DiskSpd's default 0), -1 when the command
 * is not in the text or -w is not a number. */
static int write_percent(const char *command)
{
    if (!command)
        return -1;
    for (const char *p = strstr(command, " -w"); p; p = strstr(p + 1, " -w"))
        if (isdigit((unsigned char)p[3])) {
            int v = atoi(p + 3);
            return v >= 0 && v <= 100 ? v : -1;
        }
    return 0;
}

/* A paste of the Total IO table alone (its Read IO and Write IO tables left out): one record
 * of reads and writes together, unless -w0 or -w100 of the command says which. */
static void emit_total_only(bl_parse_out *out, const bl_text *t, size_t from, size_t to,
                            const ds_setup *st, int64_t run)
{
    ds_total tot;
    size_t head;
    if (!section_total(t, from, to, "Total IO", &tot, &head) || !(tot.ios > 0))
        return;
    if (!bw_agrees(&tot)) {
        bl_out_error(out, tot.line, "diskspd total: %.2f I/O per s of %.0f bytes is not %.2f MiB/s",
                     tot.iops, tot.bytes / tot.ios, tot.mib_s);
        return;
    }
    int w = write_percent(st->command);
    int d = w == 0 ? 0 : w == 100 ? 1 : 2;
    bl_record *r = row_record(out, &tot, d, st, run);
    r->numjobs = st->threads;
    if (r->lat_ns.present)
        percentiles(t, from, to, 3, &r->lat_ns);
    if (d == 2)
        bl_record_set_str(&r->note, w > 0
                                        ? "DiskSpd: only the Total IO table is in the text: reads "
                                          "and writes together (-w)"
                                        : "DiskSpd: only the Total IO table is in the text and "
                                          "no command line: reads and writes together");
}

static void diskspd_parse(const bl_text *t, bl_parse_out *out)
{
    int64_t run = 0;
    size_t setup_from = 0;
    for (size_t i = 0; i + 1 < t->nlines; i++) {
        char cols[DS_MAXCOL][16];
        if (strcmp(trim(t->line[i]), "Total IO") != 0 || !header_columns(t->line[i + 1], cols))
            continue;
        /* The timespan's tables end at the next "Total IO" table or the next command. */
        size_t end = i + 2;
        while (end < t->nlines && !starts(t->line[end], "Command Line:") &&
               !(strcmp(trim(t->line[end]), "Total IO") == 0))
            end++;
        ds_setup st;
        read_setup(t, setup_from, i, &st);
        run++;
        size_t before = out->recs.n;
        emit(out, t, i, end, &st, run);
        if (out->recs.n == before &&
            !section_total(t, i, end, "Read IO", &(ds_total){0}, &(size_t){0}) &&
            !section_total(t, i, end, "Write IO", &(ds_total){0}, &(size_t){0}))
            emit_total_only(out, t, i, end, &st, run);
        if (out->recs.n == before)
            bl_out_error(out, (long)i + 1, "diskspd results without a read or write total");
        free(st.command);
        free(st.date);
        setup_from = end;
        i = end - 1;
    }
}

/* The probe claims on a line that is "Total IO", blanks aside. */
static const char *const diskspd_needles[] = {"Total IO", NULL};

const bl_format bl_format_diskspd = {
    .name = "diskspd",
    .summary = "DiskSpd text reports: Read/Write IO totals, latency percentiles, command line",
    .family = "diskspd",
    .rank = 1,
    .probe = diskspd_probe,
    .parse = diskspd_parse,
    .needles = diskspd_needles,
};
