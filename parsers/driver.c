#include "driver.h"
#include "../core/store.h"
#include "../core/strbuf.h"
#include "sections.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Files larger than this are probed on their head only, and streamed when the format can. */
#define BL_PROBE_BYTES (1u << 20)
#define BL_STREAM_OVER (16u << 20)

typedef struct run_key {
    size_t fmt;
    int64_t run;
    int64_t first_line;
    int64_t number; /* final run number */
} run_key;

static void move_diags(bl_parse_out *dst, bl_parse_out *src)
{
    for (size_t i = 0; i < src->n_diags; i++) {
        bl_out_error(dst, src->diags[i].line, "%s", src->diags[i].msg);
    }
}

static int has_job_op(const bl_records *rs, const bl_record *r)
{
    const char *job = bl_record_label(r, "job");
    for (size_t i = 0; i < rs->n; i++) {
        const char *j = bl_record_label(rs->v[i], "job");
        if (j && job && strcmp(j, job) == 0 && rs->v[i]->op && r->op &&
            strcmp(rs->v[i]->op, r->op) == 0)
            return 1;
    }
    return 0;
}

/* Within a family, a lower-rank format's record that repeats a run a higher-rank format
 * gave (same job and direction) is dropped: "terse,normal" output describes one run twice. */
static void drop_family_duplicates(const bl_format **fmts, bl_parse_out *outs, size_t n)
{
    for (size_t a = 0; a < n; a++) {
        for (size_t b = 0; b < n; b++) {
            if (a == b || !fmts[a]->family || !fmts[b]->family ||
                strcmp(fmts[a]->family, fmts[b]->family) != 0 || fmts[b]->rank <= fmts[a]->rank)
                continue;
            bl_records *ra = &outs[a].recs;
            size_t keep = 0;
            for (size_t i = 0; i < ra->n; i++) {
                if (bl_record_label(ra->v[i], "job") && has_job_op(&outs[b].recs, ra->v[i]))
                    bl_record_free(ra->v[i]);
                else
                    ra->v[keep++] = ra->v[i];
            }
            ra->n = keep;
        }
    }
}

static int cmp_run_key(const void *a, const void *b)
{
    const run_key *x = a, *y = b;
    if (x->first_line != y->first_line)
        return x->first_line < y->first_line ? -1 : 1;
    if (x->fmt != y->fmt)
        return x->fmt < y->fmt ? -1 : 1;
    return x->run < y->run ? -1 : x->run > y->run;
}

static run_key *find_key(run_key *keys, size_t n, size_t fmt, int64_t run)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i].fmt == fmt && keys[i].run == run)
            return &keys[i];
    return NULL;
}

/* Collects the runs of every format, numbers them in line order, and moves the records into
 * out ordered by run then line. */
static void merge_runs(bl_parse_out *outs, size_t n, bl_parse_out *out, run_key **keys_out,
                       size_t *nkeys_out)
{
    run_key *keys = NULL;
    size_t nkeys = 0, cap = 0;
    for (size_t f = 0; f < n; f++) {
        for (size_t i = 0; i < outs[f].recs.n; i++) {
            bl_record *r = outs[f].recs.v[i];
            run_key *k = find_key(keys, nkeys, f, r->run);
            if (!k) {
                void *p = keys;
                bl_grow(&p, &cap, nkeys + 1, sizeof *keys);
                keys = p;
                k = &keys[nkeys++];
                *k = (run_key){f, r->run, r->line, 0};
            } else if (r->line >= 0 && (k->first_line < 0 || r->line < k->first_line)) {
                k->first_line = r->line;
            }
        }
    }
    qsort(keys, nkeys, sizeof *keys, cmp_run_key);
    for (size_t k = 0; k < nkeys; k++) {
        keys[k].number = (int64_t)k + 1;
        for (size_t f = 0; f < n; f++) {
            if (f != keys[k].fmt)
                continue;
            for (size_t i = 0; i < outs[f].recs.n; i++) {
                bl_record *r = outs[f].recs.v[i];
                if (r && r->run == keys[k].run) {
                    r->run = keys[k].number;
                    bl_records_push(&out->recs, r);
                    outs[f].recs.v[i] = NULL;
                }
            }
        }
    }
    *keys_out = keys;
    *nkeys_out = nkeys;
}

/* Labels each run with the heading above it, looking no higher than the previous run. */
static void label_sections(const bl_text *t, bl_parse_out *out, const run_key *keys, size_t n)
{
    int64_t prev_line = 1;
    for (size_t k = 0; k < n; k++) {
        char *h = keys[k].first_line > 0
                      ? bl_heading_above(t, (long)keys[k].first_line, (long)prev_line)
                      : NULL;
        for (size_t i = 0; h && i < out->recs.n; i++) {
            bl_record *r = out->recs.v[i];
            if (r->run == keys[k].number && !bl_record_label(r, "section"))
                bl_record_set_label(r, "section", h);
        }
        free(h);
        int64_t last = keys[k].first_line;
        for (size_t i = 0; i < out->recs.n; i++)
            if (out->recs.v[i]->run == keys[k].number && out->recs.v[i]->line > last)
                last = out->recs.v[i]->line;
        prev_line = last + 1;
    }
}

static void apply_user_labels(bl_parse_out *out, const bl_parse_opts *opts)
{
    for (size_t i = 0; i < out->recs.n; i++)
        for (size_t l = 0; l < opts->n_labels; l++)
            bl_record_set_label(out->recs.v[i], opts->labels[l].key, opts->labels[l].value);
}

