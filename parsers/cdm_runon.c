/* CrystalDiskMark results whose cells were run together when a page's table became text:
 *
 *   read write
 *   シーケンシャルランダム512kランダム4kランダム4k QD32シーケンシャルランダム512k...
 *   zil_disable=0 zfs_nocacheflush=085.6785.6719.88115.7116113.819.33116.4
 *
 * The header names the tests (split where a test name begins; "read write" above it halves
 * them), each row is a label followed by the figures with nothing between them. The split
 * is recovered by this rule, and only when it gives exactly one answer:
 *   1. every figure has 1 to 4 significant digits, no leading zero, and a fraction that
 *      does not end in 0 (a spreadsheet's 4-digit "General" display of CDM's MB/s);
 *   2. within one table, a column's figures have the same number of integer digits in
 *      every row (the same test on the same setup stays within one order of magnitude);
 *   3. digits the row label ends with ("...nocacheflush=0") go to the label only as far as
 *      needed: among the column patterns that fit every row, the one that leaves the fewest
 *      digits to the labels wins.
 * When two patterns tie, or a row can be split more than one way under the winner, the row
 * is reported as ambiguous and gives no records. */
#include "cdm_common.h"
#include "cdm_table.h"
#include "sections.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TESTS = 12, MAX_SOL = 4096, MAX_LABEL_DIGITS = 3, MAX_ROWS = 32 };

static const char *const starts[] = {"シーケンシャル", "ランダム", "Sequential", "Random"};

static const char *next_start(const char *s, size_t *which)
{
    const char *best = NULL;
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        const char *p = strstr(s, starts[k]);
        if (p && (!best || p < best))
            best = p, *which = k;
    }
    return best;
}

static size_t split_names(const char *s, const char **v, size_t *len, size_t max)
{
    size_t n = 0, w;
    const char *p = next_start(s, &w);
    if (!p || p != s + strspn(s, " \t"))
        return 0;
    while (p && n < max) {
        const char *q = next_start(p + strlen(starts[w]), &w);
        size_t l = q ? (size_t)(q - p) : strlen(p);
        while (l && p[l - 1] == ' ')
            l--;
        v[n] = p, len[n++] = l;
        p = q;
    }
    return n;
}

int bl_cdm_runon_header(const char *line)
{
    const char *v[MAX_TESTS];
    size_t len[MAX_TESTS];
    return !strchr(line, '|') && !strchr(line, ':') && split_names(line, v, len, MAX_TESTS) >= 4;
}

typedef struct sol {
    unsigned char k;              /* digits given to the label */
    unsigned char d[MAX_TESTS];   /* integer digits of each figure */
    unsigned char len[MAX_TESTS]; /* characters of each figure */
} sol;

typedef struct sols {
    sol *v;
    size_t n;
    int overflow;
} sols;

/* Figure lengths that can start at s under rule 1. */
static size_t figure_lengths(const char *s, size_t avail, unsigned char *lens, unsigned char *ds)
{
    size_t n = 0;
    for (size_t ip = 1; ip <= 4 && ip <= avail; ip++) {
        if (!isdigit((unsigned char)s[ip - 1]))
            break;
        if (ip > 1 && s[0] == '0')
            break;
        size_t sig = s[0] == '0' ? 0 : ip;
        lens[n] = (unsigned char)ip, ds[n++] = (unsigned char)ip;
        if (ip < avail && s[ip] == '.') {
            for (size_t f = 1; ip + 1 + f <= avail && sig + f <= 4; f++) {
                if (!isdigit((unsigned char)s[ip + f]))
                    break;
                if (s[ip + f] != '0')
                    lens[n] = (unsigned char)(ip + 1 + f), ds[n++] = (unsigned char)ip;
            }
        }
    }
    return n;
}

