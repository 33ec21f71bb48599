#include "bonnie_table.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* bonnie++ prints the row label in 19 columns, then each cell as " %5s %3s" (10 columns,
 * wider when a figure overflows) and each latency as " %9s" after an 18-column label. */
enum { LABEL_COLS = 19, CELL_COLS = 10, LAT_FIRST_END = 26 };

typedef struct tok {
    const char *s;
    size_t len, start, end; /* end exclusive, in bytes */
} tok;

static size_t tokenize(const char *s, tok *v, size_t max)
{
    size_t n = 0, i = 0;
    while (s[i]) {
        while (s[i] == ' ' || s[i] == '\t')
            i++;
        if (!s[i])
            break;
        size_t b = i;
        while (s[i] && s[i] != ' ' && s[i] != '\t')
            i++;
        if (n < max)
            v[n] = (tok){s + b, i - b, b, i};
        n++;
    }
    return n;
}

static int is_pipe_line(const char *s)
{
    return s[strspn(s, " \t")] == '|';
}

int bl_bonnie_table_start(const char *s)
{
    if (!strstr(s, "Sequential ")) /* both kinds of heading hold it */
        return 0;
    return (strstr(s, "Sequential Output") && strstr(s, "Sequential Input")) ||
           (strstr(s, "Sequential Create") && strstr(s, "Random Create"));
}

static void copy_tok(char *dst, size_t cap, const tok *t)
{
    size_t n = t->len < cap - 1 ? t->len : cap - 1;
    memcpy(dst, t->s, n);
    dst[n] = '\0';
}

static bl_bonnie_run *new_run(bl_bonnie_run **v, size_t *n, size_t *cap, const char *version,
                              long line)
{
    void *p = *v;
    bl_grow(&p, cap, *n + 1, sizeof **v);
    *v = p;
    bl_bonnie_run *r = &(*v)[(*n)++];
    bl_bonnie_run_init(r);
    snprintf(r->version, sizeof r->version, "%s", version);
    r->line = r->last_line = line;
    return r;
}

/* Places the cells of a row: 12 tokens fill the six cells in order (also when a page has
 * collapsed the spacing); fewer are placed by column, an empty cell being 10 blank columns. */
static int place_cells(const tok *tk, size_t ntok, size_t lead, int first, bl_bonnie_run *r,
                       long line)
{
    size_t ncell = ntok - lead;
    if (ncell % 2 || ncell == 0 || ncell > 12)
        return 0;
    size_t p = tk[lead - 1].end > LABEL_COLS ? tk[lead - 1].end : LABEL_COLS;
    int c = 0;
    bl_bonnie_cell cells[BL_BONNIE_NIO];
    int where[BL_BONNIE_NIO];
    for (size_t k = 0; k < ncell / 2; k++) {
        const tok *v = &tk[lead + 2 * k], *cpu = v + 1;
        if (ncell < 12) {
            while (v->start >= p + CELL_COLS && c < BL_BONNIE_NIO)
                c++, p += CELL_COLS;
        }
        if (c >= BL_BONNIE_NIO)
            return 0;
        if (!bl_bonnie_cell_parse(v->s, v->len, cpu->s, cpu->len, first + c, &cells[k], line))
            return 0;
        if (!isdigit((unsigned char)cpu->s[0]) && cpu->s[0] != '+')
            return 0;
        where[k] = first + c;
        c++;
        p = cpu->end;
    }
    for (size_t k = 0; k < ncell / 2; k++)
        r->cell[where[k]] = cells[k];
    return 1;
}

static void place_latencies(const tok *tk, size_t ntok, int first, bl_bonnie_run *r)
{
    size_t n = ntok - 1;
    for (size_t k = 0; k < n && k < BL_BONNIE_NIO; k++) {
        const tok *l = &tk[1 + k];
        int c = (int)k;
        if (n != BL_BONNIE_NIO && l->end >= LAT_FIRST_END - 5)
            c = (int)((l->end - 1 - (LAT_FIRST_END - 5)) / CELL_COLS);
        if (c < 0 || c >= BL_BONNIE_NIO)
            continue;
        char buf[32];
        copy_tok(buf, sizeof buf, l);
        double ns;
        const char *end;
        if (bl_parse_duration_ns(buf, 1000, &ns, &end) && *end == '\0')
            r->cell[first + c].lat_ns = ns;
    }
}

static int leading_ok(const tok *t)
{
    return isdigit((unsigned char)t->s[0]);
}