static int text_is_empty(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (t->line[i][strspn(t->line[i], " \t\f")] != '\0')
            return 0;
    return 1;
}

static void parse_text(const bl_text *t, const bl_format **fmts, size_t nf, bl_parse_out *out)
{
    bl_parse_out *outs = bl_xcalloc(nf, sizeof *outs);
    for (size_t f = 0; f < nf; f++) {
        bl_out_init(&outs[f], out->source);
        fmts[f]->parse(t, &outs[f]);
        move_diags(out, &outs[f]);
    }
    drop_family_duplicates(fmts, outs, nf);
    run_key *keys;
    size_t nkeys;
    merge_runs(outs, nf, out, &keys, &nkeys);
    label_sections(t, out, keys, nkeys);
    free(keys);
    for (size_t f = 0; f < nf; f++) {
        outs[f].recs.n = 0; /* records moved to out */
        bl_out_free(&outs[f]);
    }
    free(outs);
}

static size_t probe_formats(const bl_text *t, const bl_format **fmts)
{
    size_t n = 0;
    for (size_t i = 0; i < bl_format_count(); i++)
        if (bl_format_at(i)->probe(t) > 0)
            fmts[n++] = bl_format_at(i);
    return n;
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
        bl_out_error(out, 0, "cannot open");
        return 1;
    }
    fmt->parse_stream(f, out);
    fclose(f);
    for (size_t i = 0; i < out->recs.n; i++)
        if (out->recs.v[i]->run < 1)
            out->recs.v[i]->run = 1;
    return 0;
}

/* Identity of a huge file without reading it twice: size plus its first and last MiB. */
static void stream_hash(const char *path, char hash[33])
{
    FILE *f = fopen(path, "rb");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0) {
        char *buf = bl_xmalloc(1u << 20);
        size_t n = fread(buf, 1, 1u << 20, f);
        bl_strbuf_printf(&sb, "%lld:", (long long)st.st_size);
        bl_strbuf_putn(&sb, buf, n);
        if (st.st_size > (off_t)(2u << 20) && fseeko(f, st.st_size - (1 << 20), SEEK_SET) == 0) {
            n = fread(buf, 1, 1u << 20, f);
            bl_strbuf_putn(&sb, buf, n);
        }
        free(buf);
    }
    if (f)
        fclose(f);
    bl_content_hash(sb.s ? sb.s : "", sb.len, hash);
    bl_strbuf_free(&sb);
}

static int load_head(const char *path, bl_text *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *buf = bl_xmalloc(BL_PROBE_BYTES);
    size_t n = fread(buf, 1, BL_PROBE_BYTES, f);
    fclose(f);
    while (n > 0 && buf[n - 1] != '\n')
        n--; /* whole lines only */
    int rc = bl_text_from_bytes(t, path, buf, n, err, errlen);
    free(buf);
    return rc;
}

static int is_huge_file(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_size > (off_t)BL_STREAM_OVER;
}

int bl_parse_source(const char *path, const bl_parse_opts *opts, bl_parse_out *out,
                    char hash[33])
{
    const bl_format *forced = NULL;
    if (opts->as && strcmp(opts->as, "auto") != 0) {
        forced = bl_format_find(opts->as);
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
    int huge = is_huge_file(path);
    if (huge && forced && forced->parse_stream) {
        if (hash)
            stream_hash(path, hash);
        int rc = stream_parse(path, forced, out);
        apply_user_labels(out, opts);
        return rc || out->n_diags ? 1 : 0;
    }
    if (huge && !forced && load_head(path, &t, err, sizeof err) == 0) {
        const bl_format *fmts[64];
        size_t nf = probe_formats(&t, fmts);
        bl_text_free(&t);
        if (nf == 1 && fmts[0]->parse_stream) {
            if (hash)
                stream_hash(path, hash);
            int rc = stream_parse(path, fmts[0], out);
            apply_user_labels(out, opts);
            return rc || out->n_diags ? 1 : 0;
        }
    }
    if (bl_text_load(&t, path, err, sizeof err) != 0) {
        bl_out_error(out, 0, "%s", err);
        return 1;
    }
    if (hash)
        bl_content_hash(t.buf, t.len, hash);
    if (text_is_empty(&t)) {
        bl_out_error(out, 0, "empty input: no benchmark output in it");
        bl_text_free(&t);
        return 1;
    }
    const bl_format *fmts[64];
    size_t nf = forced ? 1 : probe_formats(&t, fmts);
    if (forced)
        fmts[0] = forced;
    if (nf == 0)
        bl_out_error(out, 0, "no benchmark output recognised (formats: see benchlog parse --help)");
    else
        parse_text(&t, fmts, nf, out);
    if (nf && out->recs.n == 0 && out->n_diags == 0)
        bl_out_error(out, 0, "no results found in the %s output", fmts[0]->name);
    apply_user_labels(out, opts);
    bl_text_free(&t);
    return out->n_diags ? 1 : 0;
}

void bl_print_diags(const bl_parse_out *out)
{
    for (size_t i = 0; i < out->n_diags; i++) {
        const bl_diag *d = &out->diags[i];
        if (d->line > 0)
            fprintf(stderr, "%s:%ld: %s\n", d->source, d->line, d->msg);
        else
            fprintf(stderr, "%s: %s\n", d->source, d->msg);
    }
}
