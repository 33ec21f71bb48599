/* CrystalDiskMark text exports of every generation and KDiskMark exports; the tables of
 * fio-cdm and CrystalDiskMark-style comparisons pasted in pages (cdm_table.c, cdm_runon.c).
 *
 * One export is one run: its results (3.x/5.x/6.x name read/write in each line, 7.x/8.x and
 * KDiskMark under [Read]/[Write]) and its header and footer as labels (cdm_version,
 * test_size, runs, date, os, profile, comment). CrystalDiskMark's MB/s is 10^6 bytes/s as the
 * export says; KDiskMark's is not (cdm_kdiskmark.h). */
#include "cdm_common.h"
#include "cdm_kdiskmark.h"
#include "cdm_table.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_sp(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int is_header(const char *s)
{
    s = skip_sp(s);
    return (*s == 'C' && strncmp(s, "CrystalDiskMark ", 16) == 0) ||
           (*s == 'K' && strncmp(s, "KDiskMark", 9) == 0);
}

/* A result line: NAME ':' FIGURES, with no table bars. */
static int result_line(const char *s, int major, bl_cdm_test *t, double *bw, double *iops,
                       double *lat, double prec[2])
{
    if (strchr(s, '|'))
        return 0;
    for (const char *c = strchr(s, ':'); c; c = strchr(c + 1, ':')) {
        size_t used = bl_cdm_value_parse_prec(c + 1, bw, iops, lat, prec);
        if (used && bl_cdm_test_parse(s, (size_t)(c - s), major, t))
            return 1;
    }
    return 0;
}

/* "Sequential Read :   478,802 MB/s": a test name, then a figure with a comma, as
 * CrystalDiskMark prints in locales with a decimal comma. With three decimals always printed,
 * "478,802" could as well be 478802 with a thousands separator: not read, but said. Returns
 * the figure, or NULL. */
static const char *comma_figure(const char *s, int major)
{
    const char *c = strchr(s, ':');
    bl_cdm_test t;
    if (!c || strchr(s, '|') || !bl_cdm_test_parse(s, (size_t)(c - s), major, &t))
        return NULL;
    const char *f = skip_sp(c + 1);
    size_t int_digits = strspn(f, "0123456789");
    return int_digits > 0 && f[int_digits] == ',' && isdigit((unsigned char)f[int_digits + 1]) &&
                   strstr(f, "MB/s")
               ? f
               : NULL;
}

/* "Random Read 4KB (QD=32) : n/a": a test name before the first colon but no figure. */
static int named_without_figure(const char *s, int major, int op)
{
    const char *c = strchr(s, ':');
    bl_cdm_test t;
    return c && !strchr(s, '|') && bl_cdm_test_parse(s, (size_t)(c - s), major, &t) &&
           (t.op || op) && strspn(c + 1, " \t") < strlen(c + 1);
}

/* "Key : value" footer lines; returns the value or NULL. */
static const char *footer(const char *s, const char *key)
{
    s = skip_sp(s);
    size_t n = strlen(key);
    if (strncmp(s, key, n) != 0)
        return NULL;
    s = skip_sp(s + n);
    if (*s != ':')
        return NULL;
    return skip_sp(s + 1);
}

