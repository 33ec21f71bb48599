/* Commas in the figures of a typed results table. "1,020.5" groups thousands (a comma before
 * the point, three digits after each); "1020,5" is a decimal comma, read only when the caller
 * knows every comma of the table is one (bl_st_decimal_commas over each row). Anything else
 * with a comma ("2,699", "1,02.5") has no single reading. */
#ifndef BL_SPEED_TABLE_NUM_H
#define BL_SPEED_TABLE_NUM_H

#include "parser.h"
#include <stddef.h>

/* The n bytes at p as strtod reads them, commas resolved, in buf: 0 when a comma has no single
 * reading or buf is too small. */
int bl_st_plain_figure(const char *p, size_t n, int decimal_comma, char *buf, size_t cap);
/* The commas of a row's figures s when each may be a decimal comma (1 or 2 digits after it, no
 * point in any figure), else -1. */
long bl_st_decimal_commas(const char *s);
/* The error for the figure around the comma at c on that line; not_decimal: the line of the
 * table that rules decimal commas out, or 0. */
void bl_st_comma_error(bl_parse_out *o, long line, const char *c, long not_decimal);

#endif
