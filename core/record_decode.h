/* A fast reader of the record JSON jsonl.c writes (the store's stored form): read in place,
 * no DOM. It returns the record jsonl.c's jansson reader would give, or NULL where it is
 * unsure (escapes past the two-character ones, repeated keys, numbers it cannot reproduce
 * bit for bit, nesting past 32, anything malformed): the caller then takes the jansson path,
 * which also words the error. bl_record_from_json does exactly that. */
#ifndef BL_RECORD_DECODE_H
#define BL_RECORD_DECODE_H

#include "record.h"
#include <stddef.h>

bl_record *bl_record_decode_fast(const char *text, size_t len);
/* The same for a labels object alone (the store's json_extract(json, '$.labels')): a record
 * holding only those labels, as jsonl.c would read them, or NULL where unsure. */
bl_record *bl_labels_decode_fast(const char *text, size_t len);

/* What a pass that needs only part of each record reads (several times faster over many
 * records): the fields whose bit is set in fields (bit i: bl_fields[i]), the others checked
 * as JSON and left absent; with pct_keys, of a latency read only its mean and which
 * percentiles it has, each percentile's value read as 0 (min, max, stdev and bins absent). */
typedef struct bl_decode_want {
    unsigned long long fields;
    int pct_keys;
} bl_decode_want;
#define BL_DECODE_FIELD(i) (1ULL << (i))
/* The record bl_record_from_json gives, less what want leaves out; NULL where unsure (as
 * bl_record_decode_fast, and where a value left out might make jansson refuse the record:
 * the caller then decodes it whole). */
bl_record *bl_record_decode_want(const char *text, size_t len, const bl_decode_want *want);

#endif
