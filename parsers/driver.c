#include "driver.h"
#include "../core/consistency.h"
#include "../core/escape.h"
#include "../core/figures.h"
#include "../core/jsonl.h"
#include "../core/normalize.h"
#include "../core/strbuf.h"
#include "../core/when.h"
#include "driver_int.h"
#include "sections.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Files larger than this are probed on their head and tail only, and streamed when the one
 * format found there can: no size from which reading costs more (the whole text and its
 * records held) than the format needs. */
#define BL_PROBE_BYTES (1u << 20)

/* One record on its way to the merged output: which format gave it and under which run. */
typedef struct slot {
    size_t fmt;
    int64_t run;   /* the parser's run number */
    int64_t first; /* first line of that run */
    size_t idx;    /* position in the parser's output, to keep its order */
    bl_record *rec;
} slot;

/* src's messages (sv[0..n)) copied to the end of dst's list with dst's source name, as
 * bl_out_error on dst with "%s" would give them, without printing each again. */
static void copy_list(const bl_parse_out *dst, bl_diag **dv, size_t *dn, size_t *dcap,
                      const bl_diag *sv, size_t n)
{
    void *p = *dv;
    bl_grow(&p, dcap, *dn + n, sizeof **dv);
    *dv = p;
    for (size_t i = 0; i < n; i++)
        (*dv)[(*dn)++] = (bl_diag){.source = bl_xstrdup(dst->source ? dst->source : ""),
                                   .line = sv[i].line,
                                   .msg = bl_xstrdup(sv[i].msg)};
}

void bl_drv_move_diags(bl_parse_out *dst, bl_parse_out *src)
{
    copy_list(dst, &dst->diags, &dst->n_diags, &dst->cap_diags, src->diags, src->n_diags);
    copy_list(dst, &dst->warns, &dst->n_warns, &dst->cap_warns, src->warns, src->n_warns);
}

/* "job\x1fop" of a record, the identity of a run's direction across fio's output forms. */
static char *job_op_key(const bl_record *r)
{
    const char *job = bl_record_label(r, "job");
    if (!job || !r->op)
        return NULL;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s\x1f%s", job, r->op);
    return bl_strbuf_take(&sb);
}

/* Whether two printings of a figure agree: the coarser form prints three significant
 * digits (fio's "51.6MiB/s", "1024MiB") or whole KiB and ms (terse), so 1% plus one unit of
 * `slack`. Unknown on either side proves nothing (-1); otherwise 1 or 0. */
static int figure_agrees(double a, double b, double slack)
{
    if (!(a >= 0) || !(b >= 0))
        return -1;
    double big = a > b ? a : b;
    return fabs(a - b) <= 0.01 * big + slack;
}

/* The same run printed twice (terse,normal or json,normal of one fio run): the job and
 * direction are not enough (--name=test is fio's most common job name), the figures must
 * agree too: bytes moved and bandwidth, with the runtime and mean completion latency when
 * both give them. */
static int same_run(const bl_record *a, const bl_record *b)
{
    int io = figure_agrees((double)a->io_bytes, (double)b->io_bytes, 1024);
    int bw = figure_agrees(a->bw_bytes_s, b->bw_bytes_s, 1024);
    /* runtimes are whole ms in every form: time-based runs of 60 s differ there */
    int rt = !(a->runtime_s >= 0) || !(b->runtime_s >= 0)
                 ? -1
                 : fabs(a->runtime_s - b->runtime_s) <= 0.0015;
    /* the mean completion latency sets apart two rate-limited runs of equal speed */
    double ca = a->clat_ns.present ? a->clat_ns.mean : BL_ABSENT;
    double cb = b->clat_ns.present ? b->clat_ns.mean : BL_ABSENT;
    int clat = figure_agrees(ca, cb, 10);
    if (io == 0 || bw == 0 || rt == 0 || clat == 0)
        return 0;
    return io == 1 || bw == 1;
}

