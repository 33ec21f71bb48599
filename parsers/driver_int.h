/* The driver's inside, shared by driver.c (parse, merge, finish), driver_probe.c (which
 * formats claim a text) and driver_pieces.c (big files read in pieces). Not for use outside
 * parsers/driver*.c and their tests. */
#ifndef BL_DRIVER_INT_H
#define BL_DRIVER_INT_H

#include "driver.h"

/* src's errors and warnings copied to the end of dst's. */
void bl_drv_move_diags(bl_parse_out *dst, bl_parse_out *src);
/* The formats whose probe claims t (at most 64), in registry order, pattern files last. */
size_t bl_drv_probe_formats(const bl_text *t, const bl_format **fmts, const bl_patterns *pats);
/* 0 when t holds none of fmt's needles, so that its probe cannot claim t; else 1. */
int bl_drv_may_claim(const bl_text *t, const bl_format *fmt);
int bl_drv_text_is_empty(const bl_text *t);
/* t parsed by each of fmts, their runs merged into out. */
void bl_drv_parse_text(const bl_text *t, const bl_format **fmts, size_t nf, const bl_patterns *pats,
                       bl_parse_out *out);
/* The user's labels and the consistency check of every record. */
void bl_drv_finish_records(bl_parse_out *out, const bl_parse_opts *opts);
/* t parsed as bl_parse_text does; may_be_empty: pieces before it held records. */
int bl_drv_parse_text_as_ex(const bl_text *t, bl_text *own, const bl_parse_opts *opts,
                            bl_parse_out *out, int may_be_empty);
/* PATH of format FMT read in pieces cut where FMT allows, records handed to FN (when given) a
 * piece at a time; *EMITTED: how many. 0, or 1 when the file could not be read. */
int bl_drv_pieces_parse(const char *path, const bl_format *fmt, const bl_parse_opts *opts,
                        bl_parse_out *out, bl_batch_fn fn, void *ctx, size_t *emitted);

#endif
