/* Records as CSV rows (export --csv): the columns come from the field table (fields.h): its
 * CSV scalars, the labels as "k=v; k=v", and a latency's mean and 99th percentile as
 * NAME_mean_ns / NAME_p99_ns. Numbers are printed as JSON Lines prints them. */
#ifndef BL_CSV_H
#define BL_CSV_H

#include "record.h"
#include "strbuf.h"
#include <stddef.h>

void bl_csv_header(bl_strbuf *sb);
void bl_csv_row(bl_strbuf *sb, const bl_record *r);
/* The row of a record held as JSON Lines text (the store's form): the text is read in place
 * when it is plainly valid JSON, else decoded as bl_record_from_json does, so the row is the
 * one bl_csv_row writes for the decoded record either way. Returns 0, or -1 when the text is
 * no record (nothing written). */
int bl_csv_row_json(bl_strbuf *sb, const char *json, size_t len);

#endif