typedef struct keyed {
    char *key;
    const bl_record *rec;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

/* Whether some record of high[0..n) (sorted by key) has r's job and direction and figures. */
static int repeated_in(const keyed *high, size_t n, const char *key, const bl_record *r)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first entry not below key */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(high[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < n && strcmp(high[i].key, key) == 0; i++)
        if (same_run(high[i].rec, r))
            return 1;
    return 0;
}

/* Drops from `low` every record that repeats a record of `high`: same job and direction
 * and the same figures. A namesake with other figures is another run and stays. */
static void drop_repeated(bl_records *low, const bl_records *high)
{
    keyed *keys = bl_xcalloc(high->n + 1, sizeof *keys);
    size_t nk = 0;
    for (size_t i = 0; i < high->n; i++)
        if ((keys[nk].key = job_op_key(high->v[i])))
            keys[nk++].rec = high->v[i];
    if (nk > 1)
        qsort(keys, nk, sizeof *keys, cmp_keyed);
    size_t keep = 0;
    for (size_t i = 0; i < low->n; i++) {
        char *k = job_op_key(low->v[i]);
        if (k && nk && repeated_in(keys, nk, k, low->v[i]))
            bl_record_free(low->v[i]);
        else
            low->v[keep++] = low->v[i];
        free(k);
    }
    low->n = keep;
    for (size_t i = 0; i < nk; i++)
        free(keys[i].key);
    free(keys);
}

/* Within a family, a lower-rank format's record that repeats a run a higher-rank format
 * gave is dropped: "terse,normal" output describes one run twice. */
static void drop_family_duplicates(const bl_format **fmts, bl_parse_out *outs, size_t n)
{
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            if (a != b && fmts[a]->family && fmts[b]->family &&
                strcmp(fmts[a]->family, fmts[b]->family) == 0 && fmts[b]->rank > fmts[a]->rank)
                drop_repeated(&outs[a].recs, &outs[b].recs);
}

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

static int cmp_by_run(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->fmt != y->fmt)
        return x->fmt < y->fmt ? -1 : 1;
    if (x->run != y->run)
        return cmp_i64(x->run, y->run);
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Runs in the order they start in the text; a run's records in the parser's order. */
static int cmp_by_first_line(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    int c = cmp_i64(x->first, y->first);
    if (c)
        return c;
    return cmp_by_run(a, b);
}

/* qsort, skipped when s is in order already (one format's records mostly are): both orders
 * are total (fmt, run and idx tell every slot apart), so the sorted order is the one order. */
static void sort_slots(slot *s, size_t n, int (*cmp)(const void *, const void *))
{
    for (size_t i = 1; i < n; i++)
        if (cmp(&s[i - 1], &s[i]) > 0) {
            qsort(s, n, sizeof *s, cmp);
            return;
        }
}

/* Moves every format's records into out, runs numbered 1.. in the order they start in the
 * text. Sorting keeps this O(n log n) for sources with 100,000 runs. */
static void merge_runs(bl_parse_out *outs, size_t n, bl_parse_out *out)
{
    size_t total = 0;
    for (size_t f = 0; f < n; f++)
        total += outs[f].recs.n;
    if (total == 0)
        return;
    slot *s = bl_xmalloc(total * sizeof *s);
    size_t k = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < outs[f].recs.n; i++) {
            bl_record *r = outs[f].recs.v[i];
            s[k++] = (slot){f, r->run, r->line, i, r};
        }
    sort_slots(s, total, cmp_by_run);
    for (size_t i = 0; i < total;) {
        size_t j = i;
        int64_t first = -1;
        for (; j < total && s[j].fmt == s[i].fmt && s[j].run == s[i].run; j++)
            if (s[j].rec->line >= 0 && (first < 0 || s[j].rec->line < first))
                first = s[j].rec->line;
        for (size_t m = i; m < j; m++)
            s[m].first = first;
        i = j;
    }
    sort_slots(s, total, cmp_by_first_line);
    int64_t number = 0;
    for (size_t i = 0; i < total; i++) {
        if (i == 0 || s[i].fmt != s[i - 1].fmt || s[i].run != s[i - 1].run)
            number++;
        s[i].rec->run = number;
        bl_records_push(&out->recs, s[i].rec);
    }
    for (size_t f = 0; f < n; f++)
        outs[f].recs.n = 0; /* the records now belong to out */
    free(s);
}

/* The model's door (core/figures.h): a record with a figure no device can print is
 * refused with FILE:LINE and the field; the others keep their order. */
