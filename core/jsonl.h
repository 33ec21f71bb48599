/* JSON Lines exchange form of records: keys in SPEC.md's order, absent fields omitted,
 * numbers printed to the shortest text that reads back to the same double. */
#ifndef BL_JSONL_H
#define BL_JSONL_H

#include "record.h"
#include "strbuf.h"
#include <stdio.h>

/* Appends one JSON object (no newline) to sb. */
void bl_record_to_json(const bl_record *r, bl_strbuf *sb);
int bl_record_write_jsonl(const bl_record *r, FILE *out);
/* v[0..n) one a line, as bl_record_write_jsonl each, through one buffer; -1 when a write
 * failed. */
int bl_records_write_jsonl(bl_record *const *v, size_t n, FILE *out);

/* Parses one JSON object; on error returns NULL and writes a message to err (may be NULL). */
bl_record *bl_record_from_json(const char *text, size_t len, char *err, size_t errlen);
/* The same through jansson's DOM alone: what the fast reader (record_decode.h), tried
 * first, must equal wherever it answers. */
bl_record *bl_record_from_json_dom(const char *text, size_t len, char *err, size_t errlen);

#endif
