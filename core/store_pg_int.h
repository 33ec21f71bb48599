/* Inside the PostgreSQL backend: what store_pg.c (connect, schema, the ops table),
 * store_pg_import.c and store_pg_once.c (imports), store_pg_query.c (walks, relabel, delete)
 * and store_pg_fold.c, store_pg_sums.c (the grouped query) share. */
#ifndef BL_STORE_PG_INT_H
#define BL_STORE_PG_INT_H

#include "store_int.h"
#include <libpq-fe.h>

/* Sets err to "STORE: what PostgreSQL said" (one line) from res, or the connection's
 * message when res is NULL; clears res; returns -1. */
int bl_pg_fail(bl_store *s, PGresult *res, char *err, size_t errlen);
/* Runs commands that return no rows (BEGIN, COMMIT, a schema step); -1 with err. */
int bl_pg_exec(bl_store *s, const char *sql, char *err, size_t errlen);
/* PQexecParams with text parameters; NULL with err unless the result is want. */
PGresult *bl_pg_query(bl_store *s, const char *sql, int n, const char *const *params,
                      ExecStatusType want, char *err, size_t errlen);
/* COPY ... FROM STDIN: begin (-1 with err), send rows in COPY's text form (emptied after;
 * 0 when the connection failed), end (ok 0 abandons the copy; -1 with err). */
int bl_pg_copy_begin(bl_store *s, const char *sql, char *err, size_t errlen);
int bl_pg_copy_put(bl_store *s, bl_strbuf *rows);
int bl_pg_copy_end(bl_store *s, int ok, char *err, size_t errlen);
/* v in COPY's text form: backslash, tab, newline and carriage return escaped. */
void bl_pg_copy_text(bl_strbuf *sb, const char *v, size_t n);
/* Ends a failed transaction (ROLLBACK, its own failure ignored). */
void bl_pg_rollback(bl_store *s);

/* The import (store_pg_import.c and store_pg_once.c). find_import: the import already holding this
 * content (its id in id), by either of its keys; 0 none. distinct_runs: the import's run
 * numbers, each once, in the order records first show them (caller frees). insert_runs:
 * gives every run of a new import its ID (bl_store_run_uid), all runs in one statement a
 * round: a run whose window another run holds tries the next window in the next round
 * (later: runs an earlier batch of the import stored are left out). */
int bl_pg_find_import(bl_store *s, const bl_content_key *key, char *id, size_t idlen);
int bl_pg_cmp_i64(const void *a, const void *b);
int64_t *bl_pg_distinct_runs(const bl_records *recs, size_t *n);
int bl_pg_insert_runs(bl_store *s, const char *import_id, const bl_records *recs, const char *seed,
                      int later, char *err, size_t errlen);
/* The ops table's import_begin, import_add, import_end and batch (store_int.h,
 * store_pg_import.c): an import by steps. */
int bl_pg_import_begin(bl_import *im, const char *source, const bl_content_key *key,
                       const char *format, char *err, size_t errlen);
int bl_pg_import_add(bl_import *im, const bl_records *recs, char *err, size_t errlen);
int bl_pg_import_end(bl_import *im, int commit, char *err, size_t errlen);
int bl_pg_batch(bl_store *s, int what, char *err, size_t errlen);
/* The ops table's import_once and import_all (store_int.h, store_pg_once.c): a small import
 * in one round trip, and many in one. */
size_t bl_pg_import_all(bl_store *s, bl_import_job *jobs, size_t n);
int bl_pg_import_once(bl_import *im, const char *source, const bl_content_key *key,
                      const char *format, const bl_records *recs, bl_strbuf *run_ids, char *err,
                      size_t errlen);

/* Exact sums in SQL (store_pg_sums.c). A finite float8 x is m * 2^e exactly, m an integer
 * below 2^53: grouped by e, sum(m) and sum(m::numeric * m) are integers numeric keeps
 * whole, so the server sums a column exactly in any order. Appended to sb: x's IEEE bits
 * as a bigint (compute them once, in a LATERAL), and from a bits column its e and m. */
void bl_pg_sql_bits(bl_strbuf *sb, const char *x);
void bl_pg_sql_exponent(bl_strbuf *sb, const char *bits);
void bl_pg_sql_mantissa(bl_strbuf *sb, const char *bits);
/* Adds one such row (e, sum(m) and sum(m*m) as numeric's text) to the exact sums (xsum.h;
 * sumsq may be NULL): sum gets sum(m) * 2^e, sumsq sum(m*m) * 2^2e (exact unless that
 * underflows: values below 1e-150). -1 when a text is no integer. */