static void refuse_impossible(bl_parse_out *out)
{
    size_t kept = 0;
    char why[256];
    for (size_t i = 0; i < out->recs.n; i++) {
        bl_record *r = out->recs.v[i];
        if (bl_figures_check(r, why, sizeof why) == 0) {
            out->recs.v[kept++] = r;
            continue;
        }
        bl_out_error(out, (long)r->line, "%s: record refused", why);
        bl_record_free(r);
    }
    out->recs.n = kept;
}

/* The user's labels, and the consistency check of every record whatever its format: a
 * record whose figures disagree is kept as printed, with a note and a warning. */
void bl_drv_finish_records(bl_parse_out *out, const bl_parse_opts *opts)
{
    refuse_impossible(out);
    bl_when_cache when = {0}; /* a run's records share their job's date */
    for (size_t i = 0; i < out->recs.n; i++) {
        bl_record *r = out->recs.v[i];
        bl_when_from_date_label_cached(r, &when); /* the text's own time, as the parser read it */
        for (size_t l = 0; l < opts->n_labels; l++)
            bl_record_set_label(r, opts->labels[l].key, opts->labels[l].value);
        char msg[256];
        if (bl_check_and_note(r, msg, sizeof msg))
            bl_out_warn(out, (long)r->line, "warning: %s", msg);
    }
}

int bl_drv_text_is_empty(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (t->line[i][strspn(t->line[i], " \t\f")] != '\0')
            return 0;
    return 1;
}

/* A pattern-file format has no parse function: the set parses for it. */
static void parse_one_format(const bl_text *t, const bl_format *fmt, const bl_patterns *pats,
                             bl_parse_out *out)
{
    if (fmt->parse) {
        fmt->parse(t, out);
        return;
    }
    for (size_t i = 0; i < bl_patterns_count(pats); i++)
        if (bl_patterns_format(pats, i) == fmt)
            bl_patterns_parse(pats, i, t, out);
}

void bl_drv_parse_text(const bl_text *t, const bl_format **fmts, size_t nf, const bl_patterns *pats,
                       bl_parse_out *out)
{
    bl_parse_out *outs = bl_xcalloc(nf, sizeof *outs);
    for (size_t f = 0; f < nf; f++) {
        bl_out_init(&outs[f], out->source);
        parse_one_format(t, fmts[f], pats, &outs[f]);
        bl_drv_move_diags(out, &outs[f]);
    }
    drop_family_duplicates(fmts, outs, nf);
    merge_runs(outs, nf, out);
    bl_label_sections(t, out);
    for (size_t f = 0; f < nf; f++)
        bl_out_free(&outs[f]);
    free(outs);
}

/* --as NAME among our formats, then among the pattern files. */
static const bl_format *find_format(const char *name, const bl_patterns *pats)
{
    const bl_format *f = bl_format_find(name);
    for (size_t i = 0; !f && i < bl_patterns_count(pats); i++)
        if (strcmp(bl_patterns_format(pats, i)->name, name) == 0)
            f = bl_patterns_format(pats, i);
    return f;
}

static void list_formats(bl_strbuf *sb)
{
    for (size_t i = 0; i < bl_format_count(); i++)
        bl_strbuf_printf(sb, "%s%s", i ? ", " : "", bl_format_at(i)->name);
}

static int stream_parse(const char *path, const bl_format *fmt, bl_parse_out *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        bl_out_error(out, 0, "cannot open: %s", strerror(errno));
        return 1;
    }
    fmt->parse_stream(f, out);
    fclose(f);
    for (size_t i = 0; i < out->recs.n; i++)
        if (out->recs.v[i]->run < 1)
            out->recs.v[i]->run = 1;
    return 0;
}

/* The content key of a streamed file: every byte of it, read in blocks (core/digest.h). */
static void stream_hash(const char *path, bl_content_key *hash)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        bl_content_key_stream(f, hash);
        fclose(f);
        return;
    }
    bl_content_key_of("", 0, hash); /* the parse that follows says it cannot open it */
}

