/* Inside the store: the handle and helpers its files share (store.c opens, migrates and
 * imports; store_query.c reads; store_edit.c relabels and deletes). */
#ifndef BL_STORE_INT_H
#define BL_STORE_INT_H

#include "store.h"
#include "strbuf.h"
#include <sqlite3.h>

struct bl_store {
    sqlite3 *db;
    char *path;
};

/* sqlite3_exec; on failure err holds SQLite's message and -1 is returned. */
int bl_store_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);

/* Gives a run of an import its stable ID (runs table), made from seed ("content key:run"). */
int bl_store_add_run(sqlite3 *db, sqlite3_int64 import_id, sqlite3_int64 run, const char *seed);

/* A SELECT narrowed by the terms of f SQL decides exactly, its parameters bound; columns
 * json, run uid, import id, imported_at, record id, run number; ORDER BY order. The caller
 * still checks every term in C. NULL with err on failure. */
sqlite3_stmt *bl_store_select(bl_store *s, const bl_filter *f, const char *order, char *err,
                              size_t errlen);

#endif