static void enumerate(const char *s, size_t avail, size_t idx, size_t ntests, sol *cur, sols *out)
{
    /* a figure takes 1 to 8 characters ("1" to "12.34" or "1.234"): prune what cannot end */
    if (avail < ntests - idx || avail > (ntests - idx) * 8)
        return;
    if (idx == ntests) {
        if (avail == 0) {
            if (out->n < MAX_SOL)
                out->v[out->n++] = *cur;
            else
                out->overflow = 1;
        }
        return;
    }
    unsigned char lens[16], ds[16];
    size_t m = figure_lengths(s, avail, lens, ds);
    for (size_t i = 0; i < m; i++) {
        if (lens[i] < avail && s[lens[i]] == '.')
            continue; /* a figure never ends right before a point */
        cur->len[idx] = lens[i];
        cur->d[idx] = ds[i];
        enumerate(s + lens[i], avail - lens[i], idx + 1, ntests, cur, out);
    }
}

static void row_solutions(const char *run, size_t rlen, size_t ntests, sols *out)
{
    sol cur;
    memset(&cur, 0, sizeof cur);
    for (size_t k = 0; k <= MAX_LABEL_DIGITS && k < rlen; k++) {
        if (run[k] == '.')
            break;
        cur.k = (unsigned char)k;
        enumerate(run + k, rlen - k, 0, ntests, &cur, out);
    }
}

static int same_d(const sol *a, const sol *b, size_t n)
{
    return memcmp(a->d, b->d, n) == 0;
}

typedef struct row {
    long line;
    const char *text;
    size_t label_len, run_len;
    sols s;
    const sol *pick;
} row;

/* Rules 2 and 3: the column pattern that fits every row with the fewest label digits. */
static const sol *choose_pattern(row *rows, size_t nr, size_t nt, int *tie)
{
    const sol *best = NULL;
    int best_cost = 1 << 30;
    *tie = 0;
    for (size_t c = 0; c < rows[0].s.n; c++) {
        const sol *cand = &rows[0].s.v[c];
        int dup = 0;
        for (size_t e = 0; e < c && !dup; e++)
            dup = same_d(&rows[0].s.v[e], cand, nt);
        if (dup)
            continue;
        int cost = 0, fits = 1;
        for (size_t r = 0; r < nr && fits; r++) {
            int mk = 99;
            for (size_t i = 0; i < rows[r].s.n; i++)
                if (same_d(&rows[r].s.v[i], cand, nt) && rows[r].s.v[i].k < mk)
                    mk = rows[r].s.v[i].k;
            fits = mk != 99;
            cost += mk;
        }
        if (!fits)
            continue;
        if (cost < best_cost)
            best = cand, best_cost = cost, *tie = 0;
        else if (cost == best_cost)
            *tie = 1;
    }
    return best;
}

static const char *prose_version(const bl_text *t, size_t upto, char *buf, size_t cap)
{
    for (size_t i = 0; i < upto; i++) { /* the first mention names the version used */
        const char *p = strstr(t->line[i], "CrystalDiskMark");
        if (!p)
            continue;
        p += strlen("CrystalDiskMark");
        p += strspn(p, " ");
        size_t n = strspn(p, "0123456789.");
        if (n && n < cap && isdigit((unsigned char)*p)) {
            memcpy(buf, p, n);
            buf[n] = '\0';
            return buf;
        }
    }
    return NULL;
}