/* The whole lines of the file's first (from 0) or last (from -1) BL_PROBE_BYTES. */
static int load_part(const char *path, int tail, bl_text *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    if (tail && fseeko(f, -(off_t)BL_PROBE_BYTES, SEEK_END) != 0) {
        fclose(f);
        return -1;
    }
    char *buf = bl_xmalloc(BL_PROBE_BYTES);
    size_t n = fread(buf, 1, BL_PROBE_BYTES, f), skip = 0;
    fclose(f);
    if (tail) /* from the first line that starts in it */
        while (skip < n && buf[skip++] != '\n')
            ;
    while (n > skip && buf[n - 1] != '\n')
        n--; /* whole lines only */
    int rc = bl_text_from_bytes(t, path, buf + skip, n - skip, err, errlen);
    free(buf);
    return rc;
}

/* The one format both ends of the file show; else NULL. */
static const bl_format *sole_format(const char *path, const bl_patterns *pats)
{
    const bl_format *fmts[64], *found = NULL;
    char err[256];
    for (int tail = 0; tail < 2; tail++) {
        bl_text t;
        if (load_part(path, tail, &t, err, sizeof err) != 0)
            return NULL;
        size_t nf = bl_drv_probe_formats(&t, fmts, pats);
        bl_text_free(&t);
        if (nf != 1 || !fmts[0]->parse || (found && found != fmts[0]))
            return NULL;
        found = fmts[0];
    }
    return found;
}

/* The one format both ends of the file show, when it streams; else NULL (read it whole). A
 * format's probe looks at its first lines, and a stream reports every line it cannot read,
 * so another output in the middle is said, not lost. */
static const bl_format *streaming_format(const bl_format *sole)
{
    return sole && (sole->parse_stream || sole->cut_after || sole->cut_line) ? sole : NULL;
}