/* One result row of the fixed-width table (first = 0 for transfers, 6 for file tests). */
static int parse_row(const char *s, int first, bl_bonnie_run *r, long line)
{
    tok tk[32];
    size_t n = tokenize(s, tk, 32);
    if (n < 3 || n > 32)
        return 0;
    size_t lead = n % 2 ? 1 : 2;
    if (!leading_ok(&tk[lead - 1]))
        return 0;
    if (!place_cells(tk, n, lead, first, r, line))
        return 0;
    if (lead == 2)
        copy_tok(r->host, sizeof r->host, &tk[0]);
    if (first == 0)
        copy_tok(r->size, sizeof r->size, &tk[lead - 1]);
    else
        copy_tok(r->files, sizeof r->files, &tk[lead - 1]);
    return 1;
}

static void table_version(const char *s, char *version, size_t cap)
{
    const char *v = strstr(s, "Version");
    if (!v)
        return;
    tok tk[2];
    if (tokenize(v, tk, 2) >= 2 && isdigit((unsigned char)tk[1].s[0]))
        copy_tok(version, cap, &tk[1]);
}

static int is_latency(const char *s)
{
    return strncmp(s + strspn(s, " \t"), "Latency", 7) == 0;
}

/* Reads the rows below a group header; returns the first line index after them. */
/* A line that has the shape of a result row (a label, then six or more figures) but could
 * not be read as one: worth a message rather than a silent end of the table. */
static int row_shaped(const char *s)
{
    tok tk[32];
    size_t n = tokenize(s, tk, 32), figs = 0;
    for (size_t k = 1; k < n && k < 32; k++)
        figs += isdigit((unsigned char)tk[k].s[0]) || tk[k].s[0] == '+';
    return n >= 7 && figs >= 6 && !bl_bonnie_table_start(s);
}

static size_t fixed_block(const bl_text *t, size_t i, int first, const char *version,
                          bl_bonnie_run **v, size_t *n, size_t *cap, size_t io_first, size_t io_n,
                          bl_parse_out *o)
{
    size_t j = i + 1, hdr = 0;
    char host[128] = "";
    int64_t conc = -1;
    for (; j < t->nlines && j <= i + 3; j++) {
        const char *s = t->line[j];
        tok tk[4];
        size_t nt = tokenize(s, tk, 4);
        if (nt >= 2 && strncmp(tk[0].s, "Concurrency", 11) == 0)
            conc = strtoll(tk[1].s, NULL, 10);
        if (first && nt >= 2 && strstr(s, "-Create--") && tk[0].s[0] != '-')
            copy_tok(host, sizeof host, &tk[0]);
        if (strstr(s, "%CP")) {
            hdr = j;
            break;
        }
    }
    if (!hdr)
        return i + 1;
    bl_bonnie_run *last = NULL;
    size_t row = 0;
    for (j = hdr + 1; j < t->nlines; j++) {
        const char *s = t->line[j];
        if (is_latency(s) && last) {
            tok tk[16];
            size_t nt = tokenize(s, tk, 16);
            if (nt > 16)
                break;
            place_latencies(tk, nt, first, last);
            last->last_line = (long)j + 1;
            continue;
        }
        bl_bonnie_run tmp;
        bl_bonnie_run_init(&tmp);
        if (!parse_row(s, first, &tmp, (long)j + 1)) {
            if (row_shaped(s))
                bl_out_error(o, (long)j + 1,
                             "bonnie++ %s row cannot be read (cells out of place "
                             "or not figures)",
                             first ? "file-test" : "transfer");
            break;
        }
        bl_bonnie_run *r;
        if (first && row < io_n && !(*v)[io_first + row].has_files) {
            r = &(*v)[io_first + row];
            for (int c = first; c < BL_BONNIE_NTESTS; c++)
                r->cell[c] = tmp.cell[c];
            snprintf(r->files, sizeof r->files, "%s", tmp.files);
        } else {
            r = new_run(v, n, cap, version, (long)j + 1);
            memcpy(r->cell, tmp.cell, sizeof r->cell);
            snprintf(r->host, sizeof r->host, "%s", tmp.host[0] ? tmp.host : host);
            snprintf(r->size, sizeof r->size, "%s", tmp.size);
            snprintf(r->files, sizeof r->files, "%s", tmp.files);
            r->concurrency = conc;
        }
        if (first)
            r->has_files = 1;
        else
            r->has_io = 1;
        r->last_line = (long)j + 1;
        last = r;
        row++;
    }
    return j;
}

