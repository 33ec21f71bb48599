/* Comparison groups: the set-ups meant to be compared with one another, with the tests they
 * share. By default one group per source document (a blog post's set-ups, one fio file's jobs),
 * since set-ups of unrelated sources share few tests and a table across them is mostly empty;
 * when the records were chosen (a filter) or named by --by, one group across sources. Groups
 * come in a stable order: by source name, then as the store holds them (import order, i.e.
 * time); a group's set-ups keep the table's order. Every output is organised by group. */
#ifndef BL_COMPARE_GROUP_H
#define BL_COMPARE_GROUP_H

#include "table.h"
#include <stddef.h>

typedef struct bl_group {
    char *name;   /* the source, or "every set-up" for one group across sources */
    size_t *cols; /* the table's columns, in its order */
    size_t ncols;
    size_t nrows;   /* tests at least one of its set-ups has */
    size_t records; /* records in its cells */
} bl_group;

typedef struct bl_groups {
    bl_group *v;
    size_t n;
} bl_groups;

/* The groups of t: one per column source, or one holding every column when across. */
void bl_groups_make(const bl_table *t, int across, bl_groups *out);
void bl_groups_free(bl_groups *g);

/* The table of a group: its columns and the rows any of them has, the cells copied (repeat
 * values too). Units, notes and tools stay borrowed from t, which must outlive it; free with
 * bl_table_free. */
bl_table *bl_table_subset(const bl_table *t, const size_t *cols, size_t ncols);
/* The same keeping only the rows listed in only (indices into t, nonly of them). */
bl_table *bl_table_subset_rows(const bl_table *t, const size_t *only, size_t nonly,
                               const size_t *cols, size_t ncols);

#endif