static int is_regular_file(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_big_file(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_size > (off_t)BL_PROBE_BYTES;
}

static int parse_text_as(const bl_text *t, bl_text *own, const bl_parse_opts *opts,
                         bl_parse_out *out);
static void move_out(bl_parse_out *dst, bl_parse_out *src);

/* A big file the format reads from its bytes (bl_format.parse_plain), finished as its text
 * would be; -1 when the format declines it, nothing done. */
static int parse_plain_file(const char *path, const bl_format *fmt, const bl_parse_opts *opts,
                            bl_parse_out *out, bl_content_key *hash)
{
    bl_parse_out p;
    bl_out_init(&p, out->source);
    if (!fmt->parse_plain(path, &p)) {
        bl_out_free(&p);
        return -1;
    }
    if (hash)
        stream_hash(path, hash);
    if (p.recs.n == 0 && p.n_diags == 0)
        bl_out_error(&p, 0, "no results found in the %s output", fmt->name);
    move_out(out, &p);
    bl_out_free(&p);
    bl_drv_finish_records(out, opts);
    return out->n_diags ? 1 : 0;
}

int bl_parse_source(const char *path, const bl_parse_opts *opts, bl_parse_out *out,
                    bl_content_key *hash)
{
    return bl_parse_source_each(path, opts, out, hash, NULL, NULL);
}

int bl_parse_source_each(const char *path, const bl_parse_opts *opts, bl_parse_out *out,
                         bl_content_key *hash, bl_batch_fn fn, void *ctx)
{
    const bl_format *forced = NULL;
    if (opts->as && strcmp(opts->as, "auto") != 0) {
        forced = find_format(opts->as, opts->patterns);
        if (!forced) {
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            list_formats(&sb);
            bl_out_error(out, 0, "unknown format '%s' (known: auto, %s)", opts->as, sb.s);
            bl_strbuf_free(&sb);
            return 2;
        }
    }
    char err[256];
    bl_text t;
    /* A streaming format, forced or the only one found, never loads the text whole; a big
     * file of a format that can be cut is read in pieces; a big plain file of a format that
     * reads one (fio JSON) is read from its bytes. */
    int big = is_big_file(path);
    const bl_format *sole = !forced && big ? sole_format(path, opts->patterns) : NULL;
    const bl_format *plain = forced ? forced : sole;
    if (big && plain && plain->parse_plain) {
        int rc = parse_plain_file(path, plain, opts, out, hash);
        if (rc >= 0)
            return rc;
    }
    const bl_format *streamed =
        forced ? (forced->parse && is_regular_file(path) &&
                          (forced->parse_stream || ((forced->cut_after || forced->cut_line) && big))
                      ? forced
                      : NULL)
               : streaming_format(sole);
    if (streamed && hash)
        stream_hash(path, hash);
    if (streamed && !streamed->parse_stream) {
        bl_parse_opts own = *opts;
        own.as = forced ? opts->as : NULL;
        size_t emitted = 0;
        int rc = bl_drv_pieces_parse(path, streamed, &own, out, fn, ctx, &emitted);
        if (rc == 0 && emitted == 0 && out->n_diags == 0)
            bl_out_error(out, 0, "no results found in the %s output", streamed->name);
        return rc || out->n_diags ? 1 : 0;
    }
    if (streamed) {
        int rc = stream_parse(path, streamed, out);
        if (rc == 0 && out->recs.n == 0 && out->n_diags == 0)
            bl_out_error(out, 0, "no results found in the %s input", streamed->name);
        bl_drv_finish_records(out, opts);
        return rc || out->n_diags ? 1 : 0;
    }
    if (bl_text_load(&t, path, err, sizeof err) != 0) {
        bl_out_error(out, 0, "%s", err);
        return 1;
    }
    if (hash)
        bl_content_key_of(t.buf, t.len, hash);
    int rc = parse_text_as(&t, &t, opts, out);
    bl_text_free(&t);
    return rc;
}

/* Probe (unless forced) and parse one reading of the text into out. */
static void parse_reading(const bl_text *t, const bl_format *forced, const bl_patterns *pats,
                          bl_parse_out *out)
{
    const bl_format *fmts[64];
    size_t nf = forced ? 1 : bl_drv_probe_formats(t, fmts, pats);
    if (forced)
        fmts[0] = forced;
    if (nf == 0)
        bl_out_error(out, 0, "no benchmark output recognised (formats: see benchlog parse --help)");
    else
        bl_drv_parse_text(t, fmts, nf, pats, out);
    if (nf && out->recs.n == 0 && out->n_diags == 0)
        bl_out_error(out, 0, "no results found in the %s output", fmts[0]->name);
}

/* Lines of the normalised text back to the lines of the file. */
static void map_lines(bl_parse_out *out, const long *orig, size_t n)
{
    for (size_t i = 0; i < out->recs.n; i++) {
        bl_record *r = out->recs.v[i];
        if (r->line >= 1 && (size_t)r->line <= n)
            r->line = orig[r->line - 1];
    }
    for (size_t i = 0; i < out->n_diags; i++)
        if (out->diags[i].line >= 1 && (size_t)out->diags[i].line <= n)
            out->diags[i].line = orig[out->diags[i].line - 1];
}

static size_t json_keys(const bl_records *rs)
{
    size_t keys = 0;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < rs->n; i++) {
        bl_strbuf_reset(&sb);
        bl_record_to_json(rs->v[i], &sb);
        for (size_t k = 0; k < sb.len; k++)
            keys += sb.s[k] == ':';
    }
    bl_strbuf_free(&sb);
    return keys;
}

/* Whether reading a found more than b: more records, else more keys in them (figures,
 * percentiles, labels). Fewer errors proves nothing: joining a bad line to a good one
 * makes the error vanish. */
static int better_reading(const bl_parse_out *a, const bl_parse_out *b)
{
    if (a->recs.n != b->recs.n)
        return a->recs.n > b->recs.n;
    return json_keys(&a->recs) > json_keys(&b->recs);
}

static void move_out(bl_parse_out *dst, bl_parse_out *src)
{
    bl_drv_move_diags(dst, src);
    for (size_t i = 0; i < src->recs.n; i++)
        bl_records_push(&dst->recs, src->recs.v[i]);
    src->recs.n = 0;
}

/* The text as pasted may be quoted, indented, marked up or wrapped by a mail client. The
 * normalised reading is parsed; when re-joining wrapped lines changes it, that reading too,
 * and the better one is kept: joining is right exactly where a format's line continues. */
