/* Inside the pattern-file formats: what a loaded file holds (patterns_load.c builds it,
 * patterns.c matches it against texts). */
#ifndef BL_PATTERNS_INT_H
#define BL_PATTERNS_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include "patterns.h"
#include <pcre2.h>

typedef enum { PK_STR, PK_SIZE, PK_COUNT, PK_BW, PK_IOPS, PK_SECONDS, PK_LAT, PK_BOOL } pt_kind;

/* The unit of a field: a fixed multiplier to model units, or the text of another capture. */
typedef struct pt_unit {
    char *field;
    double mult; /* used when from is NULL */
    char *from;  /* capture whose text names the unit */
    int binary;  /* K/M/G of `from` texts are powers of 1024 */
} pt_unit;

typedef struct pt_set {
    char *field, *value;
} pt_set;

typedef struct pt_regex {
    pcre2_code *re;
    long line; /* in the pattern file */
    size_t n_sets;
    pt_set *sets;  /* `set` lines after this `record` */
    char *nonzero; /* `nonzero FIELD`: no record when that field is 0 */
} pt_regex;

typedef struct pt_format {
    bl_format fmt; /* name, summary, family for the driver */
    char *name, *summary, *tool, *path;
    pcre2_code *detect;
    size_t n_ctx, n_rec, n_units, n_sets;
    pt_regex *ctx, *rec;
    pt_unit *units;
    pt_set *sets; /* before any `record`: for every record */
} pt_format;

struct bl_patterns {
    size_t n, cap;
    pt_format **v;
};

/* The kind of a field name ("bw", "lat_p99_9", "label_device"), or -1. */
int pt_field_kind(const char *name, double *pct);
/* Multiplier of a unit name for a field kind ("MiB/s" for PK_BW -> 1048576), 0 if unknown. */
double pt_unit_mult(pt_kind kind, const char *unit, int binary);
void pt_format_free(pt_format *f);

#endif
