/* iozone's automatic-mode table (-a), as printed by iozone 3.x:
 *                                                        random    random     bkwd ...
 *        kB  reclen    write  rewrite    read    reread    read     write     read ...
 *     16384       4    55907    68813    43361    42502    34044    64746    33578 ...
 * Tests not run (-i) leave their cells blank, so a value belongs to the column whose
 * header ends nearest to where the value ends. The column order is iozone's fixed one;
 * a header that is not a prefix of it is not iozone's. Figures are kB/s (kB = 1024, "Output
 * is in kBytes/sec") or operations/s under -O ("Output is in operations per second");
 * when the text does not say, kB/s is assumed and the record's note says so. One record
 * per file size x record size x test; one table is one run. Throughput mode (-t N) is read
 * by iozone_tput.c. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "iozone_tput.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IZ_MAXCOL 13

typedef struct iz_test {
    const char *word;  /* the header's lower word */
    const char *label; /* iozone's name of the test */
    const char *test, *op, *pattern;
} iz_test;

static const iz_test columns[IZ_MAXCOL] = {
    {"write", "write", "seq-write", "write", "seq"},
    {"rewrite", "rewrite", "seq-rewrite", "write", "seq"},
    {"read", "read", "seq-read", "read", "seq"},
    {"reread", "reread", "seq-reread", "read", "seq"},
    {"read", "random read", "rand-read", "read", "rand"},
    {"write", "random write", "rand-write", "write", "rand"},
    {"read", "bkwd read", "bkwd-read", "read", NULL},
    {"rewrite", "record rewrite", "record-rewrite", "write", NULL},
    {"read", "stride read", "stride-read", "read", NULL},
    {"fwrite", "fwrite", "fwrite", "write", "seq"},
    {"frewrite", "frewrite", "frewrite", "write", "seq"},
    {"fread", "fread", "fread", "read", "seq"},
    {"freread", "freread", "freread", "read", "seq"},
};

typedef struct iz_header {
    size_t ncol;
    size_t end[IZ_MAXCOL]; /* column where each test's header word ends */
} iz_header;

/* The next blank-separated token of s from *pos: its start and end offsets. */
static int next_token(const char *s, size_t *pos, size_t *b, size_t *e)
{
    size_t i = *pos;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    if (!s[i])
        return 0;
    *b = i;
    while (s[i] && s[i] != ' ' && s[i] != '\t')
        i++;
    *e = *pos = i;
    return 1;
}

static int token_is(const char *s, size_t b, size_t e, const char *w)
{
    return e - b == strlen(w) && strncmp(s + b, w, e - b) == 0;
}

/* "kB  reclen    write  rewrite ..." (older iozone: "KB"). */
static int header_line(const char *s, iz_header *h)
{
    size_t pos = 0, b, e;
    if (!next_token(s, &pos, &b, &e) || !(token_is(s, b, e, "kB") || token_is(s, b, e, "KB")))
        return 0;
    if (!next_token(s, &pos, &b, &e) || !token_is(s, b, e, "reclen"))
        return 0;
    h->ncol = 0;
    while (next_token(s, &pos, &b, &e)) {
        if (h->ncol == IZ_MAXCOL || !token_is(s, b, e, columns[h->ncol].word))
            return 0;
        h->end[h->ncol++] = e;
    }
    return h->ncol > 0;
}

typedef struct iz_row {
    double kb, reclen;
    double v[IZ_MAXCOL];
} iz_row;

/* A data row: 1 when read, 0 when the line is no row, -1 when its cells cannot be placed. */
static int data_row(const char *s, const iz_header *h, iz_row *r)
{
    size_t pos = 0, b, e, n = 0;
    int last = -1;
    for (size_t c = 0; c < IZ_MAXCOL; c++)
        r->v[c] = NAN;
    while (next_token(s, &pos, &b, &e)) {
        for (size_t k = b; k < e; k++)
            if (!isdigit((unsigned char)s[k]))
                return 0;
        double v = strtod(s + b, NULL);
        if (n == 0)
            r->kb = v;
        else if (n == 1)
            r->reclen = v;
        else {
            int best = -1;
            size_t dist = (size_t)-1;
            for (size_t c = 0; c < h->ncol; c++) {
                size_t d = e > h->end[c] ? e - h->end[c] : h->end[c] - e;
                if (d < dist)
                    dist = d, best = (int)c;
            }
            if (best <= last || dist > 4)
                return -1;
            r->v[best] = v;
            last = best;
        }
        n++;
    }
    return n >= 3 ? 1 : n == 0 ? 0 : -1;
}

