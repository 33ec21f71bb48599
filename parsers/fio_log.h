/* Streaming reader of fio per-I/O logs (see fio_log.c for the formats).
 *
 * bl_fio_log_new takes the kind of log and the job from out->source (fio's file names:
 * NAME_clat.N.log, ...); feed it lines (without their '\n') in order, then
 * bl_fio_log_finish appends one record per direction to out and frees the reader.
 * Memory does not grow with the input: a few histograms and timelines per direction. */
#ifndef BL_FIO_LOG_H
#define BL_FIO_LOG_H

#include "parser.h"

#define BL_FIO_LOG_POINTS 2000 /* at most this many timeline points per record (+1) */

typedef struct bl_fio_log bl_fio_log;

bl_fio_log *bl_fio_log_new(bl_parse_out *out);
void bl_fio_log_line(bl_fio_log *L, const char *p, const char *end);
void bl_fio_log_finish(bl_fio_log *L);

#endif
