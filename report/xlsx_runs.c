/* The workbook's runs, gathered as the records are walked once: what names each run's sheet
 * and fills its Sources and Disks rows, so that no record needs to be held. */
#include "../core/fields.h"
#include "../core/record_decode.h"
#include "../core/strbuf.h"
#include "xlsx_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What names a run for a reader: its labels that tell set-ups and jobs apart, in this
 * order; the file name (often a hash) and run number only when it has none. */
static const char *const name_keys[BL_XRUN_NAME_KEYS] = {"host",   "section", "row",
                                                         "column", "job",     "suite"};

static void run_key(const bl_record *r, bl_strbuf *sb)
{
    bl_strbuf_reset(sb);
    bl_strbuf_printf(sb, "%s\x1f%lld", r->source ? r->source : "", (long long)r->run);
}

void bl_xlsx_runs_want(bl_decode_want *want)
{
    /* bl_xruns_add's: the run's key and head, name labels, devices; has_lat and add_pcts */
    static const char *const names[] = {"source",       "line",    "run",      "tool",
                                        "tool_version", "labels",  "clat_ns",  "slat_ns",
                                        "lat_ns",       "sync_ns", "disk_util"};
    want->fields = 0;
    want->pct_keys = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        want->fields |= BL_DECODE_FIELD(bl_field_find(names[i]) - bl_fields);
}

long bl_xruns_find(const bl_xruns *runs, const bl_record *r)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    run_key(r, &sb);
    long k = bl_smap_get(&runs->map, sb.s);
    bl_strbuf_free(&sb);
    return k;
}

static int has_lat(const bl_lat *l)
{
    return l->present && (bl_present(l->mean) || l->n_pct > 0);
}

/* The percentiles reported anywhere, first seen first; at most BL_XLSX_MAX_PCT of them. */
static void add_pcts(bl_xruns *runs, const bl_record *r)
{
    const bl_lat *ls[] = {&r->clat_ns, &r->lat_ns, &r->slat_ns, &r->sync_ns};
    for (size_t k = 0; k < 4; k++)
        for (size_t p = 0; p < ls[k]->n_pct; p++) {
            size_t j = 0;
            while (j < runs->np && runs->pct[j] != ls[k]->pct[p].pct)
                j++;
            if (j == runs->np && runs->np < BL_XLSX_MAX_PCT)
                runs->pct[runs->np++] = ls[k]->pct[p].pct;
        }
    runs->any_lat |= has_lat(&r->clat_ns) || has_lat(&r->lat_ns) || has_lat(&r->sync_ns);
    for (size_t k = 0; k < 4; k++) /* the Latency sheet's rows, if any: one per kind */
        runs->n_lat_rows += has_lat(ls[k]);
}

/* A label the run's records share (a table row that changes within the run names tests, not
 * the run). */
static void add_names(bl_xrun *run, const bl_record *r)
{
    for (size_t k = 0; k < BL_XRUN_NAME_KEYS; k++) {
        if (run->name_varies[k])
            continue;
        const char *w = bl_record_label(r, name_keys[k]);
        if (!w || (run->n && strcmp(run->name_v[k], w) != 0)) {
            run->name_varies[k] = 1;
            free(run->name_v[k]);
            run->name_v[k] = NULL;
        } else if (!run->n) {
            run->name_v[k] = bl_xstrdup(w);
        }
    }
}

