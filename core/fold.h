/* What a comparison folds of a record, stored beside its JSON (schema v5) so the database can
 * group and sum without reading the JSON: the figures a table cell sums (fold figures, in the
 * order of compare/table.h's metrics) and the record's shape, the record less its figures and
 * everything that differs between repeats (line, run, when, samples...). Records of one shape
 * fall in one comparison cell whatever --by names, as long as --by names only what a shape
 * keeps (bl_fold_keeps). bl_store_fold (store.h) returns one row per shape. */
#ifndef BL_FOLD_H
#define BL_FOLD_H

#include "record.h"
#include "strbuf.h"
#include "xsum.h"
#include <stddef.h>
#include <stdint.h>

/* Same order as compare/table.h's bl_metric. bw in MB/s (10^6 bytes/s), as the cell shows it. */
enum {
    BL_FOLD_BW,
    BL_FOLD_IOPS,
    BL_FOLD_LAT,
    BL_FOLD_P50,
    BL_FOLD_P99,
    BL_FOLD_P999,
    BL_FOLD_VALUE,
    BL_FOLD_CPU,
    BL_FOLD_N
};
/* flags: the mean latency / the percentiles are there, and come from clat (not lat); a note
 * stands for the figures (none of bw, iops, value). */
enum { BL_FOLD_LAT_CLAT = 1, BL_FOLD_PCT = 2, BL_FOLD_PCT_CLAT = 4, BL_FOLD_NOTE_ONLY = 8 };

/* r's fold figures (BL_ABSENT where it has none) and flags. */
void bl_fold_figs(const bl_record *r, double fig[BL_FOLD_N], int *flags);
/* r's shape as JSON (bl_record_to_json of r without the fields a shape drops). */
void bl_fold_shape(const bl_record *r, bl_strbuf *sb);
/* Whether records of one shape agree on field or label name (a name no field has is a label:
 * kept). */
int bl_fold_keeps(const char *name);

/* One figure summed over a group: present values, their exact sum and sum of squares, extremes. */
typedef struct bl_fold_fig {
    size_t n;
    bl_xsum sum, sumsq;
    double lo, hi;
} bl_fold_fig;

/* One shape's records matching a filter, folded. */
typedef struct bl_fold_group {
    int64_t first;                   /* the least record id: its place in walk (id) order */
    size_t n_recs, n_notes;          /* records; those whose note stands for their figures */
    size_t lat_from[2], pct_from[2]; /* as compare's cells count them: [0] lat, [1] clat */
    bl_fold_fig fig[BL_FOLD_N];
    bl_record *shape; /* the shape decoded (figures absent); owned */
} bl_fold_group;

/* Adds one record's figures and flags to g (not n_recs). */
void bl_fold_add(bl_fold_group *g, const double fig[BL_FOLD_N], int flags);
void bl_fold_group_free(bl_fold_group *g);

#endif
