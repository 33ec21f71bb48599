/* The store: every imported or measured record, in one SQLite file or (a postgresql:// or
 * postgres:// address) one PostgreSQL database a team shares (store_pg.c); the same
 * operations on both, the backend chosen by address (store_backend.c).
 *
 * Schema version is PRAGMA user_version (BL_STORE_SCHEMA); an older store is upgraded in
 * place, a newer one refused, and an SQLite file of another program is refused, never
 * extended. Before a write, PRAGMA quick_check must find the file sound.
 * One import is all or nothing: after a crash the store holds the import whole or not at
 * all (bl_store_batch_begin puts many imports in one transaction, each its own savepoint).
 * A source is identified by the SHA-256 of its content (digest.h), so importing the same
 * text twice stores it once. Every run has a short stable ID (8 hex digits) made from its
 * source's key and its number; the filter term run=ID selects by it. */
#ifndef BL_STORE_H
#define BL_STORE_H

#include "digest.h"
#include "filter.h"
#include "fold.h"
#include "record.h"
#include "strbuf.h"
#include <stdint.h>

#define BL_STORE_SCHEMA 6

typedef struct bl_store bl_store;

/* For commands that write: path NULL is $BENCHLOG_DB, else "benchlog.db"; a missing store
 * is created. The file is checked (quick_check) before anything is written. */
bl_store *bl_store_open(const char *path, char *err, size_t errlen);
/* For commands that only read: a missing store is an error, not a new file. */
bl_store *bl_store_open_existing(const char *path, char *err, size_t errlen);
/* For commands that change an existing store (relabel, delete): both of the above. */
bl_store *bl_store_open_existing_rw(const char *path, char *err, size_t errlen);
void bl_store_close(bl_store *s);
/* What a long upgrade of a store tells while it runs (a schema step filling every record:
 * about a minute at a million records): fn gets done = 0 first, then every few tens of
 * thousands, then done = total. A program registers one at start, before it opens a store
 * (the registration is the only state: none, and the upgrade is silent). */
typedef void (*bl_store_progress_fn)(const char *path, const char *what, int64_t done,
                                     int64_t total);
void bl_store_register_progress(bl_store_progress_fn fn);
/* $BENCHLOG_DB or "benchlog.db". */
const char *bl_store_default_path(void);
/* Whether addr names a PostgreSQL store (postgresql:// or postgres://). */
int bl_store_is_url(const char *addr);
/* addr as messages may show it: a URL without its password (user:PASSWORD@, password=). */
void bl_store_addr_safe(const char *addr, char *buf, size_t n);
/* The store as messages name it (bl_store_addr_safe of its address). */
const char *bl_store_name(const bl_store *s);

/* Whether the store still holds pre-SHA-256 keys (then importers compute those too). */
int bl_store_has_legacy_keys(bl_store *s);

enum {
    BL_IMPORT_DONE = 0,
    BL_IMPORT_DUPLICATE = 1,       /* same content and labels: nothing to do */
    BL_IMPORT_DUPLICATE_OTHER = 2, /* same content, other labels: the first in err */
    BL_IMPORT_DUPLICATE_PART = 3,  /* same content, another number of records stored (err) */
    BL_IMPORT_FAILED = -1
};
/* Stores recs as one import of `source` (display name) whose content key is `key` (NULL
 * for measured runs, which are never duplicates). run_ids (may be NULL) receives the IDs
 * of the import's runs, new or already stored, separated by spaces. */
int bl_store_import(bl_store *s, const char *source, const bl_content_key *key, const char *format,
                    const bl_records *recs, bl_strbuf *run_ids, char *err, size_t errlen);

/* Many whole imports into the open batch (bl_store_batch_begin), each as bl_store_import
 * gives it (rc, run IDs, err) and each still all or nothing, in order; on PostgreSQL sent
 * together, a few round trips for all of them. It stops after a job that failed only
 * because a concurrent writer waits on this batch (busy): commit the batch, then import
 * that one again. Returns the number of jobs done. */
typedef struct bl_import_job {
    const char *source; /* in: as bl_store_import's */
    const bl_content_key *key;
    const char *format;
    const bl_records *recs;
    int rc;         /* out: bl_store_import's */
    int busy;       /* out: see above */
    bl_strbuf ids;  /* out: the run IDs (initialised by the caller) */
    char err[512];  /* out */
    int64_t dup_id; /* inside the store: the import holding this content, to check it */
} bl_import_job;
size_t bl_store_import_all(bl_store *s, bl_import_job *jobs, size_t n);

/* The same in steps, for records that come in batches (a big file read in pieces), in
 * memory that holds one batch: begin, add each batch in order, then commit (or rollback).
 * It is still one transaction (or one savepoint of a batch's): until commit the store shows
 * nothing of it, and a failure or a kill on the way leaves the store as it was. When the
 * content key is known already, begin writes nothing and the batches are only checked
 * against what is stored (commit then gives the BL_IMPORT_DUPLICATE* verdict). begin
 * returns NULL with err; add -1 with err (the import is then spoilt: commit fails, rollback
 * frees it); commit gives the status of bl_store_import and frees the import; so does
 * rollback. */
typedef struct bl_import bl_import;
bl_import *bl_store_import_begin(bl_store *s, const char *source, const bl_content_key *key,
                                 const char *format, char *err, size_t errlen);