static void emit_rows(const bl_text *t, size_t h, row *rows, size_t nr, const bl_cdm_test *tests,
                      size_t nt, bl_parse_out *o, int64_t *run)
{
    char ver[16];
    const char *version = prose_version(t, h, ver, sizeof ver);
    char *section = bl_heading_above(t, (long)h + 1, 1);
    for (size_t r = 0; r < nr; r++) {
        const sol *s = rows[r].pick;
        if (!s)
            continue;
        bl_cdm_meta m = {.tool = "CrystalDiskMark", .version = version};
        if (version)
            bl_cdm_meta_label(&m, "cdm_version", version, strlen(version));
        if (section)
            bl_cdm_meta_label(&m, "section", section, strlen(section));
        bl_cdm_meta_label(&m, "row", rows[r].text, rows[r].label_len + s->k);
        ++*run;
        const char *p = rows[r].text + rows[r].label_len + s->k;
        for (size_t i = 0; i < nt; i++) {
            char buf[16];
            snprintf(buf, sizeof buf, "%.*s", (int)s->len[i], p);
            p += s->len[i];
            bl_cdm_emit(o, rows[r].line, *run, &m, &tests[i], 0, strtod(buf, NULL) * 1e6, BL_ABSENT,
                        BL_ABSENT);
        }
        bl_cdm_meta_free(&m);
    }
    free(section);
}

static size_t runon_table(const bl_text *t, size_t h, bl_parse_out *o, int64_t *run)
{
    const char *nv[MAX_TESTS];
    size_t nl[MAX_TESTS];
    size_t nt = split_names(t->line[h], nv, nl, MAX_TESTS);
    bl_cdm_test tests[MAX_TESTS];
    const char *above = h > 0 ? t->line[h - 1] : "";
    const char *rd = strstr(above, "read"), *wr = strstr(above, "write");
    int halves = rd && wr && rd < wr && nt % 2 == 0;
    for (size_t i = 0; i < nt; i++) {
        /* run-together tables come from CDM 2.x/3.x pages: 1 MiB sequential blocks */
        if (!bl_cdm_test_parse(nv[i], nl[i], 3, &tests[i]))
            return h + 1;
        if (halves)
            tests[i].op = i < nt / 2 ? 'r' : 'w';
        if (!tests[i].op) {
            bl_out_error(o, (long)h + 1, "run-together CrystalDiskMark header: no read/write");
            return h + 1;
        }
    }
    row rows[MAX_ROWS];
    size_t nr = 0, j;
    for (j = h + 1; j < t->nlines && nr < MAX_ROWS; j++) {
        const char *s = t->line[j];
        size_t len = strlen(s);
        while (len && s[len - 1] == ' ')
            len--;
        size_t b = len;
        while (b > 0 && (isdigit((unsigned char)s[b - 1]) || s[b - 1] == '.'))
            b--;
        if (len - b < nt)
            break;
        row *r = &rows[nr++];
        *r = (row){(long)j + 1, s, b, len - b, {bl_xcalloc(MAX_SOL, sizeof(sol)), 0, 0}, NULL};
        row_solutions(s + b, len - b, nt, &r->s);
    }
    int tie = 0;
    const sol *pattern = nr ? choose_pattern(rows, nr, nt, &tie) : NULL;
    for (size_t r = 0; r < nr; r++) {
        size_t count = 0;
        int mk = 99;
        for (size_t i = 0; pattern && !tie && i < rows[r].s.n; i++)
            if (same_d(&rows[r].s.v[i], pattern, nt) && rows[r].s.v[i].k < mk)
                mk = rows[r].s.v[i].k;
        for (size_t i = 0; pattern && !tie && i < rows[r].s.n; i++)
            if (same_d(&rows[r].s.v[i], pattern, nt) && rows[r].s.v[i].k == mk)
                count++, rows[r].pick = &rows[r].s.v[i];
        if (count != 1) {
            rows[r].pick = NULL;
            bl_out_error(o, rows[r].line,
                         "CrystalDiskMark figures run together without separators cannot be "
                         "split with certainty ('%.*s'); no records kept",
                         (int)rows[r].run_len, rows[r].text + rows[r].label_len);
        }
    }
    emit_rows(t, h, rows, nr, tests, nt, o, run);
    for (size_t r = 0; r < nr; r++)
        free(rows[r].s.v);
    return j;
}

void bl_cdm_parse_runon(const bl_text *t, bl_parse_out *o, int64_t *run)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (bl_cdm_runon_header(t->line[i]))
            i = runon_table(t, i, o, run) - 1;
}
