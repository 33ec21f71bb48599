/* The PostgreSQL store's fold columns (fold.h, schema 3): records.shape_id names the record's
 * shape in table shapes, f_* hold its fold figures and flags, b_* each finite figure's IEEE
 * bits (so the server splits it into exponent and mantissa with integer operations only,
 * store_pg_sums.c). Written with the JSON (import, relabel), filled for older records by the
 * migration, read by bl_store_pg_fold: one grouped query over the matching records, summed
 * exactly, one row per shape and set of its figures' exponents. A shape is added with INSERT ... ON
 * CONFLICT DO NOTHING and its id read by the next statement, so two writers adding it at
 * the same moment store it once. */
#include "fold.h"
#include "jsonl.h"
#include "store_pg_int.h"
#include "xsum.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_pg_fold_vals_of(const bl_record *r, bl_pg_fold_vals *v)
{
    double fig[BL_FOLD_N];
    int flags;
    bl_fold_figs(r, fig, &flags);
    for (int k = 0; k < BL_FOLD_N; k++) {
        char *f = v->buf[k], *b = v->buf[BL_FOLD_N + 1 + k];
        v->v[k] = v->v[BL_FOLD_N + 1 + k] = NULL;
        if (!bl_present(fig[k]))
            continue;
        if (isinf(fig[k]))
            snprintf(f, sizeof v->buf[k], "%s", fig[k] > 0 ? "Infinity" : "-Infinity");
        else
            snprintf(f, sizeof v->buf[k], "%.17g", fig[k]);
        v->v[k] = f;
        if (isfinite(fig[k])) {
            int64_t bits;
            memcpy(&bits, &fig[k], sizeof bits);
            snprintf(b, sizeof v->buf[k], "%lld", (long long)bits);
            v->v[BL_FOLD_N + 1 + k] = b;
        }
    }
    snprintf(v->buf[BL_FOLD_N], sizeof v->buf[BL_FOLD_N], "%d", flags);
    v->v[BL_FOLD_N] = v->buf[BL_FOLD_N];
}

typedef struct shape_at {
    char *shape;
    size_t rec;
} shape_at;

static int cmp_shape(const void *a, const void *b)
{
    const shape_at *x = a, *y = b;
    int c = strcmp(x->shape, y->shape);
    return c ? c : (x->rec > y->rec) - (x->rec < y->rec);
}

void bl_pg_shapes_of(const bl_records *recs, bl_pg_shapes *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->of = bl_xcalloc(recs->n + 1, sizeof *sh->of);
    sh->v = bl_xcalloc(recs->n + 1, sizeof *sh->v);
    shape_at *at = bl_xcalloc(recs->n + 1, sizeof *at);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t i = 0; i < recs->n; i++) {
        bl_strbuf_reset(&sb);
        bl_fold_shape(recs->v[i], &sb);
        at[i] = (shape_at){bl_xstrdup(sb.s ? sb.s : ""), i};
    }
    bl_strbuf_free(&sb);
    if (recs->n > 1)
        qsort(at, recs->n, sizeof *at, cmp_shape);
    for (size_t i = 0; i < recs->n; i++) {
        if (sh->n && strcmp(sh->v[sh->n - 1], at[i].shape) == 0) {
            free(at[i].shape);
        } else {
            sh->v[sh->n++] = at[i].shape;
        }
        sh->of[at[i].rec] = sh->n - 1;
    }
    free(at);
}

void bl_pg_shapes_free(bl_pg_shapes *sh)
{
    for (size_t i = 0; i < sh->n; i++)
        free(sh->v[i]);
    free(sh->v);
    free(sh->of);
    free(sh->id);
    memset(sh, 0, sizeof *sh);
}

/* An element of an array literal, quoted. */
static void arr_text(bl_strbuf *sb, const char *v)
{
    bl_strbuf_putc(sb, sb->len ? ',' : '{');
    bl_strbuf_putc(sb, '"');
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            bl_strbuf_putc(sb, '\\');
        bl_strbuf_putc(sb, *v);
    }
    bl_strbuf_putc(sb, '"');
}

void bl_pg_shapes_array(const bl_pg_shapes *sh, bl_strbuf *sb)
{
    bl_strbuf_reset(sb);
    for (size_t i = 0; i < sh->n; i++)
        arr_text(sb, sh->v[i]);
    bl_strbuf_puts(sb, sb->len ? "}" : "{}");
}

