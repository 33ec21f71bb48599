/* Internal to table.c: set-up keys and names of the comparison's columns.
 *
 * A key is the --by value, or "\x1e" + the set-up key when the record lacks the label, or
 * by default the set-up key: source, heading, table row (when one for the run), table column
 * and host, joined by "\x1f". */
#ifndef BL_COMPARE_SETUPS_H
#define BL_COMPARE_SETUPS_H

#include "../core/strbuf.h"
#include "table.h"

/* The column key of r for by (NULL: default), into buf. row_setup: r's "row" label names a
 * set-up (bl_setup_rows_naming). */
const char *bl_setup_col_key(const bl_record *r, const char *by, int row_setup, char *buf,
                             size_t n);
/* For each record, whether its "row" label is the same over its run; caller frees. */
int *bl_setup_rows_naming(const bl_records *recs);
/* Appends r's test row key (test, bs, iodepth, numjobs) to sb. */
void bl_setup_row_key(const bl_record *r, bl_strbuf *sb);

/* The fields and labels that describe how a record was run (setup_plan.c's desc[]: job, device,
 * target, dd's operands, ...; size_bytes last, as only some runs print it). */
extern const char *const *const bl_setup_desc;
extern const size_t bl_setup_n_desc;

/* r's description as the plan keys it: the values of bl_setup_desc, "\x1f"-joined. */
void bl_setup_describe(const bl_record *r, bl_strbuf *d);
/* The same with the fields of bl_setup_desc resolved once (bl_setup_n_desc of them), for a
 * walk that describes every record. */
struct bl_field;
void bl_setup_desc_fields(const struct bl_field **f);
void bl_setup_describe_with(const bl_record *r, const struct bl_field *const *f, bl_strbuf *d);

/* The split of set-ups whose cells would mix runs described differently (setup_plan.c): add
 * every record (a first walk) or the fine groups (fine.h), end, then give it to the builder, which
 * appends to such a record's column key "\x1d" and the labels telling it apart ("job=ssd"). */
typedef struct bl_setup_plan bl_setup_plan;
bl_setup_plan *bl_setup_plan_new(const char *by);
void bl_setup_plan_add(bl_setup_plan *p, const bl_record *r, int row_setup);
void bl_setup_plan_end(bl_setup_plan *p);
/* "job=ssd · direct=true" for r of set-up setup_key, empty when its set-up is not split or r
 * has none of the labels it is split by. */
void bl_setup_plan_split(bl_setup_plan *p, const char *setup_key, const bl_record *r,
                         bl_strbuf *out);
/* The same for a description d (bl_setup_describe). */
void bl_setup_plan_split_desc(bl_setup_plan *p, const char *setup_key, const char *d,
                              bl_strbuf *out);
void bl_setup_plan_free(bl_setup_plan *p);
/* How many different set-ups (descriptions) the cell of r (its set-up, its test) holds. */
size_t bl_setup_plan_count(bl_setup_plan *p, const char *setup_key, const bl_record *r);
/* The same for a test row key (bl_setup_row_key). */
size_t bl_setup_plan_count_row(bl_setup_plan *p, const char *setup_key, const char *row);
/* The builder owns plan from now on (NULL: no split). */
void bl_table_set_plan(bl_table_builder *b, bl_setup_plan *plan);

/* Sets each column's title, label and unlabelled mark, and t->n_unlabelled. */
void bl_setup_name_columns(bl_table *t);

#endif