void bl_xruns_add(bl_xruns *runs, const bl_record *r)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    run_key(r, &sb);
    long k = bl_smap_get(&runs->map, sb.s);
    if (k < 0) {
        bl_grow((void **)&runs->v, &runs->cap, runs->n + 1, sizeof *runs->v);
        bl_xrun *run = &runs->v[runs->n];
        memset(run, 0, sizeof *run);
        run->key = bl_strbuf_take(&sb);
        run->source = r->source ? bl_xstrdup(r->source) : NULL;
        run->tool = r->tool ? bl_xstrdup(r->tool) : NULL;
        run->version = r->tool_version ? bl_xstrdup(r->tool_version) : NULL;
        run->run = r->run;
        bl_strbuf lb;
        bl_strbuf_init(&lb);
        bl_xlsx_labels_text(r, &lb);
        run->labels = bl_strbuf_take(&lb);
        run->line = -1;
        bl_smap_put(&runs->map, run->key, runs->n);
        k = (long)runs->n++;
    }
    bl_xrun *run = &runs->v[k];
    add_names(run, r);
    run->n++;
    if (r->line >= 0 && (run->line < 0 || r->line < run->line))
        run->line = r->line;
    /* a parser puts the same devices on every record of the run: the first that has them */
    if (!run->disks && r->n_disks)
        run->disks = bl_record_clone(r);
    add_pcts(runs, r);
    runs->n_records++;
    bl_strbuf_free(&sb);
}

/* Appends at most max characters of UTF-8 text s, none of Excel's []:*?/\' in sheet names;
 * returns the characters appended. */
static size_t put_chars(char *out, size_t *o, size_t n, const char *s, size_t max)
{
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && chars < max; chars++) {
        size_t len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : 4;
        if (*o + len + 1 > n)
            break;
        if (len == 1 && strchr("[]:*?/\\'", *p))
            out[(*o)++] = '_';
        else
            for (size_t i = 0; i < len && p[i]; i++)
                out[(*o)++] = (char)p[i];
        p += len;
    }
    out[*o] = 0;
    return chars;
}

static void run_label(const bl_xrun *run, bl_strbuf *sb)
{
    for (size_t k = 0; k < BL_XRUN_NAME_KEYS; k++) {
        const char *v = run->name_v[k];
        if (v && *v)
            bl_strbuf_printf(sb, "%s%s", sb->len ? " " : "", v);
    }
    if (sb->len)
        return;
    bl_strbuf_printf(sb, "%s #%lld", run->tool ? run->tool : "run", (long long)run->run);
}

static size_t utf8_chars(const char *s)
{
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        len += (*p & 0xC0) != 0x80;
    return len;
}

/* The last max characters of s. */
static const char *utf8_tail(const char *s, size_t max)
{
    size_t len = utf8_chars(s);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t skip = len > max ? len - max : 0; skip; p++)
        if ((p[1] & 0xC0) != 0x80)
            skip--;
    return (const char *)p;
}

/* The words of a label (split at spaces), and in how many runs' labels each occurs. */
typedef struct {
    char *w[32];
    size_t n;
} words;

static void split_words(const char *s, words *out)
{
    out->n = 0;
    while (*s && out->n < 32) {
        s += strspn(s, " ");
        size_t len = strcspn(s, " ");
        if (len)
            out->w[out->n++] = bl_xstrndup(s, len);
        s += len;
    }
}

static void free_words(words *ws)
{
    for (size_t i = 0; i < ws->n; i++)
        free(ws->w[i]);
    ws->n = 0;
}

/* "4 CIFS （ZIL、L2ARC共…保護有り） 10": the run's number (unique whatever the labels) and
 * the words of its labels that tell it apart, at most 31 characters. The rarest word among the
 * runs comes first (cut in its middle only when it alone cannot fit), then the words that are
 * rare and short, kept in the label's order; the whole name is the sheet's title cell. */
