/* Reading the records a report, chart or workbook is made of: the store's records matching
 * the FILTER terms given on the command line, in import order. */
#ifndef BL_COMPARE_LOAD_H
#define BL_COMPARE_LOAD_H

#include "../core/record.h"
#include "../core/store.h"
#include "table.h"
#include <stddef.h>

/* Returns 0, 1 when the store could not be read or no record matches, 2 for a bad FILTER
 * term; err says why. */
int bl_report_load(const char *db, int nterms, char **terms, bl_records *out, char *err,
                   size_t errlen);

/* The comparison table of the same records, built in one walk of the store (fine.h: records
 * fold into fine groups, the set-up plan and the table are made from them; --repeats all walks
 * twice): memory holds the groups, the table's figures and at most one source's records (while
 * its table rows may still name set-ups), never the whole store. each (may be NULL) sees every
 * matching record first. Returns as bl_report_load, or 3 when the table is refused (a baseline
 * naming no column). */
typedef void (*bl_report_each_fn)(void *ctx, const bl_record *r);
int bl_report_table(const char *db, int nterms, char **terms, const bl_table_opts *o,
                    bl_report_each_fn each, void *ctx, bl_table **out, char *err, size_t errlen);

/* What a caller of bl_report_table_sees sees of the matching records: each sees every record
 * when the store is walked; when its fold stands for the walk (as it does for a report: no
 * median, no --repeats all, --by naming only what a shape keeps, no C-decided filter term, no
 * "row" label), shape (if not NULL) sees instead each fold group's shape (core/fold.h: the
 * record less its figures, line, run, times, samples) and how many records have it, in the
 * order of their first record. A caller that needs no more of a record than its shape passes
 * both; with shape NULL, each makes the table walk the store. */
typedef void (*bl_report_shape_fn)(void *ctx, const bl_record *shape, size_t n_recs);
/* lean (if not NULL; shape is then not called) sees instead every matching record as
 * bl_store_each_lean gives it (core/store.h: the shape with run, line and when, and the
 * fold figures), in import order, when the store can give them so. */
typedef struct bl_report_sees {
    bl_report_each_fn each;
    bl_report_shape_fn shape;
    bl_lean_fn lean;
    void *ctx;
} bl_report_sees;
int bl_report_table_sees(const char *db, int nterms, char **terms, const bl_table_opts *o,
                         const bl_report_sees *see, bl_table **out, char *err, size_t errlen);

/* The one walk of bl_report_table, into fines (fine.h) that may already hold groups of an
 * earlier walk: their sequence numbers go on, as if the records were one list. tag (may be
 * NULL) may change each matching record before it is folded (compare labels its side).
 * Returns as bl_report_load. */
struct bl_fines;
typedef void (*bl_report_tag_fn)(void *ctx, bl_record *r);
int bl_report_fines(const char *db, int nterms, char **terms, struct bl_fines *fines,
                    bl_report_tag_fn tag, void *ctx, char *err, size_t errlen);

/* Calls fn for every matching record, in import order (r valid during the call); a nonzero
 * return from fn stops the walk. Returns as bl_report_load; a stop is 1. */
typedef int (*bl_report_rec_fn)(void *ctx, const bl_record *r);
int bl_report_walk(const char *db, int nterms, char **terms, bl_report_rec_fn fn, void *ctx,
                   char *err, size_t errlen);
/* The same, told that fn wants only records whose stored JSON holds hint (NULL: all; filter.h,
 * bl_filter_add_hint): the store may skip the others unread. fn must ignore a record without
 * it as it would anyway; when no record holds it, every matching record is walked. */
int bl_report_walk_hint(const char *db, int nterms, char **terms, const char *hint,
                        bl_report_rec_fn fn, void *ctx, char *err, size_t errlen);

/* A source of records the workbook and the PDF walk (twice, so that none is held): walk
 * calls fn on each record in order; returns 0, else nonzero with err. */
typedef int (*bl_rec_walk_fn)(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen);
/* src: a bl_records held. */
/* The same, with tag (as bl_report_fines') changing each record before fn sees it. */
int bl_report_walk_tag(const char *db, int nterms, char **terms, bl_report_tag_fn tag,
                       void *tag_ctx, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen);
/* Every matching record as bl_store_each_lean gives it (core/store.h: its shape with run,
 * line and when, and its fold figures), in import order. Returns as bl_report_load, or -1,
 * having called fn for none, when the store cannot give them so (the caller walks). */
int bl_report_lean(const char *db, int nterms, char **terms, bl_lean_fn fn, void *ctx, char *err,
                   size_t errlen);
int bl_walk_records(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen);
/* src: a bl_store_walk, the store's records matching FILTER terms (bl_report_walk); with want,
 * each decoded only as far as it says (core/record_decode.h): a pass that needs a few fields
 * of every record. */
struct bl_decode_want;
typedef struct {
    const char *db;
    int nterms;
    char **terms;
    const struct bl_decode_want *want; /* NULL: whole records */
} bl_store_walk;
int bl_walk_store(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen);
/* The same walk, each record handed to fn, which frees it (bl_record_free): a caller that keeps
 * records a while (a reader thread's batches) makes no copy. Returns as walk. */
typedef int (*bl_report_take_fn)(void *ctx, bl_record *r);
typedef int (*bl_rec_take_fn)(void *src, bl_report_take_fn fn, void *ctx, char *err, size_t errlen);
int bl_walk_store_take(void *src, bl_report_take_fn fn, void *ctx, char *err, size_t errlen);

#endif