typedef struct iz_context {
    int ops;         /* -O: operations per second */
    int unit_stated; /* the text said which */
    int direct;      /* "O_DIRECT feature enabled" (-I) */
    char *version;
    char *command;
} iz_context;

/* What the text above the table says about it (up to the previous table). */
static void context_above(const bl_text *t, size_t hdr, size_t stop, iz_context *cx)
{
    memset(cx, 0, sizeof *cx);
    for (size_t k = hdr; k > stop; k--) {
        const char *s = t->line[k - 1];
        if (!cx->unit_stated && strstr(s, "Output is in ")) {
            cx->unit_stated = 1;
            cx->ops = strstr(s, "operations per second") != NULL;
        }
        if (strstr(s, "O_DIRECT feature enabled"))
            cx->direct = 1;
        const char *v = strstr(s, "Version $Revision: ");
        if (v && !cx->version)
            cx->version = bl_xstrndup(v + 19, strcspn(v + 19, " $"));
        const char *c = strstr(s, "Command line used: ");
        if (c && !cx->command)
            cx->command = bl_xstrdup(c + 19);
        if (!cx->command && (c = strstr(s, "iozone -")))
            cx->command = bl_xstrndup(c, strcspn(c, "`"));
    }
    if (!cx->unit_stated && cx->command && strstr(cx->command, " -O"))
        cx->ops = 1, cx->unit_stated = 1;
}

static void add_record(bl_parse_out *out, size_t line, int64_t run, const iz_context *cx,
                       const iz_row *row, size_t c)
{
    bl_record *r = bl_out_record(out, (long)line + 1);
    r->run = run;
    bl_record_set_str(&r->tool, "iozone");
    bl_record_set_str(&r->tool_version, cx->version);
    bl_record_set_str(&r->test, columns[c].test);
    bl_record_set_str(&r->op, columns[c].op);
    bl_record_set_str(&r->pattern, columns[c].pattern);
    bl_record_set_label(r, "iozone_test", columns[c].label);
    if (cx->command)
        bl_record_set_label(r, "command", cx->command);
    r->size_bytes = bl_count_or(row->kb * 1024, -1);
    r->bs = bl_count_or(row->reclen * 1024, -1);
    r->numjobs = 1;
    r->direct = cx->direct ? BL_TRUE : BL_TRI_ABSENT;
    /* One iozone operation is one record, so IOPS x bs = bandwidth in both units. */
    if (cx->ops) {
        r->iops = row->v[c];
        r->bw_bytes_s = row->v[c] * row->reclen * 1024;
    } else {
        r->bw_bytes_s = row->v[c] * 1024;
        if (row->reclen > 0)
            r->iops = row->v[c] / row->reclen;
    }
    if (!cx->unit_stated)
        bl_record_set_str(&r->note, "iozone: the text does not say the unit; kB/s (iozone's "
                                    "default) assumed");
}

/* -R's report blocks ("Excel output is below:"), one a test:
 *   "Writer report"
 *           "4"  "8"  "16"
 *   "64"   173944 340306 516994
 * A row shorter than the header is certain only when the record sizes it leaves out are
 * larger than its file (auto mode's rule); else it is refused. */
static const char *const report_names[IZ_MAXCOL] = {
    "Writer",       "Re-writer",     "Reader",         "Re-Reader",   "Random read",
    "Random write", "Backward read", "Record rewrite", "Stride read", "Fwrite",
    "Re-Fwrite",    "Fread",         "Re-Fread"};

#define IZ_MAXREC 32

static int report_title(const char *s)
{
    s += strspn(s, " \t");
    if (s[0] != '"')
        return -1;
    for (int c = 0; c < IZ_MAXCOL; c++) {
        size_t n = strlen(report_names[c]);
        if (s[0] == '"' && strncmp(s + 1, report_names[c], n) == 0 &&
            strncmp(s + 1 + n, " report\"", 8) == 0 && s[n + 9] == '\0')
            return c;
    }
    return -1;
}

/* Quoted numbers: "4"  "8" -> v; returns how many, 0 when the line is something else. */
static size_t quoted_numbers(const char *s, double *v, size_t max, const char **rest)
{
    size_t n = 0;
    s += strspn(s, " \t");
    while (*s == '"' && n < max) {
        char *e;
        v[n] = strtod(s + 1, &e);
        if (e == s + 1 || *e != '"')
            return 0;
        n++;
        s = e + 1;
        s += strspn(s, " \t");
        if (rest)
            break; /* a data row: one quoted file size, then plain numbers */
    }
    if (rest)
        *rest = s;
    return *s && !rest ? 0 : n;
}