static void read_meta(const bl_text *t, size_t from, size_t to, bl_cdm_meta *m, char *ver,
                      size_t vcap)
{
    static const char *keys[][2] = {{"Date", "date"},       {"OS", "os"},
                                    {"Profile", "profile"}, {"Comment", "comment"},
                                    {"Mode", "mode"},       {"Target", "target"}};
    for (size_t i = from; i < to; i++) {
        const char *s = t->line[i], *v;
        if (is_header(s)) {
            const char *p = skip_sp(s);
            if (strncmp(p, "KDiskMark", 9) == 0)
                m->tool = "KDiskMark";
            p += strcspn(p, "0123456789");
            size_t n = strspn(p, "0123456789.");
            if (n && n < vcap) {
                memcpy(ver, p, n);
                ver[n] = '\0';
                m->version = ver;
                bl_cdm_meta_label(m, "cdm_version", ver, n);
            }
        }
        const char *fio = strstr(s, "Flexible I/O Tester (fio-");
        if (fio)
            bl_cdm_meta_label(m, "fio_version", fio + 25, strcspn(fio + 25, ")"));
        if ((v = footer(s, "Test")) != NULL) {
            size_t n = strcspn(v, "[(<");
            bl_cdm_meta_label(m, "test_size", v, n);
            /* "[C: 72.2% (57.3/79.4 GB)]": the drive tested, not "[Interval: 5 sec]" */
            const char *br = strchr(v, '[');
            if (br && isalpha((unsigned char)br[1]) && br[2] == ':' && strchr(br, ']'))
                bl_cdm_meta_label(m, "drive", br + 1, (size_t)(strchr(br, ']') - br - 1));
            const char *x = strstr(v, "(x");
            if (x)
                bl_cdm_meta_label(m, "runs", x + 2, strspn(x + 2, "0123456789"));
        }
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if ((v = footer(s, keys[k][0])) != NULL)
                bl_cdm_meta_label(m, keys[k][1], v, strlen(v));
        if (footer(s, "Target"))
            m->tool = "KDiskMark";
    }
}

/* "KDiskMark: https://github.com/JonMagon/KDiskMark": 1.4-1.5.x name no version. */
static int header_1x(const bl_text *t, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (strncmp(skip_sp(t->line[i]), "KDiskMark: ", 11) == 0)
            return 1;
    return 0;
}

/* KDiskMark 3.x footers: "Test: 1 GiB (x5) [Measure: 5 sec / ...]", " Target: /home ...". */
static int kdiskmark3_footer(const bl_text *t, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        const char *v = footer(t->line[i], "Test");
        if (footer(t->line[i], "Target") || (v && strstr(v, "[Measure:")))
            return 1;
    }
    return 0;
}

static int section_op(const char *s)
{
    s = skip_sp(s);
    if (strncmp(s, "[Read]", 6) == 0)
        return 'r';
    if (strncmp(s, "[Write]", 7) == 0)
        return 'w';
    if (strncmp(s, "[Mix]", 5) == 0)
        return 'm';
    return 0;
}

