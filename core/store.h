/* The store: one SQLite file holding every imported or measured record.
 *
 * Schema version is PRAGMA user_version (BL_STORE_SCHEMA); an older store is upgraded in
 * place, a newer one refused. One import is one transaction: after a crash the store holds
 * the import whole or not at all. A source is identified by the hash of its content, so
 * importing the same text twice stores it once. */
#ifndef BL_STORE_H
#define BL_STORE_H

#include "filter.h"
#include "record.h"
#include <stdint.h>

#define BL_STORE_SCHEMA 2

typedef struct bl_store bl_store;

/* path NULL: $BENCHLOG_DB, else "benchlog.db". */
bl_store *bl_store_open(const char *path, char *err, size_t errlen);
/* The same for commands that only read: a missing store is an error, not a new file. */
bl_store *bl_store_open_existing(const char *path, char *err, size_t errlen);
void bl_store_close(bl_store *s);
const char *bl_store_default_path(void);

enum { BL_IMPORT_DONE = 0, BL_IMPORT_DUPLICATE = 1, BL_IMPORT_FAILED = -1 };
/* Stores recs as one import of `source` (display name) whose content hash is `hash`
 * (NULL for measured runs, which are never duplicates). */
int bl_store_import(bl_store *s, const char *source, const char *hash, const char *format,
                    const bl_records *recs, char *err, size_t errlen);

/* Appends the records matching f (NULL = all) to out, in import order. */
int bl_store_query(bl_store *s, const bl_filter *f, bl_records *out, char *err, size_t errlen);

typedef struct bl_run_info {
    int64_t import_id;
    char *source;
    int64_t run;
    int64_t first_line;
    char *tool;
    char *tool_version;
    char *imported_at; /* ISO 8601 UTC */
    size_t n_records;
    char *labels; /* "k=v, k=v" of the run's first record */
} bl_run_info;

/* Runs holding at least one record that matches f; caller frees with bl_run_infos_free. */
int bl_store_runs(bl_store *s, const bl_filter *f, bl_run_info **runs, size_t *n, char *err,
                  size_t errlen);
void bl_run_infos_free(bl_run_info *runs, size_t n);

/* Hex SHA-256-like content digest used as the import identity (FNV-1a 128 is enough here). */
void bl_content_hash(const void *data, size_t len, char out[33]);

#endif
