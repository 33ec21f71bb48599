/* Big files of a format that can be cut (dd), read in pieces: the records of each piece that
 * stands alone are handed out and freed, so memory holds one piece, not the file. */
#include "driver_int.h"
#include "../core/normalize.h"
#include "../core/strbuf.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A big file of one format that can be cut (bl_format.cut_after: dd; cut_line: fio) is read
 * in pieces of about PIECE_LINES lines, cut where the format allows; each piece that stands alone
 * ("plain": UTF-8, the one format, nothing to normalise, no heading over its runs) is parsed,
 * its records handed out and freed. A piece that is not plain ends the cutting: the rest of
 * the file is read as one text, as it would be whole. Memory holds one piece, not the file. */
enum { PIECE_LINES = 8192 };

typedef struct pieces {
    const char *path;
    const bl_format *fmt;
    const bl_parse_opts *opts;
    bl_parse_out *out;
    bl_batch_fn fn;
    void *ctx;
    long line_base;   /* lines of the file before the piece */
    int64_t run_base; /* runs numbered before it */
    size_t emitted;   /* records handed out so far */
} pieces;

static int has_section(const bl_parse_out *o)
{
    for (size_t i = 0; i < o->recs.n; i++)
        if (bl_record_label(o->recs.v[i], "section") ||
            bl_record_label(o->recs.v[i], "test_heading"))
            return 1;
    return 0;
}

static void shift_diags(bl_diag *v, size_t n, long base)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].line > 0)
            v[i].line += base;
}

/* p's records, lines and runs moved past the pieces before, to out; then to fn, which is
 * given them to write or store before they are freed. */
static void hand_out(pieces *ps, bl_parse_out *p)
{
    int64_t top = ps->run_base;
    for (size_t i = 0; i < p->recs.n; i++) {
        bl_record *r = p->recs.v[i];
        if (r->line > 0)
            r->line += ps->line_base;
        r->run += ps->run_base;
        top = r->run > top ? r->run : top;
        bl_records_push(&ps->out->recs, r);
    }
    ps->emitted += p->recs.n;
    p->recs.n = 0;
    ps->run_base = top;
    shift_diags(p->diags, p->n_diags, ps->line_base);
    shift_diags(p->warns, p->n_warns, ps->line_base);
    bl_drv_move_diags(ps->out, p);
    if (!ps->fn || ps->out->recs.n == 0)
        return;
    ps->fn(ps->ctx, ps->out);
    for (size_t i = 0; i < ps->out->recs.n; i++)
        bl_record_free(ps->out->recs.v[i]);
    ps->out->recs.n = 0;
}

/* Parses a piece that stands alone and hands its records out; 0 (nothing done) when it
 * does not. */
static int plain_piece(pieces *ps, const char *bytes, size_t len)
{
    bl_text t, norm;
    char err[256];
    long *map = NULL;
    if (bl_text_from_bytes(&t, ps->path, bytes, len, err, sizeof err) != 0)
        return 0;
    const bl_format *fmts[64];
    int plain = t.n_notes == 0 && strcmp(t.encoding, "UTF-8") == 0 &&
                (ps->opts->as ||
                 (bl_drv_probe_formats(&t, fmts, ps->opts->patterns) == 1 && fmts[0] == ps->fmt));
    if (plain && !bl_text_is_normal(&t, BL_NORM_JOIN) &&
        bl_text_normalize(&t, BL_NORM_JOIN, &norm, &map, NULL) != 0) {
        bl_text_free(&norm);
        free(map);
        plain = 0;
    }
    bl_parse_out p;
    bl_out_init(&p, ps->out->source);
    if (plain) {
        bl_drv_parse_text(&t, &ps->fmt, 1, ps->opts->patterns, &p);
        plain = !has_section(&p);
    }
    if (plain) {
        bl_drv_finish_records(&p, ps->opts);
        hand_out(ps, &p);
    }
    bl_out_free(&p);
    bl_text_free(&t);
    return plain;
}

/* The rest of the file: a plain piece, or one text read as the whole file would be. */
static void last_piece(pieces *ps, const char *bytes, size_t len, int cutting)
{
    if (cutting && plain_piece(ps, bytes, len))
        return;
    bl_text t;
    char err[256];
    if (bl_text_from_bytes(&t, ps->path, bytes, len, err, sizeof err) != 0) {
        bl_out_error(ps->out, 0, "%s", err);
        return;
    }
    if (!(ps->emitted && bl_drv_text_is_empty(&t))) {
        /* after pieces of the format, a rest in which no format is found is still its text */
        const bl_format *fmts[64];
        bl_parse_opts opts = *ps->opts;
        if (ps->emitted && !opts.as && bl_drv_probe_formats(&t, fmts, opts.patterns) == 0)
            opts.as = ps->fmt->name;
        bl_parse_out p;
        bl_out_init(&p, ps->out->source);
        bl_drv_parse_text_as_ex(&t, &t, &opts, &p, ps->emitted > 0);
        hand_out(ps, &p);
        bl_out_free(&p);
    }
    bl_text_free(&t);
}

/* s without its line end ("\n" or "\r\n", as bl_text splits lines); returns its length, *end
 * the byte the NUL replaced. */
static size_t chop_eol(char *s, size_t n, char *end)
{
    if (n && s[n - 1] == '\n')
        n--;
    if (n && s[n - 1] == '\r')
        n--;
    *end = s[n];
    s[n] = 0;
    return n;
}

/* Lines of a file read in blocks (a line may hold NUL bytes: the text marks it). */
typedef struct line_reader {
    FILE *f;
    size_t pos, len;
    bl_strbuf spill; /* a line that two blocks hold, put together */
    char blk[1 << 16];
} line_reader;

