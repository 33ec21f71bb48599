/* The two human layouts of bonnie++ results: the fixed-width table bonnie++ and bon_csv2txt
 * print, and a table re-typed into a page with | separators. */
#ifndef BL_BONNIE_TABLE_H
#define BL_BONNIE_TABLE_H

#include "bonnie_common.h"

/* True when the line is the group header that opens a table ("------Sequential Output------"
 * or "------Sequential Create------", bare or between | bars). */
int bl_bonnie_table_start(const char *line);

/* Parses the table whose group header is line index i; appends one run per result row to
 * *v (grown with bl_grow) and returns the index of the first line after the table. Rows
 * that cannot be read are reported through o. */
size_t bl_bonnie_table_parse(const bl_text *t, size_t i, bl_parse_out *o, bl_bonnie_run **v,
                             size_t *n, size_t *cap);

#endif