/* One report block from its title line; returns the line after it. */
static size_t report_block(const bl_text *t, size_t i, int col, int64_t run, const iz_context *cx,
                           bl_parse_out *out)
{
    double rec[IZ_MAXREC];
    size_t nrec = i + 1 < t->nlines ? quoted_numbers(t->line[i + 1], rec, IZ_MAXREC, NULL) : 0;
    size_t k = i + 2;
    for (; nrec && k < t->nlines; k++) {
        double kb;
        const char *p;
        if (quoted_numbers(t->line[k], &kb, 1, &p) != 1)
            break;
        double v[IZ_MAXREC];
        size_t nv = 0;
        char *e;
        while (*p && nv < IZ_MAXREC && (v[nv] = strtod(p, &e), e != p)) {
            nv++;
            p = e + strspn(e, " \t");
        }
        int certain = nv == nrec || (nv < nrec && rec[nv] > kb);
        for (size_t c = 0; c < nv && certain; c++)
            certain = rec[c] <= kb;
        if (*p || !certain) {
            bl_out_error(out, (long)k + 1,
                         "iozone report row with %zu figures for %zu record sizes: which "
                         "record size each is for is not certain",
                         nv, nrec);
            continue;
        }
        for (size_t c = 0; c < nv; c++) {
            iz_row row = {.kb = kb, .reclen = rec[c]};
            row.v[col] = v[c];
            add_record(out, k, run, cx, &row, (size_t)col);
        }
    }
    return k;
}

static int banner(const char *s)
{
    return strstr(s, "Iozone: Performance Test of File I/O") != NULL;
}

static int iozone_probe(const bl_text *t)
{
    iz_header h;
    double rec[IZ_MAXREC];
    for (size_t i = 0; i < t->nlines; i++)
        if (header_line(t->line[i], &h) || bl_iozone_tput_line(t->line[i]) ||
            (report_title(t->line[i]) >= 0 && i + 1 < t->nlines &&
             quoted_numbers(t->line[i + 1], rec, IZ_MAXREC, NULL)))
            return 85;
    return 0;
}

static size_t table(const bl_text *t, size_t i, const iz_header *h, int64_t run,
                    const iz_context *cx, bl_parse_out *out)
{
    size_t k = i + 1;
    for (; k < t->nlines; k++) {
        iz_row row;
        int got = data_row(t->line[k], h, &row);
        if (got == 0)
            break;
        if (got < 0) {
            bl_out_error(out, (long)k + 1,
                         "iozone row whose cells do not line up with the header's columns");
            continue;
        }
        for (size_t c = 0; c < h->ncol; c++)
            if (!isnan(row.v[c]))
                add_record(out, k, run, cx, &row, c);
    }
    return k;
}

/* One run per iozone invocation (banner); when it printed both the -a table and the -R
 * report, the report repeats the table's figures and is not read again. */
static void iozone_parse(const bl_text *t, bl_parse_out *out)
{
    int64_t run = 0;
    size_t stop = 0;
    int table_seen = 0, report_run = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        iz_header h;
        int col;
        if (banner(t->line[i])) {
            table_seen = report_run = 0;
            continue;
        }
        if (header_line(t->line[i], &h)) {
            iz_context cx;
            context_above(t, i, stop, &cx);
            size_t k = table(t, i, &h, ++run, &cx, out);
            free(cx.version);
            free(cx.command);
            table_seen = 1;
            stop = k;
            i = k - 1;
        } else if ((col = report_title(t->line[i])) >= 0 && !table_seen) {
            iz_context cx;
            context_above(t, i, stop, &cx);
            if (!report_run)
                report_run = 1, run++;
            size_t k = report_block(t, i, col, run, &cx, out);
            free(cx.version);
            free(cx.command);
            i = k - 1;
        }
    }
    bl_iozone_tput_parse(t, out, &run);
}

/* The probe's three lines: header_line's "reclen" token, the throughput line's lead
 * (see_line) and report_title's "<name> report" in quotes. */
static const char *const iozone_needles[] = {"reclen", "Children see throughput for ", " report\"",
                                             NULL};

const bl_format bl_format_iozone = {
    .name = "iozone",
    .summary = "iozone -a tables, -R report blocks and -t throughput mode (kB/s or -O ops/s)",
    .family = "iozone",
    .rank = 1,
    .probe = iozone_probe,
    .parse = iozone_parse,
    .needles = iozone_needles,
};