static size_t fixed_table(const bl_text *t, size_t i, bl_bonnie_run **v, size_t *n, size_t *cap,
                          bl_parse_out *o)
{
    char version[32] = "";
    table_version(t->line[i], version, sizeof version);
    size_t io_first = *n, io_n = 0, j = i;
    if (strstr(t->line[i], "Sequential Output")) {
        j = fixed_block(t, i, 0, version, v, n, cap, 0, 0, o);
        io_n = *n - io_first;
        /* the file block follows directly, its header may repeat the version */
        if (j < t->nlines && strstr(t->line[j], "Sequential Create")) {
            table_version(t->line[j], version, sizeof version);
            j = fixed_block(t, j, BL_BONNIE_NIO, version, v, n, cap, io_first, io_n, o);
        }
    } else {
        j = fixed_block(t, i, BL_BONNIE_NIO, version, v, n, cap, io_first, 0, o);
    }
    return j;
}

/* ---- | tables ---- */

static size_t split_bars(const char *s, tok *v, size_t max)
{
    size_t n = 0;
    const char *p = strchr(s, '|');
    while (p) {
        const char *q = strchr(p + 1, '|');
        if (!q)
            break;
        const char *b = p + 1, *e = q;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (n < max)
            v[n] = (tok){b, (size_t)(e - b), (size_t)(b - s), (size_t)(e - s)};
        n++;
        p = q;
    }
    return n < max ? n : max;
}

/* "157586(100)", "482.8(1)", "+++++(+++)", or a bare figure. */
static int pipe_cell(const tok *c, int test, bl_bonnie_cell *out, long line)
{
    const char *open = memchr(c->s, '(', c->len);
    if (!open)
        return c->len && bl_bonnie_cell_parse(c->s, c->len, NULL, 0, test, out, line);
    const char *close = memchr(open, ')', c->len - (size_t)(open - c->s));
    if (!close)
        return 0;
    size_t vl = (size_t)(open - c->s);
    while (vl && c->s[vl - 1] == ' ')
        vl--;
    return bl_bonnie_cell_parse(c->s, vl, open + 1, (size_t)(close - open - 1), test, out, line);
}

static size_t pipe_table(const bl_text *t, size_t i, bl_parse_out *o, bl_bonnie_run **v, size_t *n,
                         size_t *cap)
{
    tok g[16];
    size_t ng = split_bars(t->line[i], g, 16);
    int map[BL_BONNIE_NTESTS], nmap = 0;
    for (size_t k = 0; k < ng; k++) {
        char name[64];
        copy_tok(name, sizeof name, &g[k]);
        int from = -1, count = 0;
        if (strstr(name, "Output"))
            from = 0, count = 3;
        else if (strstr(name, "Input"))
            from = 3, count = 2;
        else if (strstr(name, "Seek"))
            from = 5, count = 1;
        else if (strstr(name, "Sequential Create"))
            from = 6, count = 3;
        else if (strstr(name, "Random Create"))
            from = 9, count = 3;
        for (int c = 0; c < count && nmap < BL_BONNIE_NTESTS; c++)
            map[nmap++] = from + c;
    }
    if (nmap == 0)
        return i + 1;
    size_t j;
    for (j = i + 1; j < t->nlines && is_pipe_line(t->line[j]); j++) {
        tok c[24];
        size_t nc = split_bars(t->line[j], c, 24);
        size_t lead = 0;
        bl_bonnie_cell tmp;
        while (lead < nc && !pipe_cell(&c[lead], 5, &tmp, 0))
            lead++;
        if (lead == nc)
            continue; /* sub-header or separator */
        size_t nval = nc - lead;
        while (nval && c[lead + nval - 1].len == 0)
            nval--;
        if ((int)nval != nmap) {
            bl_out_error(o, (long)j + 1, "bonnie++ table row has %zu figures, its header has %d",
                         nval, nmap);
            continue;
        }
        bl_bonnie_run *r = new_run(v, n, cap, "", (long)j + 1);
        int ok = 1;
        for (size_t k = 0; k < nval && ok; k++)
            if (c[lead + k].len && !pipe_cell(&c[lead + k], map[k], &r->cell[map[k]], (long)j + 1))
                ok = 0;
        if (!ok) {
            bl_out_error(o, (long)j + 1, "bonnie++ table row has a cell that is not a figure");
            (*n)--;
            continue;
        }
        if (lead >= 2)
            copy_tok(r->host, sizeof r->host, &c[lead - 2]);
        if (lead >= 1)
            copy_tok(r->size, sizeof r->size, &c[lead - 1]);
        r->has_io = map[0] < BL_BONNIE_NIO;
        r->has_files = map[nmap - 1] >= BL_BONNIE_NIO;
    }
    return j;
}

size_t bl_bonnie_table_parse(const bl_text *t, size_t i, bl_parse_out *o, bl_bonnie_run **v,
                             size_t *n, size_t *cap)
{
    if (is_pipe_line(t->line[i]))
        return pipe_table(t, i, o, v, n, cap);
    return fixed_table(t, i, v, n, cap, o);
}
