/* The record's fields, described once: name (as in JSON Lines, CSV and FILTER), kind,
 * where it lives in bl_record, unit, and which outputs show it. jsonl.c writes and reads
 * records by walking this table, export --csv takes its columns from it, FILTER looks keys
 * up in it and the store decides in SQL which of them it can. A new field is one line here
 * (and its member in record.h). */
#ifndef BL_FIELDS_H
#define BL_FIELDS_H

#include "record.h"
#include <stddef.h>

typedef enum bl_field_kind {
    BL_FK_STR,     /* char * */
    BL_FK_INT,     /* int64_t, -1 absent */
    BL_FK_NUM,     /* double, BL_ABSENT absent */
    BL_FK_TRI,     /* int, BL_TRI_ABSENT / BL_FALSE / BL_TRUE; JSON true/false */
    BL_FK_LABELS,  /* n_labels + labels */
    BL_FK_LAT,     /* bl_lat */
    BL_FK_SAMPLES, /* bl_samples */
    BL_FK_DIST,    /* bl_dist */
    BL_FK_DISKS,   /* n_disks + disks */
    BL_FK_SERIES,  /* n_series + series */
} bl_field_kind;

enum {
    BL_FF_CSV = 1,         /* a column of export --csv (a latency: see csv_lat) */
    BL_FF_RUN = 2,         /* the same on every record of a run: list shows it */
    BL_FF_CSV_MEAN = 4,    /* latency: a NAME_mean_ns... column: "clat_mean_ns" */
    BL_FF_CSV_P99 = 8,     /* latency: its 99th percentile column */
    BL_FF_PROVENANCE = 16, /* where a run-level figure came from: show prints it, list does not */
};

typedef struct bl_field {
    const char *name;
    bl_field_kind kind;
    size_t off;
    const char *unit; /* "bytes", "bytes/s", "ns", "s", "%", or NULL */
    unsigned flags;
} bl_field;

/* In SPEC.md's order, which is the order of JSON keys and CSV columns. */
extern const bl_field bl_fields[];
extern const size_t bl_n_fields;

const bl_field *bl_field_find(const char *name);

/* Whether FILTER compares the field's text (scalars: strings, numbers, flags). */
int bl_field_is_scalar(const bl_field *f);

/* The field's value as text (numbers as JSON prints them) in buf; NULL when absent. */
const char *bl_field_text(const bl_field *f, const bl_record *r, char *buf, size_t n);

#define BL_FIELD(r, f, type) ((type *)((char *)(r) + (f)->off))
#define BL_CFIELD(r, f, type) ((const type *)((const char *)(r) + (f)->off))

#endif
