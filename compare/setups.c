/* What a column of the comparison is: the set-up key of a record, and the column titles and
 * legend labels made from the keys. */
#include "setups.h"
#include "../core/filter.h"
#include "../core/strbuf.h"
#include "fmt.h"
#include "smap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The set-up a record belongs to when nothing names it: its source, heading, table row,
 * table column and machine. A table row names a set-up only when it is the same over the
 * run's records (blog 003: one row a ZFS setting); a row that changes within the run names
 * tests (blog 000: "seq read", "rand write 4k" under set-up columns). One bonnie++ CSV file
 * may hold lines of seven machines: their host label keeps them apart. */
static const char *setup_key(const bl_record *r, int row_names_setup, char *buf, size_t n)
{
    const char *sec = bl_record_label(r, "section");
    const char *row = row_names_setup ? bl_record_label(r, "row") : NULL;
    const char *col = bl_record_label(r, "column");
    const char *host = bl_record_label(r, "host");
    /* scope: a part of a run beside its whole (fio's "group total", DiskSpd's "thread 1"):
     * never pooled with the whole or with another part as if they were repeats. */
    const char *scope = bl_record_label(r, "scope");
    snprintf(buf, n, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", r->source ? r->source : "", sec ? sec : "",
             row ? row : "", col ? col : "", host ? host : "", scope ? scope : "");
    return buf;
}

/* The value of r for by: one label or key, or several ("proto,net") joined as "CIFS · 1GbE";
 * NULL when r lacks any of them. A single name's value may be returned in place. */
static const char *by_value(const bl_record *r, const char *by, char *buf, size_t n)
{
    if (!strchr(by, ','))
        return bl_record_field_text(r, by, buf, n);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    const char *v = NULL;
    for (const char *p = by; *p;) {
        size_t len = strcspn(p, ",");
        char name[256], one[256];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        v = bl_record_field_text(r, name, one, sizeof one);
        if (!v || !*v) {
            v = NULL;
            break;
        }
        bl_strbuf_printf(&sb, "%s%s", sb.len ? " · " : "", v);
        p += len + (p[len] == ',');
    }
    if (v)
        snprintf(buf, n, "%s", sb.s ? sb.s : "");
    bl_strbuf_free(&sb);
    return v ? buf : NULL;
}

const char *bl_setup_col_key(const bl_record *r, const char *by, int row_setup, char *buf, size_t n)
{
    if (by && strcmp(by, "run") == 0) {
        snprintf(buf, n, "%s\x1f%lld", r->source ? r->source : "", (long long)r->run);
        return buf;
    }
    if (by) {
        const char *v = by_value(r, by, buf + 1, n - 1);
        const char *scope = bl_record_label(r, "scope");
        if (v && *v && scope && strcmp(by, "scope") != 0) {
            /* a part of a run (a numjobs clone, a DiskSpd thread) beside its whole is never
             * pooled with it under --by either: a column of its own, "VALUE · job 1/4" */
            char value[1024];
            snprintf(value, sizeof value, "%s", v);
            snprintf(buf, n, "%s\x1c%s", value, scope);
            return buf;
        }
        if (v && *v)
            return v;
        /* Lacking the label: its own set-up, marked by a leading \x1e. */
        buf[0] = '\x1e';
        setup_key(r, row_setup, buf + 1, n - 1);
        return buf;
    }
    return setup_key(r, row_setup, buf, n);
}

static void run_key(const bl_record *r, bl_strbuf *k)
{
    bl_strbuf_reset(k);
    bl_strbuf_printf(k, "%s\x1f%lld", r->source ? r->source : "", (long long)r->run);
}

/* For each record, whether its "row" label is the same over its run (see setup_key). */
int *bl_setup_rows_naming(const bl_records *recs)
{
    int *out = bl_xcalloc(recs->n + 1, sizeof *out);
    size_t *first_of = bl_xcalloc(recs->n + 1, sizeof *first_of);
    bl_smap first = {0};
    bl_strbuf k;
    bl_strbuf_init(&k);
    for (size_t i = 0; i < recs->n; i++) {
        const char *row = bl_record_label(recs->v[i], "row");
        if (!row)
            continue;
        run_key(recs->v[i], &k);
        long at = bl_smap_get(&first, k.s);
        if (at < 0) {
            bl_smap_put(&first, bl_xstrdup(k.s), i);
            at = (long)i;
            out[i] = 1;
        }
        first_of[i] = (size_t)at;
        out[at] &= strcmp(bl_record_label(recs->v[at], "row"), row) == 0;
    }
    for (size_t i = 0; i < recs->n; i++)
        if (bl_record_label(recs->v[i], "row"))
            out[i] = out[first_of[i]];
    for (size_t i = 0; i < first.cap; i++)
        free((char *)first.k[i]);
    bl_smap_free(&first);
    bl_strbuf_free(&k);
    free(first_of);
    return out;
}

static char *part(const char *key, int which)
{
    const char *p = key;
    for (int i = 0; i < which && p; i++)
        if ((p = strchr(p, '\x1f')))
            p++;
    if (!p)
        return bl_xstrdup("");
    return bl_xstrndup(p, strcspn(p, "\x1f\x1d"));
}