static void sheet_name(char *out, size_t n, size_t index, const bl_smap *df, const size_t *counts,
                       const words *mine)
{
    char pre[32];
    snprintf(pre, sizeof pre, "%zu ", index + 1);
    size_t o = 0, budget = 31 - strlen(pre);
    put_chars(out, &o, n, pre, 31);
    size_t freq[32], pick[32] = {0}, rarest = 0;
    for (size_t i = 0; i < mine->n; i++) {
        long at = bl_smap_get(df, mine->w[i]);
        freq[i] = at < 0 ? 1 : counts[at];
        if (freq[i] < freq[rarest])
            rarest = i;
    }
    if (!mine->n)
        return;
    size_t used = 0, rare_len = utf8_chars(mine->w[rarest]);
    size_t rare_room = budget > 10 && mine->n > 1 ? budget - 10 : budget;
    pick[rarest] = rare_len > rare_room ? rare_room : rare_len;
    used = pick[rarest];
    for (;;) { /* then by freq × length, ascending, while they fit */
        size_t best = mine->n;
        for (size_t i = 0; i < mine->n; i++) {
            size_t len = utf8_chars(mine->w[i]);
            if (pick[i] || used + 1 + len > budget)
                continue;
            if (best == mine->n || freq[i] * len < freq[best] * utf8_chars(mine->w[best]))
                best = i;
        }
        if (best == mine->n)
            break;
        pick[best] = utf8_chars(mine->w[best]);
        used += 1 + pick[best];
    }
    int first = 1;
    for (size_t i = 0; i < mine->n; i++) {
        if (!pick[i])
            continue;
        if (!first)
            put_chars(out, &o, n, " ", 1);
        first = 0;
        size_t len = utf8_chars(mine->w[i]);
        if (pick[i] >= len) {
            put_chars(out, &o, n, mine->w[i], len);
            continue;
        }
        size_t head = (pick[i] - 1) / 2 + (pick[i] - 1) % 2, tail = pick[i] - 1 - head;
        put_chars(out, &o, n, mine->w[i], head);
        put_chars(out, &o, n, "~", 1);
        put_chars(out, &o, n, utf8_tail(mine->w[i], tail), tail);
    }
}

void bl_xrun_title(const bl_xrun *run, bl_strbuf *sb)
{
    run_label(run, sb);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bl_xruns_finish(bl_xruns *runs)
{
    words *all = bl_xcalloc(runs->n + 1, sizeof *all);
    bl_strbuf label;
    bl_strbuf_init(&label);
    for (size_t k = 0; k < runs->n; k++) {
        bl_strbuf_reset(&label);
        run_label(&runs->v[k], &label);
        split_words(label.s, &all[k]);
    }
    /* In how many runs each word occurs (once per run). */
    bl_smap df = {0};
    size_t *counts = NULL, nw = 0, cap = 0;
    for (size_t k = 0; k < runs->n; k++)
        for (size_t i = 0; i < all[k].n; i++) {
            const char *w = all[k].w[i];
            int again = 0;
            for (size_t q = 0; q < i && !again; q++)
                again = strcmp(all[k].w[q], w) == 0;
            if (again)
                continue;
            long at = bl_smap_get(&df, w);
            if (at >= 0) {
                counts[at]++;
                continue;
            }
            if (nw == cap) {
                cap = cap ? 2 * cap : 64;
                counts = bl_xrealloc(counts, cap * sizeof *counts);
            }
            counts[nw] = 1;
            bl_smap_put(&df, w, nw++);
        }
    for (size_t k = 0; k < runs->n; k++)
        sheet_name(runs->v[k].sheet, sizeof runs->v[k].sheet, k, &df, counts, &all[k]);
    bl_smap_free(&df);
    free(counts);
    for (size_t k = 0; k < runs->n; k++)
        free_words(&all[k]);
    free(all);
    bl_strbuf_free(&label);
    qsort(runs->pct, runs->np, sizeof *runs->pct, cmp_double);
}

void bl_xruns_free(bl_xruns *runs)
{
    for (size_t k = 0; k < runs->n; k++) {
        bl_xrun *run = &runs->v[k];
        free(run->key);
        free(run->source);
        free(run->tool);
        free(run->version);
        free(run->labels);
        free(run->sheets.ws);
        bl_record_free(run->disks);
        for (size_t i = 0; i < BL_XRUN_NAME_KEYS; i++)
            free(run->name_v[i]);
    }
    free(runs->v);
    bl_smap_free(&runs->map);
    memset(runs, 0, sizeof *runs);
}