/* The next line, its end included, in *s and *n: in the block where one holds it whole (most
 * lines: not copied), else in r->spill. 1, or 0 at the end, or -1 past BL_TEXT_LINE_MAX (where
 * bl_text_load stops reading too). The caller may write into the line. */
static int read_line(line_reader *r, char **s, size_t *n)
{
    bl_strbuf_reset(&r->spill);
    for (;;) {
        if (r->pos == r->len) {
            r->len = fread(r->blk, 1, sizeof r->blk, r->f);
            r->pos = 0;
            if (r->len == 0) {
                *s = r->spill.s;
                *n = r->spill.len;
                return r->spill.len > 0;
            }
        }
        char *b = r->blk + r->pos, *nl = memchr(b, '\n', r->len - r->pos);
        size_t take = nl ? (size_t)(nl - b) + 1 : r->len - r->pos;
        r->pos += take;
        if (nl && r->spill.len == 0) {
            *s = b;
            *n = take;
            return 1;
        }
        bl_strbuf_putn(&r->spill, b, take);
        if (r->spill.len > BL_TEXT_LINE_MAX)
            return -1;
        if (nl) {
            *s = r->spill.s;
            *n = r->spill.len;
            return 1;
        }
    }
}

/* The text read so far, and where it may be cut. */
typedef struct pbuf {
    bl_strbuf buf;
    long lines;      /* lines in buf */
    size_t cut;      /* cut_after: where the last non-blank line ends in buf */
    long cut_lines;  /* lines up to there */
    size_t mark;     /* cut_line: where the marked line starts in buf */
    long mark_lines; /* lines before it */
    int marked;
    int cutting;
    bl_cut_state st;
} pbuf;

/* The piece buf[0..at) (n lines) parsed and handed out, buf keeping the rest; when it does
 * not stand alone, cutting ends and the whole rest is read as one text. */
static void cut_at(pieces *ps, pbuf *b, size_t at, long n)
{
    if (!plain_piece(ps, b->buf.s, at)) {
        b->cutting = 0;
        return;
    }
    ps->line_base += n;
    memmove(b->buf.s, b->buf.s + at, b->buf.len - at + 1);
    b->buf.len -= at;
    b->lines -= n;
    b->cut = b->cut > at ? b->cut - at : 0;
    b->cut_lines = b->cut_lines > n ? b->cut_lines - n : 0;
    b->marked = 0;
}

/* A format's cutter on the line about to be added to buf. */
static void cutter(pieces *ps, pbuf *b, const char *line)
{
    bl_cut c = ps->fmt->cut_line(&b->st, line);
    if (c == BL_CUT_NEVER)
        b->cutting = 0;
    if (c == BL_CUT_MARK || c == BL_CUT_HERE) {
        b->mark = b->buf.len;
        b->mark_lines = b->lines;
        b->marked = 1;
    }
    if (c == BL_CUT_DROP)
        b->marked = 0;
    if ((c == BL_CUT_HERE || c == BL_CUT_CONFIRM) && b->marked && b->mark_lines >= PIECE_LINES)
        cut_at(ps, b, b->mark, b->mark_lines);
}

int bl_drv_pieces_parse(const char *path, const bl_format *fmt, const bl_parse_opts *opts,
                        bl_parse_out *out, bl_batch_fn fn, void *ctx, size_t *emitted)
{
    pieces own = {path, fmt, opts, out, fn, ctx, 0, 0, 0};
    pieces *ps = &own;
    FILE *f = fopen(ps->path, "rb");
    if (!f) {
        bl_out_error(ps->out, 0, "cannot open: %s", strerror(errno));
        return 1;
    }
    pbuf b = {.cutting = 1};
    bl_strbuf prev;
    bl_strbuf_init(&b.buf);
    bl_strbuf_init(&prev);
    bl_strbuf_putn(&b.buf, "", 0);
    int got;
    line_reader *rd = bl_xmalloc(sizeof *rd);
    rd->f = f;
    rd->pos = rd->len = 0;
    bl_strbuf_init(&rd->spill);
    char *line;
    size_t n;
    while ((got = read_line(rd, &line, &n)) > 0) {
        char end;
        size_t len = chop_eol(line, n, &end);
        int blank = line[strspn(line, " \t\f")] == '\0';
        if (b.cutting && ps->fmt->cut_line)
            cutter(ps, &b, line);
        else if (!blank && b.cutting && b.lines >= PIECE_LINES && prev.len && ps->fmt->cut_after &&
                 ps->fmt->cut_after(prev.s, line))
            cut_at(ps, &b, b.cut, b.cut_lines);
        if (len < n && !(len == n - 1 && end == '\r')) { /* the line with its own end */
            line[len] = end;
            bl_strbuf_putn(&b.buf, line, n);
        } else { /* the last line: none, or a lone CR that becomes \n */
            bl_strbuf_putn(&b.buf, line, len);
            bl_strbuf_putn(&b.buf, "\n", n - len);
        }
        b.lines++;
        if (!blank) {
            if (ps->fmt->cut_after) { /* only cut_after reads the line before */
                bl_strbuf_reset(&prev);
                bl_strbuf_putn(&prev, line, len);
            }
            b.cut = b.buf.len;
            b.cut_lines = b.lines;
        }
    }
    bl_strbuf_free(&rd->spill);
    free(rd);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        bl_out_error(ps->out, 0, "cannot read: %s", strerror(errno));
    else
        last_piece(ps, b.buf.s, b.buf.len, b.cutting);
    if (got < 0)
        bl_out_error(ps->out, ps->line_base + b.lines + 1,
                     "line longer than 8 MiB: not a benchmark's output; reading stopped here");
    bl_strbuf_free(&b.buf);
    bl_strbuf_free(&prev);
    *emitted = ps->emitted;
    return bad;
}
