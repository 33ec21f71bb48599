/* FILTER of SPEC.md: KEY=VALUE, KEY!=VALUE, KEY~TEXT (substring, case-insensitive) on record
 * keys (tool, test, op, bs, ...) or labels (job, section, ...). All terms must match. */
#ifndef BL_FILTER_H
#define BL_FILTER_H

#include "record.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct bl_filter_term {
    char *key;
    char op; /* '=', '!', '~' */
    char *value;
} bl_filter_term;

typedef struct bl_filter {
    size_t n;
    bl_filter_term *t;
} bl_filter;

/* Adds one term; returns -1 with a message when text is not KEY=VALUE. */
int bl_filter_add(bl_filter *f, const char *text, char *err, size_t errlen);
void bl_filter_free(bl_filter *f);
bool bl_filter_match(const bl_filter *f, const bl_record *r);

/* The value of a record key or, failing that, of a label, as text in buf; NULL if absent.
 * Keys: source line run tool tool_version test op pattern bs iodepth numjobs ioengine direct
 * size_bytes io_bytes runtime_s bw_bytes_s iops metric unit, else a label name. */
const char *bl_record_field_text(const bl_record *r, const char *key, char *buf, size_t n);

#endif