static int footer_line(const char *s)
{
    static const char *const keys[] = {"Test", "Date", "OS", "Profile", "Comment", "Target"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (footer(s, keys[k]))
            return 1;
    return 0;
}

/* Where the next body starts in [start, end) of an export without a header of its own: a
 * body pasted from "[Read]" down, or a 3.x-6.x body of named lines, is whole at its footer,
 * and a "[Read]" or a test already seen after that (or after its "[Write]" results) is the
 * next body's. Returns end when [start, end) is one body. */
static size_t next_body(const bl_text *t, size_t start, size_t end)
{
    int footer_seen = 0, wrote = 0, op = 0;
    char seen[16][96];
    size_t nseen = 0;
    for (size_t k = start; k < end; k++) {
        const char *s = t->line[k];
        int sop = section_op(s);
        bl_cdm_test tt;
        double a, b, c;
        if (sop) {
            if (k > start && sop == 'r' && (footer_seen || wrote))
                return k;
            op = sop;
            continue;
        }
        if (footer_line(s)) {
            footer_seen = 1;
            continue;
        }
        if (!result_line(s, 0, &tt, &a, &b, &c, NULL))
            continue;
        char key[96];
        snprintf(key, sizeof key, "%c %s", tt.op ? tt.op : op, tt.name);
        int again = 0;
        for (size_t i = 0; i < nseen && !again; i++)
            again = strcmp(seen[i], key) == 0;
        if (k > start && (footer_seen || again))
            return k;
        if (nseen < sizeof seen / sizeof seen[0])
            snprintf(seen[nseen++], sizeof seen[0], "%s", key);
        wrote |= (tt.op ? tt.op : op) == 'w';
    }
    return end;
}

/* Exports: a block runs from a header (or the first result) to the next header, or to the
 * next body pasted without one (next_body). */
static void parse_exports(const bl_text *t, bl_parse_out *o, int64_t *run)
{
    size_t i = 0;
    while (i < t->nlines) {
        size_t start = i;
        while (start < t->nlines && !is_header(t->line[start])) {
            bl_cdm_test tt;
            double a, b, c;
            if (result_line(t->line[start], 0, &tt, &a, &b, &c, NULL) ||
                section_op(t->line[start]) || comma_figure(t->line[start], 0) != NULL)
                break;
            start++;
        }
        if (start >= t->nlines)
            return;
        size_t end = start + 1;
        while (end < t->nlines && !is_header(t->line[end]))
            end++;
        end = next_body(t, start, end);
        bl_cdm_meta m = {.tool = "CrystalDiskMark"};
        char ver[32];
        read_meta(t, start, end, &m, ver, sizeof ver);
        int major = bl_cdm_major(m.version), op = 0, any = 0;
        size_t first = o->recs.n;
        for (size_t k = start; k < end; k++) {
            bl_cdm_test tt;
            double bw, iops, lat, prec[2];
            const char *comma;
            int sop = section_op(t->line[k]);
            if (sop)
                op = sop;
            else if (result_line(t->line[k], major, &tt, &bw, &iops, &lat, prec)) {
                if (!tt.op && !op) {
                    bl_out_error(o, (long)k + 1, "CrystalDiskMark result outside [Read]/[Write]");
                    continue;
                }
                if (!any)
                    ++*run;
                any = 1;
                bl_record *r = bl_cdm_emit(o, (long)k + 1, *run, &m, &tt, op, bw, iops, lat);
                r->bw_prec = prec[0];
                r->iops_prec = prec[1];
            } else if ((comma = comma_figure(t->line[k], major))) {
                bl_out_error(o, (long)k + 1,
                             "CrystalDiskMark figure with a comma ('%.*s'): a decimal comma or "
                             "a thousands separator, the text cannot say; not read",
                             (int)strcspn(comma, " "), comma);
            } else if (named_without_figure(t->line[k], major, op)) {
                bl_out_error(o, (long)k + 1, "CrystalDiskMark result without a figure in MB/s");
            }
        }
        if (strcmp(m.tool, "KDiskMark") == 0 && o->recs.n > first) {
            bl_kdm_fix_units(o, first, m.version, kdiskmark3_footer(t, start, end),
                             (long)start + 1);
            bl_kdm_note_threads(o, first, m.version, header_1x(t, start, end));
        }
        bl_cdm_meta_free(&m);
        i = end;
    }
}

static int probe(const bl_text *t)
{
    int score = 0;
    for (size_t i = 0; i < t->nlines && score < 90; i++) {
        const char *s = t->line[i];
        if (is_header(s) && strstr(s, "Mark"))
            score = 90;
        else if (!strstr(s, "MB/s")) { /* what both tests below look for first */
            if (bl_cdm_runon_header(s))
                score = 60;
        } else if (strstr(s, "Read(MB/s)") && strchr(s, '|'))
            score = 90;
        else if (strstr(s, " MB/s") &&
                 (strstr(s, "IOPS]") || strstr(s, "Sequential") || strstr(s, "(Q=")))
            score = 70; /* "(Q=": CrystalDiskMark 5-8's "SEQ    1MiB (Q=  8, T= 1):" alone */
        else if (bl_cdm_runon_header(s))
            score = 60;
    }
    return score;
}

static void parse(const bl_text *t, bl_parse_out *o)
{
    int64_t run = 0;
    parse_exports(t, o, &run);
    bl_cdm_parse_fio_cdm(t, o, &run);
    bl_cdm_parse_grid(t, o, &run);
    bl_cdm_parse_runon(t, o, &run);
}

/* The probe's claims: is_header ("CrystalDiskMark ", "KDiskMark"), a table's "Read(MB/s)", a
 * result line's " MB/s", and a run-on header, which starts with a test name (cdm_runon.c's
 * `starts`). */
static const char *const cdm_needles[] = {"DiskMark", "Read(MB/s)", " MB/s",  "シーケンシャル",
                                          "ランダム", "Sequential", "Random", NULL};

const bl_format bl_format_cdm = {
    .name = "cdm",
    .summary = "CrystalDiskMark 3.x-8.x / KDiskMark text exports, fio-cdm and pasted CDM tables",
    .family = "cdm",
    .rank = 1,
    .probe = probe,
    .parse = parse,
    .needles = cdm_needles,
};