/* Ordered by key, so that two writers adding shapes lock them in one order. */
const char bl_pg_shapes_add_sql[] =
    "INSERT INTO shapes(shape) SELECT s FROM unnest($1::text[]) AS s ORDER BY md5(s) "
    "ON CONFLICT DO NOTHING";

int bl_pg_shape_ids(bl_store *s, bl_pg_shapes *sh, char *err, size_t errlen)
{
    bl_strbuf arr;
    bl_strbuf_init(&arr);
    bl_pg_shapes_array(sh, &arr);
    const char *params[] = {arr.s};
    PGresult *res = bl_pg_query(s, bl_pg_shapes_add_sql, 1, params, PGRES_COMMAND_OK, err, errlen);
    PQclear(res);
    if (res)
        res = bl_pg_query(s,
                          "SELECT v.k, s.id FROM unnest($1::text[]) WITH ORDINALITY AS v(shape, k) "
                          "JOIN shapes s ON md5(s.shape) = md5(v.shape) AND s.shape = v.shape",
                          1, params, PGRES_TUPLES_OK, err, errlen);
    bl_strbuf_free(&arr);
    if (!res)
        return -1;
    free(sh->id);
    sh->id = bl_xcalloc(sh->n + 1, sizeof *sh->id);
    for (size_t i = 0; i < sh->n; i++)
        sh->id[i] = -1;
    for (int i = 0; i < PQntuples(res); i++) {
        long long k = atoll(PQgetvalue(res, i, 0));
        if (k >= 1 && (size_t)k <= sh->n)
            sh->id[k - 1] = atoll(PQgetvalue(res, i, 1));
    }
    PQclear(res);
    for (size_t i = 0; i < sh->n; i++)
        if (sh->id[i] < 0) {
            snprintf(err, errlen, "%s: a shape just added cannot be found", s->path);
            return -1;
        }
    return 0;
}

/* --- the migration's fill --- */

static void copy_val(bl_strbuf *line, const char *v)
{
    bl_strbuf_putc(line, '\t');
    if (v)
        bl_pg_copy_text(line, v, strlen(v));
    else
        bl_strbuf_puts(line, "\\N");
}

/* One page of records (after *after, by id) read, their fold columns sent to bl_fill;
 * the number read, -1 with err. */
