/* Internal to table.c: set-up keys and names of the comparison's columns.
 *
 * A key is the --by value, or "\x1e" + the set-up key when the record lacks the label, or
 * by default the set-up key: source, heading, table row (when one for the run), table column
 * and host, joined by "\x1f". */
#ifndef BL_REPORT_SETUPS_H
#define BL_REPORT_SETUPS_H

#include "table.h"

/* The column key of r for by (NULL: default), into buf. row_setup: r's "row" label names a
 * set-up (bl_setup_rows_naming). */
const char *bl_setup_col_key(const bl_record *r, const char *by, int row_setup, char *buf,
                             size_t n);
/* For each record, whether its "row" label is the same over its run; caller frees. */
int *bl_setup_rows_naming(const bl_records *recs);
/* Sets each column's title, label and unlabelled mark, and t->n_unlabelled. */
void bl_setup_name_columns(bl_table *t);

#endif
