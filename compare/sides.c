#include "sides.h"
#include "fine.h"
#include "load.h"
#include "setups.h"
#include "smap.h"
#include <stdlib.h>
#include <string.h>

/* A label of a side's first record, and whether every record of the side has it. */
typedef struct side_label {
    char *key, *value;
    int shared;
} side_label;

typedef struct side {
    char *arg;
    int seen;           /* a record was walked */
    side_label *labels; /* of the first record, in its order */
    size_t n_labels;
    bl_smap sources;             /* keys owned */
    size_t first_fine, end_fine; /* its fine groups: [first_fine, end_fine) */
} side;

struct bl_sides {
    bl_fines fines;
    side s[2];
    int at; /* the side being walked */
};

bl_sides *bl_sides_new(int keep)
{
    bl_sides *s = bl_xcalloc(1, sizeof *s);
    bl_fines_init(&s->fines, "compare", keep);
    return s;
}

static void first_labels(side *d, const bl_record *r)
{
    d->labels = bl_xcalloc(r->n_labels + 1, sizeof *d->labels);
    for (size_t k = 0; k < r->n_labels; k++)
        d->labels[k] =
            (side_label){bl_xstrdup(r->labels[k].key), bl_xstrdup(r->labels[k].value), 1};
    d->n_labels = r->n_labels;
}

/* Labels a record of the side at hand, and keeps what naming the side needs. */
static void tag(void *ctx, bl_record *r)
{
    bl_sides *s = ctx;
    side *d = &s->s[s->at];
    bl_record_set_label(r, "compare", d->arg);
    if (!d->seen)
        first_labels(d, r);
    d->seen = 1;
    for (size_t k = 0; k < d->n_labels; k++) {
        side_label *l = &d->labels[k];
        const char *v = l->shared ? bl_record_label(r, l->key) : NULL;
        l->shared = v && strcmp(v, l->value) == 0;
    }
    const char *src = r->source ? r->source : "";
    if (bl_smap_get(&d->sources, src) < 0)
        bl_smap_put(&d->sources, bl_xstrdup(src), d->sources.n);
}

int bl_sides_walk(bl_sides *s, const char *db, int side_at, const char *arg, int nterms,
                  char **terms, size_t *nsources, char *err, size_t errlen)
{
    side *d = &s->s[side_at];
    s->at = side_at;
    d->arg = bl_xstrdup(arg);
    d->first_fine = s->fines.n;
    int rc = bl_report_fines(db, nterms, terms, &s->fines, tag, s, err, errlen);
    d->end_fine = s->fines.n;
    *nsources = d->sources.n;
    return rc;
}

/* Whether every record of d has label key = v. */
static int shares(const side *d, const char *key, const char *v)
{
    for (size_t k = 0; k < d->n_labels; k++)
        if (d->labels[k].shared && strcmp(d->labels[k].key, key) == 0 &&
            strcmp(d->labels[k].value, v) == 0)
            return 1;
    return 0;
}

char *bl_sides_name(const bl_sides *s, int side_at)
{
    const side *d = &s->s[side_at], *other = &s->s[!side_at];
    if (strpbrk(d->arg, "=~") || !d->seen)
        return NULL;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t k = 0; k < d->n_labels; k++) {
        const side_label *l = &d->labels[k];
        if (strcmp(l->key, "compare") == 0 || !l->shared || shares(other, l->key, l->value))
            continue;
        bl_strbuf_printf(&sb, "%s%s=%s", sb.len ? " · " : "", l->key, l->value);
    }
    return sb.len ? bl_strbuf_take(&sb) : (bl_strbuf_free(&sb), NULL);
}

/* Renames side d's column keys ("ARG", or "ARG\x1cSCOPE": bl_setup_col_key) to name. */
static void rename_side(bl_sides *s, const side *d, const char *name)
{
    size_t n = strlen(d->arg);
    for (size_t i = d->first_fine; i < d->end_fine; i++) {
        bl_fine *g = &s->fines.v[i];
        if (strncmp(g->setup, d->arg, n) != 0)
            continue; /* cannot be: every record of the side has compare=ARG */
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "%s%s", name, g->setup + n);
        free(g->setup);
        g->setup = bl_strbuf_take(&sb);
    }
}

static void name_sides(bl_sides *s)
{
    char *na = bl_sides_name(s, 0), *nb = bl_sides_name(s, 1);
    const char *fa = na ? na : s->s[0].arg, *fb = nb ? nb : s->s[1].arg;
    if (strcmp(fa, fb) != 0) {
        if (strcmp(fa, s->s[0].arg) != 0)
            rename_side(s, &s->s[0], fa);
        if (strcmp(fb, s->s[1].arg) != 0)
            rename_side(s, &s->s[1], fb);
    }
    free(na);
    free(nb);
}

bl_table *bl_sides_table(bl_sides *s, const bl_table_opts *o, char *err, size_t errlen)
{
    name_sides(s);
    bl_table_opts lean = *o;
    lean.lean = 1;
    bl_table_builder *b = bl_table_begin(&lean);
    bl_setup_plan *plan = bl_setup_plan_new(o->by);
    bl_setup_plan_add_fines(plan, &s->fines);
    bl_setup_plan_end(plan);
    bl_table_set_plan(b, plan);
    bl_table_add_fines(b, &s->fines);
    return bl_table_end(b, err, errlen);
}

void bl_sides_free(bl_sides *s)
{
    if (!s)
        return;
    for (int i = 0; i < 2; i++) {
        side *d = &s->s[i];
        for (size_t k = 0; k < d->n_labels; k++) {
            free(d->labels[k].key);
            free(d->labels[k].value);
        }
        free(d->labels);
        for (size_t k = 0; k < d->sources.cap; k++)
            free((char *)d->sources.k[k]);
        bl_smap_free(&d->sources);
        free(d->arg);
    }
    bl_fines_free(&s->fines);
    free(s);
}
