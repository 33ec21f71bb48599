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

#endif