int bl_import_add(bl_import *im, const bl_records *recs, char *err, size_t errlen);
/* The number of records given so far. */
size_t bl_import_count(const bl_import *im);
int bl_import_commit(bl_import *im, bl_strbuf *run_ids, char *err, size_t errlen);
void bl_import_rollback(bl_import *im);

/* A batch: the imports that follow, until commit, go into one transaction (one sync), each
 * import still whole or nothing inside it (a savepoint: a failed one is undone alone, the
 * others kept). Until commit nothing of the batch is in the store for others to see, and a
 * kill leaves none of it: tell of an import only once its batch committed. commit -1 with
 * err: nothing of the batch was stored. 0, or -1 with err. */
int bl_store_batch_begin(bl_store *s, char *err, size_t errlen);
int bl_store_batch_commit(bl_store *s, char *err, size_t errlen);
/* Whether a batch is open. */
int bl_store_in_batch(const bl_store *s);
/* Whether the last import failed only because a concurrent writer waits on this batch
 * (PostgreSQL: a deadlock on a content key): commit the batch, then import it again. */
int bl_store_batch_busy(const bl_store *s);

/* Calls fn for every stored record matching f (NULL = all), in import order, with its
 * run's ID; fn owns r. A nonzero return from fn stops the walk and is returned. Memory
 * does not grow with the store. */
typedef int (*bl_record_fn)(void *ctx, bl_record *r, const char *run_id);
int bl_store_each(bl_store *s, const bl_filter *f, bl_record_fn fn, void *ctx, char *err,
                  size_t errlen);

/* The same with each record as the JSON Lines text the store holds (no decoding when SQL
 * decides the whole filter): the fast way to export. */
typedef int (*bl_json_fn)(void *ctx, const char *json, size_t len, const char *run_id);
int bl_store_each_json(bl_store *s, const bl_filter *f, bl_json_fn fn, void *ctx, char *err,
                       size_t errlen);

/* The records matching f (NULL = all) grouped by shape (fold.h) in the database, one group
 * per shape with its fold figures summed exactly, to fn in order of the group's first record
 * (fn may take g->shape, leaving NULL). A nonzero return from fn stops and is returned.
 * Returns 0; 1 when the store cannot answer exactly (a backend without it, a filter term C
 * must decide), so the caller walks the records instead; -1 with err. */
typedef int (*bl_fold_fn)(void *ctx, bl_fold_group *g);
int bl_store_fold(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                  size_t errlen);

/* The records matching f (NULL = all) in import order, each as its shape (fold.h) with its
 * run, line and when set from the record, and its fold figures (BL_ABSENT where none): the
 * record less its figures, samples and curves, read without decoding its JSON. r and fig
 * are valid during the call. Returns 0; 1 when the store cannot (as bl_store_fold: a backend
 * without it, a filter term C must decide), before fn is called; -1 with err. */
typedef void (*bl_lean_fn)(void *ctx, const bl_record *r, const double fig[BL_FOLD_N]);
int bl_store_each_lean(bl_store *s, const bl_filter *f, bl_lean_fn fn, void *ctx, char *err,
                       size_t errlen);

/* Appends the records matching f (NULL = all) to out, in import order. */
int bl_store_query(bl_store *s, const bl_filter *f, bl_records *out, char *err, size_t errlen);

typedef struct bl_run_info {
    char id[BL_RUN_ID_LEN + 1];
    int64_t import_id;
    bl_record *head;    /* the run-level fields (fields.h: BL_FF_RUN: source, run, tool, ...)
                           as its first record has them; nothing else set */
    int64_t first_line; /* the least line of its records */
    char *imported_at;  /* ISO 8601 UTC */
    size_t n_records;
    size_t n_labels;
    bl_label *labels; /* the run's labels: those every record of the run has, same value */
} bl_run_info;

/* Calls fn for each run holding at least one record that matches f, in import order; the
 * info is valid during the call only. Records are read one at a time. */
typedef int (*bl_run_fn)(void *ctx, const bl_run_info *run);
int bl_store_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                      size_t errlen);
/* The same, collected; caller frees with bl_run_infos_free. */
int bl_store_runs(bl_store *s, const bl_filter *f, bl_run_info **runs, size_t *n, char *err,
                  size_t errlen);
void bl_run_infos_free(bl_run_info *runs, size_t n);

/* The runs `list f` shows are the runs these act on, whole, in one transaction. relabel
 * sets each of set[] (K=V) and removes each key of unset[] on every record of those runs;
 * delete removes them (and an import left without runs). *n_runs and *n_records say how
 * many were touched. */
int bl_store_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                     char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                     char *err, size_t errlen);
int bl_store_delete(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records, char *err,
                    size_t errlen);

/* Copies the runs `list f` shows in src into dst (any two stores, either backend), import
 * by import, each one transaction of dst: a source dst already holds (the same content
 * key) is skipped, so copying again adds nothing. Records keep their labels; runs keep
 * their IDs (made from the content key) unless dst has the window taken. A measured run's
 * import, which has no content, is keyed by its first run's ID and time in src. Counts of
 * imports copied, already there (n_other: of those, with other labels in dst) and records
 * copied. */
typedef struct bl_copy_counts {
    size_t imports, present, other, records;
} bl_copy_counts;
int bl_store_copy(bl_store *src, bl_store *dst, const bl_filter *f, bl_copy_counts *counts,
                  char *err, size_t errlen);

#endif
