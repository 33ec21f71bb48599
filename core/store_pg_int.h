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
