/* FILTER of SPEC.md: KEY=VALUE, KEY!=VALUE, KEY~TEXT (substring, case-insensitive) on record
 * keys (tool, test, op, bs, ...) or labels (job, section, ...). All terms must match, but
 * several run=ID terms select any of those runs. label.K looks at the label K only, even
 * when K is also a record key. A bare run ID (8 hex digits) is the term run=ID. */
#ifndef BL_FILTER_H
#define BL_FILTER_H

#include "record.h"
#include <stdbool.h>
#include <stddef.h>

/* Length of a run ID, the store's short name of a run (see store.h). */
#define BL_RUN_ID_LEN 8

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
/* Adds a hint (op 'h'): every record the caller wants has text in its stored JSON (a key,
 * "\"bins\"", that the store's writer always spells so). A store may skip records whose JSON
 * lacks it; C matches every record, so only a caller that decides each record itself (chart's
 * curve kinds) may give one, and records that merely contain the text must be harmless. */
void bl_filter_add_hint(bl_filter *f, const char *text);
void bl_filter_free(bl_filter *f);
bool bl_filter_match(const bl_filter *f, const bl_record *r);
/* The same for a record of the run run_id: terms on `run` compare that ID (NULL: the
 * record's run number, as outside a store). */
bool bl_filter_match_run(const bl_filter *f, const bl_record *r, const char *run_id);
/* Whether text is a run ID's shape (BL_RUN_ID_LEN lowercase hex digits). */
bool bl_is_run_id(const char *text);

/* The value of a record key (a scalar of fields.h: source, line, run, tool, test, op, bs,
 * bw_bytes_s, ...) or, failing that, of a label, as text in buf; NULL if absent. In a
 * FILTER, label.NAME is the label NAME only. */
const char *bl_record_field_text(const bl_record *r, const char *key, char *buf, size_t n);

#endif