static void parse_normalised(const bl_text *t, bl_text *own, const bl_format *forced,
                             const bl_patterns *pats, bl_parse_out *out)
{
    if (own) { /* the caller's own text, normalised where it stands when nothing is to join */
        long *map = NULL;
        int rc = bl_text_is_normal(own, BL_NORM_JOIN) ? 0 : bl_text_normalize_in_place(own, &map);
        if (rc >= 0) {
            bl_parse_out a;
            bl_out_init(&a, out->source);
            parse_reading(own, forced, pats, &a);
            if (rc == 1)
                map_lines(&a, map, own->nlines);
            move_out(out, &a);
            bl_out_free(&a);
            free(map);
            return;
        }
    }
    bl_text plain, joined;
    long *plain_map = NULL, *joined_map = NULL;
    size_t joins = 0;
    /* Without joins the joining reading is the plain one: one copy of the text at most. */
    int has_joined = bl_text_normalize(t, BL_NORM_JOIN, &joined, &joined_map, &joins);
    int has_plain = joins > 0 && bl_text_normalize(t, 0, &plain, &plain_map, NULL);
    bl_parse_out a, b;
    bl_out_init(&a, out->source);
    bl_out_init(&b, out->source);
    const bl_text *first = joins == 0 && has_joined ? &joined : has_plain ? &plain : t;
    parse_reading(first, forced, pats, &a);
    if (first != t)
        map_lines(&a, first == &joined ? joined_map : plain_map, first->nlines);
    bl_parse_out *best = &a;
    if (joins > 0) {
        parse_reading(&joined, forced, pats, &b);
        map_lines(&b, joined_map, joined.nlines);
        if (better_reading(&b, &a))
            best = &b;
    }
    move_out(out, best);
    bl_out_free(&a);
    bl_out_free(&b);
    if (has_plain)
        bl_text_free(&plain);
    if (has_joined)
        bl_text_free(&joined);
    free(plain_map);
    free(joined_map);
}

/* t is own when the caller lets the parse rewrite it (bl_parse_source's own text). */
static int parse_text_as(const bl_text *t, bl_text *own, const bl_parse_opts *opts,
                         bl_parse_out *out)
{
    return bl_drv_parse_text_as_ex(t, own, opts, out, 0);
}

/* The same; may_be_empty: the pieces before it held records, so none here is no error. */
int bl_drv_parse_text_as_ex(const bl_text *t, bl_text *own, const bl_parse_opts *opts,
                            bl_parse_out *out, int may_be_empty)
{
    const bl_format *forced = NULL;
    if (opts->as && strcmp(opts->as, "auto") != 0 &&
        !(forced = find_format(opts->as, opts->patterns))) {
        bl_out_error(out, 0, "unknown format '%s'", opts->as);
        return 2;
    }
    for (size_t i = 0; i < t->n_notes; i++)
        bl_out_error(out, t->notes[i].line, "%s", t->notes[i].msg);
    if (bl_drv_text_is_empty(t)) {
        if (!t->n_notes)
            bl_out_error(out, 0, "empty input: no benchmark output in it");
        return 1;
    }
    parse_normalised(t, own, forced, opts->patterns, out);
    if (may_be_empty && out->recs.n == 0 && out->n_diags &&
        out->diags[out->n_diags - 1].line == 0 &&
        strncmp(out->diags[out->n_diags - 1].msg, "no results found", 16) == 0) {
        bl_diag *d = &out->diags[--out->n_diags];
        free(d->source);
        free(d->msg);
    }
    bl_drv_finish_records(out, opts);
    return out->n_diags ? 1 : 0;
}

int bl_parse_text(const bl_text *t, const bl_parse_opts *opts, bl_parse_out *out)
{
    return parse_text_as(t, NULL, opts, out);
}

static void print_diags(const bl_diag *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const bl_diag *d = &v[i];
        /* Messages quote the text they are about: shown escaped (escape.h) on the terminal. */
        char *src = bl_esc_term_dup(d->source, BL_ESC_LINE);
        char *msg = bl_esc_term_dup(d->msg, BL_ESC_LINE);
        if (d->line > 0)
            fprintf(stderr, "%s:%ld: %s\n", src, d->line, msg);
        else
            fprintf(stderr, "%s: %s\n", src, msg);
        free(src);
        free(msg);
    }
}

void bl_print_diags(const bl_parse_out *out)
{
    print_diags(out->diags, out->n_diags);
    print_diags(out->warns, out->n_warns);
}