/* The labels a split set-up's column is told apart by ("job=ssd"), NULL when not split. */
static const char *split_of(const char *key)
{
    const char *s = strchr(key, '\x1d');
    return s ? s + 1 : NULL;
}

/* title + " · job=ssd" for a column of a split set-up; takes title. */
static char *with_split(char *title, const char *key)
{
    const char *sp = split_of(key);
    if (!sp)
        return title;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s%s%s", title, *title ? " · " : "", sp);
    free(title);
    return bl_strbuf_take(&sb);
}

/* The key of a set-up column without the unlabelled mark. */
static const char *setup_of(const bl_col *c)
{
    return c->key[0] == '\x1e' ? c->key + 1 : c->key;
}

static int part_varies(const bl_table *t, int which)
{
    char *first = NULL;
    int varies = 0;
    for (size_t i = 0; i < t->ncols && !varies; i++) {
        if (t->by && !t->cols[i].unlabelled)
            continue;
        char *p = part(setup_of(&t->cols[i]), which);
        if (!first)
            first = p;
        else {
            varies = strcmp(p, first) != 0;
            free(p);
        }
    }
    free(first);
    return varies;
}

/* A set-up's title names only what tells it apart: the file when several files are
 * compared (always for a column lacking --by), the heading when it varies, the table row,
 * column and host when there are any. */
static char *setup_title(const char *key, int show_src, int show_sec)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    char *p[6];
    for (int i = 0; i < 6; i++)
        p[i] = part(key, i);
    if (show_src || (!(show_sec && *p[1]) && !*p[2] && !*p[3] && !*p[4] && !*p[5]))
        bl_strbuf_puts(&sb, bl_basename(p[0]));
    if (show_sec && *p[1])
        bl_strbuf_printf(&sb, "%s%s", sb.len ? " · " : "", p[1]);
    for (int i = 2; i < 6; i++)
        if (*p[i])
            bl_strbuf_printf(&sb, "%s%s", sb.len ? " · " : "", p[i]);
    for (int i = 0; i < 6; i++)
        free(p[i]);
    return bl_strbuf_take(&sb);
}

/* Short names for legends and sheet names: a set-up's labels without its file (file names
 * are often hashes), unless two set-ups would then share a name or it would be empty. */
static void name_labels(bl_table *t, int by_run)
{
    for (size_t i = 0; i < t->ncols; i++) {
        bl_col *c = &t->cols[i];
        int setup = !by_run && (!t->by || c->unlabelled);
        c->label = setup ? setup_title(setup_of(c), 0, 1) : bl_xstrdup(c->title);
        char *src = setup ? part(setup_of(c), 0) : NULL;
        int bare = src && strcmp(c->label, bl_basename(src)) == 0; /* no labels at all */
        free(src);
        if (bare && c->tool) { /* fio-cdm's bare tables: "fio-cdm", not a file name */
            free(c->label);
            c->label = bl_xstrdup(c->tool);
        }
        if (setup)
            c->label = with_split(c->label, c->key);
    }
    for (size_t i = 0; i < t->ncols; i++) {
        bl_col *c = &t->cols[i];
        int dup = !*c->label;
        for (size_t k = 0; k < t->ncols && !dup; k++)
            dup = k != i && strcmp(t->cols[k].label, c->label) == 0;
        if (dup)
            c->title_as_label = 1;
    }
    for (size_t i = 0; i < t->ncols; i++) {
        bl_col *c = &t->cols[i];
        if (c->title_as_label) {
            free(c->label);
            c->label = bl_xstrdup(c->title);
        }
    }
}

void bl_setup_name_columns(bl_table *t)
{
    int by_run = t->by && strcmp(t->by, "run") == 0;
    for (size_t i = 0; i < t->ncols; i++)
        t->cols[i].unlabelled = t->by && !by_run && t->cols[i].key[0] == '\x1e';
    int src = part_varies(t, 0), sec = part_varies(t, 1);
    for (size_t i = 0; i < t->ncols; i++) {
        bl_col *c = &t->cols[i];
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        if (by_run) { /* "file.txt #3" */
            char *s = part(c->key, 0), *r = part(c->key, 1);
            bl_strbuf_printf(&sb, "%s #%s", bl_basename(s), r);
            free(s);
            free(r);
            c->title = bl_strbuf_take(&sb);
        } else if (t->by && !c->unlabelled) {
            size_t value = strcspn(c->key, "\x1c\x1d"), scope = 0;
            if (c->key[value] == '\x1c') /* "VALUE\x1cSCOPE": see bl_setup_col_key */
                scope = strcspn(c->key + value + 1, "\x1d");
            bl_strbuf_printf(&sb, "%.*s", (int)value, c->key);
            if (scope)
                bl_strbuf_printf(&sb, " · %.*s", (int)scope, c->key + value + 1);
            c->title = bl_strbuf_take(&sb);
        } else if (c->unlabelled) {
            c->title = setup_title(setup_of(c), 1, 1);
            t->n_unlabelled++;
            bl_strbuf_free(&sb);
        } else {
            c->title = setup_title(c->key, src, sec);
            bl_strbuf_free(&sb);
        }
        c->title = with_split(c->title, c->key);
        t->n_split += split_of(c->key) != NULL;
    }
    name_labels(t, by_run);
}