static long fill_page(bl_store *s, int64_t *after, char *err, size_t errlen)
{
    char from[24];
    snprintf(from, sizeof from, "%lld", (long long)*after);
    const char *params[] = {from};
    PGresult *res = bl_pg_query(s,
                                "SELECT id, json FROM records WHERE id > $1 ORDER BY id "
                                "LIMIT 10000",
                                1, params, PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return -1;
    long n = PQntuples(res);
    if (n == 0 || bl_pg_copy_begin(s, "COPY bl_fill FROM STDIN", err, errlen) != 0) {
        PQclear(res);
        return n == 0 ? 0 : -1;
    }
    bl_strbuf line, shape;
    bl_strbuf_init(&line);
    bl_strbuf_init(&shape);
    int ok = 1;
    for (long i = 0; ok && i < n; i++) {
        *after = atoll(PQgetvalue(res, (int)i, 0));
        bl_strbuf_puts(&line, PQgetvalue(res, (int)i, 0));
        bl_record *r = bl_record_from_json(PQgetvalue(res, (int)i, 1),
                                           (size_t)PQgetlength(res, (int)i, 1), NULL, 0);
        bl_pg_fold_vals v;
        if (r) {
            bl_strbuf_reset(&shape);
            bl_fold_shape(r, &shape);
            bl_pg_fold_vals_of(r, &v);
            bl_record_free(r);
            copy_val(&line, shape.s);
            for (int k = 0; k < BL_PG_FOLD_NVALS; k++)
                copy_val(&line, v.v[k]);
        } else { /* unreadable: the walks skip it, and so does the fold (flags -1) */
            copy_val(&line, NULL);
            for (int k = 0; k < BL_PG_FOLD_NVALS; k++)
                copy_val(&line, k == BL_FOLD_N ? "-1" : NULL);
        }
        bl_strbuf_putc(&line, '\n');
        if (line.len >= 65536 || i + 1 == n)
            ok = bl_pg_copy_put(s, &line);
    }
    bl_strbuf_free(&line);
    bl_strbuf_free(&shape);
    PQclear(res);
    return bl_pg_copy_end(s, ok, err, errlen) == 0 ? n : -1;
}

int bl_pg_fill_fold(bl_store *s, char *err, size_t errlen)
{
    if (bl_pg_exec(s,
                   "CREATE TEMP TABLE bl_fill(id BIGINT, shape TEXT, " BL_PG_FOLD_TYPES
                   ") ON COMMIT DROP",
                   err, errlen) != 0)
        return -1;
    static const char what[] = "upgrading the store to schema 3 (the grouped report's columns)";
    int64_t total = 0, done = 0, after = 0;
    PGresult *res =
        bl_pg_query(s, "SELECT count(*) FROM records", 0, NULL, PGRES_TUPLES_OK, err, errlen);
    if (!res)
        return -1;
    total = atoll(PQgetvalue(res, 0, 0));
    PQclear(res);
    bl_store_progress(s->path, what, 0, total);
    long n;
    while ((n = fill_page(s, &after, err, errlen)) > 0)
        if ((done += n) < total)
            bl_store_progress(s->path, what, done, total);
    if (n < 0)
        return -1;
    int rc = bl_pg_exec(
        s,
        "INSERT INTO shapes(shape) SELECT DISTINCT shape FROM bl_fill WHERE shape IS NOT NULL "
        "ORDER BY 1 ON CONFLICT DO NOTHING;"
        "UPDATE records r SET shape_id = sh.id, " BL_PG_FOLD_SET_FROM_T " FROM bl_fill t "
        "LEFT JOIN shapes sh ON md5(sh.shape) = md5(t.shape) AND sh.shape = t.shape "
        "WHERE r.id = t.id",
        err, errlen);
    if (rc == 0)
        bl_store_progress(s->path, what, total, total);
    return rc;
}

/* --- the grouped query --- */

typedef struct pg_group {
    bl_fold_group g;
    int64_t sid, imp, id; /* its shape; its first record in walk order (import, id) */
} pg_group;

typedef struct fold_rows {
    bl_store *s;
    pg_group **v;
    size_t n, cap;
    int unfilled; /* records without their fold columns matched: the walk must do it */
    char *err;
    size_t errlen;
} fold_rows;

static size_t count_of(const PGresult *row, int col)
{
    return PQgetisnull(row, 0, col) ? 0 : (size_t)atoll(PQgetvalue(row, 0, col));
}

/* The grouped query's columns: the shape, each figure's exponent (the group), the group's
 * counts, then per figure FIG_COLS from FIG_AT(k), and the shape's text last. */
enum {
    COL_SID,
    COL_E,
    COL_N = COL_E + BL_FOLD_N,
    COL_FIRST,
    COL_LAT0,
    COL_LAT1,
    COL_PCT0,
    COL_PCT1,
    COL_NOTES,
    COL_FIGS
};
enum { FIG_N, FIG_LO, FIG_HI, FIG_S, FIG_H2, FIG_HL, FIG_L2, FIG_PINF, FIG_NINF, FIG_COLS };
#define FIG_AT(k) (COL_FIGS + (k)*FIG_COLS)
#define COL_SHAPE FIG_AT(BL_FOLD_N)

static int sums_of(bl_fold_fig *f, const PGresult *row, int at, int e)
{
    const char *s = PQgetvalue(row, 0, at + FIG_S), *h2 = PQgetvalue(row, 0, at + FIG_H2),
               *hl = PQgetvalue(row, 0, at + FIG_HL), *l2 = PQgetvalue(row, 0, at + FIG_L2);
    /* m = h 2^26 + l: m^2 = h^2 2^52 + 2 h l 2^26 + l^2, each term's sum an integer */
    if (bl_pg_xsum_add(&f->sum, NULL, e, s, NULL) != 0 ||
        bl_pg_xsum_add(&f->sumsq, NULL, 2 * e + 52, h2, NULL) != 0 ||
        bl_pg_xsum_add(&f->sumsq, NULL, 2 * e + 27, hl, NULL) != 0 ||
        bl_pg_xsum_add(&f->sumsq, NULL, 2 * e, l2, NULL) != 0)
        return -1;
    return 0;
}

/* One figure's values in one row's group: all of one exponent (or infinite). */
static int fig_row(fold_rows *c, bl_fold_fig *f, const PGresult *row, int k)
{
    int at = FIG_AT(k);
    size_t n = count_of(row, at + FIG_N);
    if (!n)
        return 0;
    double lo = strtod(PQgetvalue(row, 0, at + FIG_LO), NULL),
           hi = strtod(PQgetvalue(row, 0, at + FIG_HI), NULL);
    if (f->n == 0 || lo < f->lo)
        f->lo = lo;
    if (f->n == 0 || hi > f->hi)
        f->hi = hi;
    f->n += n;
    if (!PQgetisnull(row, 0, COL_E + k) &&
        sums_of(f, row, at, atoi(PQgetvalue(row, 0, COL_E + k))) != 0) {
        snprintf(c->err, c->errlen, "%s: the grouped query's sums are no integers", c->s->path);
        return -1;
    }
    /* infinite values: their sum as IEEE makes it (+inf, -inf, or NaN for both) */
    if (count_of(row, at + FIG_PINF)) {
        bl_xsum_add(&f->sum, INFINITY);
        bl_xsum_add(&f->sumsq, INFINITY);
    }
    if (count_of(row, at + FIG_NINF)) {
        bl_xsum_add(&f->sum, -INFINITY);
        bl_xsum_add(&f->sumsq, INFINITY);
    }
    return 0;
}

/* One row: the records of one shape whose figures have one set of exponents; a shape's rows
 * come together, in order of the shape. */
static int fold_row(void *ctx, const PGresult *row)
{
    fold_rows *c = ctx;
    if (PQgetisnull(row, 0, COL_SID)) {
        c->unfilled = 1;
        return 1;
    }
    int64_t sid = atoll(PQgetvalue(row, 0, COL_SID));
    long long imp = 0, id = 0;
    sscanf(PQgetvalue(row, 0, COL_FIRST), "{%lld,%lld}", &imp, &id);
    pg_group *p = c->n ? c->v[c->n - 1] : NULL;
    if (p && sid < p->sid) {
        snprintf(c->err, c->errlen, "%s: the grouped query's rows are out of order", c->s->path);
        return -1;
    }
    if (!p || sid != p->sid) {
        bl_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v);
        p = c->v[c->n++] = bl_xcalloc(1, sizeof *p);
        p->sid = sid;
        p->imp = imp, p->id = id;
        p->g.shape = bl_record_from_json(PQgetvalue(row, 0, COL_SHAPE),
                                         (size_t)PQgetlength(row, 0, COL_SHAPE), NULL, 0);
        if (!p->g.shape) {
            snprintf(c->err, c->errlen, "%s: a stored shape cannot be read", c->s->path);
            return -1;
        }
    } else if (imp < p->imp || (imp == p->imp && id < p->id)) {
        p->imp = imp, p->id = id;
    }
    bl_fold_group *g = &p->g;
    g->n_recs += count_of(row, COL_N);
    g->lat_from[0] += count_of(row, COL_LAT0);
    g->lat_from[1] += count_of(row, COL_LAT1);
    g->pct_from[0] += count_of(row, COL_PCT0);
    g->pct_from[1] += count_of(row, COL_PCT1);
    g->n_notes += count_of(row, COL_NOTES);
    for (int k = 0; k < BL_FOLD_N; k++)
        if (fig_row(c, &g->fig[k], row, k) != 0)
            return -1;
    return 0;
}

