/* Inside the PostgreSQL backend: what store_pg.c (connect, schema, import) and
 * store_pg_query.c (walks, relabel, delete) share. */
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

/* The import (store_pg.c and store_pg_once.c). find_import: the import already holding this
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