struct bl_xsum;
int bl_pg_xsum_add(struct bl_xsum *sum, struct bl_xsum *sumsq, int exp, const char *msum,
                   const char *msqsum);

/* The fold columns (fold.h, store_pg_fold.c): f_* the figures (float8) and f_flags, b_* each
 * finite figure's IEEE bits; values in this order, as text (NULL: SQL NULL). */
#define BL_PG_FOLD_COLS                                                                            \
    "f_bw, f_iops, f_lat, f_p50, f_p99, f_p999, f_value, f_cpu, f_flags, b_bw, b_iops, b_lat, "    \
    "b_p50, b_p99, b_p999, b_value, b_cpu"
#define BL_PG_FOLD_TYPES                                                                           \
    "f_bw FLOAT8, f_iops FLOAT8, f_lat FLOAT8, f_p50 FLOAT8, f_p99 FLOAT8, f_p999 FLOAT8, "        \
    "f_value FLOAT8, f_cpu FLOAT8, f_flags INT, b_bw BIGINT, b_iops BIGINT, b_lat BIGINT, "        \
    "b_p50 BIGINT, b_p99 BIGINT, b_p999 BIGINT, b_value BIGINT, b_cpu BIGINT"
#define BL_PG_FOLD_SET_FROM_T                                                                      \
    "f_bw = t.f_bw, f_iops = t.f_iops, f_lat = t.f_lat, f_p50 = t.f_p50, f_p99 = t.f_p99, "        \
    "f_p999 = t.f_p999, f_value = t.f_value, f_cpu = t.f_cpu, f_flags = t.f_flags, "               \
    "b_bw = t.b_bw, b_iops = t.b_iops, b_lat = t.b_lat, b_p50 = t.b_p50, b_p99 = t.b_p99, "        \
    "b_p999 = t.b_p999, b_value = t.b_value, b_cpu = t.b_cpu"
#define BL_PG_FOLD_NVALS 17
typedef struct bl_pg_fold_vals {
    const char *v[BL_PG_FOLD_NVALS];
    char buf[BL_PG_FOLD_NVALS][32];
} bl_pg_fold_vals;
void bl_pg_fold_vals_of(const bl_record *r, bl_pg_fold_vals *v);
/* The distinct shapes of records (sorted), each record's among them (of), and once
 * bl_pg_shape_ids ran, their ids in table shapes (added when new). */
typedef struct bl_pg_shapes {
    char **v;
    size_t n;
    size_t *of;
    int64_t *id;
} bl_pg_shapes;
void bl_pg_shapes_of(const bl_records *recs, bl_pg_shapes *sh);
void bl_pg_shapes_free(bl_pg_shapes *sh);
/* sh's shapes as an array literal (text[]), into sb (reset first). */
void bl_pg_shapes_array(const bl_pg_shapes *sh, bl_strbuf *sb);
/* Adds the shapes of $1 (text[]) that are new: then a later statement finds every one. */
extern const char bl_pg_shapes_add_sql[];
int bl_pg_shape_ids(bl_store *s, bl_pg_shapes *sh, char *err, size_t errlen);
/* The v3 migration's fill of every stored record's fold columns; -1 with err. */
int bl_pg_fill_fold(bl_store *s, char *err, size_t errlen);
/* bl_store_fold on PostgreSQL (store_pg_fold.c); and the query it runs (store_pg_query.c):
 * head (ending in a WHERE, records aliased r) + the filter's terms + tail, rows to fn; terms
 * on what a shape keeps (fold.h) become the shapes C's filter matches; 1 when a term is one C
 * must decide on each record (nothing run). */
int bl_store_pg_fold(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                     size_t errlen);
typedef int (*bl_pg_row_fn)(void *ctx, const PGresult *row);
int bl_pg_fold_walk(bl_store *s, const bl_filter *f, const char *head, const char *tail,
                    bl_pg_row_fn fn, void *ctx, char *err, size_t errlen);

int bl_store_pg_each(bl_store *s, const bl_filter *f, bl_record_fn fn, bl_json_fn jfn, void *ctx,
                     char *err, size_t errlen);
int bl_store_pg_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                         size_t errlen);
int bl_store_pg_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                        char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                        char *err, size_t errlen);
int bl_store_pg_delete(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records,
                       char *err, size_t errlen);

#endif