static int cmp_first(const void *a, const void *b)
{
    const pg_group *x = *(pg_group *const *)a, *y = *(pg_group *const *)b;
    if (x->imp != y->imp)
        return x->imp < y->imp ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* One row per record with each figure's sign, mantissa and exponent (NULL where absent or
 * infinite), grouped by shape and the exponents of all its figures: a record is one row, not
 * one per figure (at a million records a third less of the server's time), and a shape's few
 * sets of exponents are summed apart, exactly, then merged here. */
static void fold_head(bl_strbuf *sql, int runs)
{
    static const char *const fig[] = {"bw", "iops", "lat", "p50", "p99", "p999", "value", "cpu"};
    bl_strbuf_puts(sql, "SELECT q.*, sh.shape FROM (SELECT v.sid");
    for (int k = 0; k < BL_FOLD_N; k++)
        bl_strbuf_printf(sql, ", v.e%d", k);
    bl_strbuf_puts(sql, ", count(*), min(ARRAY[v.imp, v.id]), "
                        "count(*) FILTER (WHERE v.flat IS NOT NULL AND v.flags & 1 = 0), "
                        "count(*) FILTER (WHERE v.flat IS NOT NULL AND v.flags & 1 <> 0), "
                        "count(*) FILTER (WHERE v.flags & 6 = 2), "
                        "count(*) FILTER (WHERE v.flags & 6 = 6), "
                        "count(*) FILTER (WHERE v.flags & 8 <> 0)");
    for (int k = 0; k < BL_FOLD_N; k++)
        bl_strbuf_printf(sql,
                         ", count(v.x%d), min(v.x%d), max(v.x%d), sum(v.sg%d * v.ma%d), "
                         "sum((v.ma%d >> 26) * (v.ma%d >> 26)), "
                         "sum((v.ma%d >> 26) * (v.ma%d & 67108863)), "
                         "sum((v.ma%d & 67108863) * (v.ma%d & 67108863)), "
                         "count(*) FILTER (WHERE v.x%d = 'Infinity'), "
                         "count(*) FILTER (WHERE v.x%d = '-Infinity')",
                         k, k, k, k, k, k, k, k, k, k, k, k, k);
    bl_strbuf_puts(sql, " FROM (SELECT r.shape_id AS sid, r.import_id AS imp, r.id, "
                        "r.f_lat AS flat, r.f_flags AS flags");
    for (int k = 0; k < BL_FOLD_N; k++) {
        char b[16];
        snprintf(b, sizeof b, "r.b_%s", fig[k]);
        bl_strbuf_printf(sql,
                         ", r.f_%s AS x%d, CASE WHEN %s < 0 THEN -1 ELSE 1 END AS sg%d, "
                         "(%s & 4503599627370495) | (CASE WHEN ((%s >> 52) & 2047) = 0 THEN 0 "
                         "ELSE 4503599627370496 END) AS ma%d, ",
                         fig[k], k, b, k, b, b, k);
        bl_pg_sql_exponent(sql, b);
        bl_strbuf_printf(sql, " AS e%d", k);
    }
    bl_strbuf_puts(sql, " FROM records r ");
    if (runs)
        bl_strbuf_puts(sql, "JOIN runs ru ON ru.import_id = r.import_id AND ru.run = r.run ");
    bl_strbuf_puts(sql, "WHERE NOT (r.shape_id IS NULL AND r.f_flags = -1)");
}

int bl_store_pg_fold(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                     size_t errlen)
{
    if (s->no_fold)
        return 1; /* no fold columns: the caller walks the records */
    int runs = 0;
    for (size_t i = 0; f && i < f->n; i++)
        runs |= strcmp(f->t[i].key, "run") == 0;
    bl_strbuf head;
    bl_strbuf_init(&head);
    fold_head(&head, runs);
    fold_rows c = {.s = s, .err = err, .errlen = errlen};
    /* a reader may read the records but not their shapes (SELECT granted table by table):
     * the walk then. And compiling the query's expressions (JIT, past its cost threshold)
     * took longer than the query itself at 100k records. */
    char ignored[256];
    PGresult *may = bl_pg_query(s,
                                "SELECT has_table_privilege('shapes', 'SELECT'), "
                                "set_config('jit', 'off', false)",
                                0, NULL, PGRES_TUPLES_OK, ignored, sizeof ignored);
    int jit_off = may != NULL, readable = may && PQgetvalue(may, 0, 0)[0] == 't';
    PQclear(may);
    if (!readable) {
        bl_strbuf_free(&head);
        if (jit_off)
            bl_pg_exec(s, "RESET jit", ignored, sizeof ignored);
        return 1;
    }
    bl_strbuf tail; /* grouped by the shape and each figure's exponent: 1 + BL_FOLD_N columns */
    bl_strbuf_init(&tail);
    bl_strbuf_puts(&tail, ") v GROUP BY 1");
    for (int k = 0; k < BL_FOLD_N; k++)
        bl_strbuf_printf(&tail, ", %d", k + 2);
    bl_strbuf_puts(&tail, ") q LEFT JOIN shapes sh ON sh.id = q.sid ORDER BY q.sid");
    int rc = bl_pg_fold_walk(s, f, head.s, tail.s, fold_row, &c, err, errlen);
    bl_strbuf_free(&tail);
    bl_strbuf_free(&head);
    if (jit_off)
        bl_pg_exec(s, "RESET jit", ignored, sizeof ignored);
    if (rc == 1 && !c.unfilled && c.n) /* only fold_row's unfilled stops with 1 */
        rc = -1;
    if (rc == 0 && c.n > 1)
        qsort(c.v, c.n, sizeof *c.v, cmp_first);
    for (size_t i = 0; rc == 0 && i < c.n; i++) {
        c.v[i]->g.first = (int64_t)i; /* its rank stands for its place in the walk */
        rc = fn(ctx, &c.v[i]->g);
    }
    for (size_t i = 0; i < c.n; i++) {
        bl_fold_group_free(&c.v[i]->g);
        free(c.v[i]);
    }
    free(c.v);
    return rc;
}
