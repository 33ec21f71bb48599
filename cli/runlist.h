/* The run table `list` prints, and `delete` shows before it asks: one line a run whatever
 * its labels hold (control characters are shown escaped), columns aligned, the run ID
 * first; or one JSON object a run. Rows are printed a page at a time, so memory does not
 * grow with the store; a column only widens from one page to the next. */
#ifndef BL_RUNLIST_H
#define BL_RUNLIST_H

#include "../core/store.h"
#include "../core/strbuf.h"
#include <stdio.h>

typedef struct bl_run_table bl_run_table;

/* Text for one line (core/escape.h, BL_ESC_LINE): control characters as \n, \t, \r, \xNN. */
void bl_put_escaped(bl_strbuf *sb, const char *s);

bl_run_table *bl_run_table_new(FILE *out, int json);
/* A bl_run_fn: ctx is the table. */
int bl_run_table_add(void *table, const bl_run_info *run);
/* Prints what is left, frees the table; returns the number of runs added. */
size_t bl_run_table_finish(bl_run_table *t);

#endif
