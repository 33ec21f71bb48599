/* Fine groups: a walk's records folded, in one pass, by everything the comparison tells them
 * apart by (their set-up key, test row and description: setups.h), so that the set-up plan
 * and the table are built from the groups, not from the records, and memory grows with the
 * groups. A group holds the exact sums of its figures (stats.h: merged in any grouping they
 * give the same bits) and, with the sequence number of the record that gave it, whatever a
 * table keeps "first" (unit, note, a column's first values of bl_setup_info_keys), so that the
 * table is the one the records would make. This is the shape a grouped query of the store
 * would return (one row per group). Internal to compare/. */
#ifndef BL_COMPARE_FINE_H
#define BL_COMPARE_FINE_H

#include "../core/fold.h"
#include "../core/record.h"
#include "../core/strbuf.h"
#include "setups.h"
#include "smap.h"
#include "table.h"
#include <stddef.h>
#include <stdint.h>

#define BL_FINE_INFO 5 /* one more than a column shows: enough to say "more than 4" */

/* The first distinct values of a key, with the sequence number each was first seen at. */
typedef struct bl_fine_info {
    char *v[BL_FINE_INFO];
    size_t at[BL_FINE_INFO];
    size_t n;
} bl_fine_info;

typedef struct bl_fine {
    char *setup;                        /* bl_setup_col_key (before any split) */
    char *row;                          /* bl_setup_row_key */
    char *desc;                         /* the set-up plan's description (setup_plan.c) */
    char *test;                         /* the test row's fields */
    int64_t bs, iodepth, numjobs;       /* numjobs as the row counts it (absent: 1) */
    char *tool, *source;                /* of its records, NULL when absent */
    bl_cell c;                          /* folded as a table cell; c.unit, c.note owned */
    size_t unit_at, note_at;            /* sequence numbers of the records giving them */
    bl_fine_info info[BL_SETUP_INFO_N]; /* of bl_setup_info_keys */
} bl_fine;

/* Groups in the order of their first record (sequence numbers count bl_fines_add calls). */
typedef struct bl_fines {
    bl_fine *v;
    size_t n, cap;
    size_t n_left_out; /* records without a test name */
    size_t seq;
    char *by;
    int keep; /* keep each value (a median) */
    bl_smap map;
    char **keys;
    size_t kcap;
    const struct bl_field *desc_f[64], *info_f[BL_SETUP_INFO_N]; /* resolved once */
    bl_strbuf row, desc, key;                                    /* of the record at hand */
} bl_fines;

void bl_fines_init(bl_fines *f, const char *by, int keep);
/* row_setup as bl_setup_rows_naming says for r. */
void bl_fines_add(bl_fines *f, const bl_record *r, int row_setup);
/* A group of records of one shape folded by the store (bl_store_fold), added as its records
 * would be (row_setup 0: none has a "row" label), its first id standing for the sequence
 * number: groups must come in order of first id, and ids in the walk's order. */
void bl_fines_add_fold(bl_fines *f, const bl_fold_group *g);
void bl_fines_free(bl_fines *f);

/* Adds value v first seen at sequence number at to i: i keeps the BL_FINE_INFO distinct values
 * of least sequence number. */
void bl_fine_info_add(bl_fine_info *i, const char *v, size_t at);
void bl_fine_info_free(bl_fine_info *i);

/* Folds r's figures into c as a table cell does (table.c), leaving c->unit and c->note. */
void bl_cell_fold(bl_cell *c, const bl_record *r);

/* The plan and the table from the groups (setups.h, table.h). */
void bl_setup_plan_add_fines(bl_setup_plan *p, const bl_fines *f);
void bl_table_add_fines(bl_table_builder *b, const bl_fines *f);

#endif
