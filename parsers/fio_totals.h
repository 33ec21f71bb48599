/* fio's "Run status group" lines as group-total records, for posts that quote only them.
 *
 * A status line's figures (aggregate bandwidth, io, the longest job's run time) describe the
 * group, not a job: the record is labelled scope=group total and says so in `note`. It is
 * given only for a group none of whose jobs the text holds. */
#ifndef BL_FIO_TOTALS_H
#define BL_FIO_TOTALS_H

#include "parser.h"

/* The record of the status line p (after "READ:"), or NULL when its bandwidth is unreadable;
 * source, line and run are the caller's to set. */
bl_record *bl_fio_group_total(const char *p, int ddir, long group, const char *version);

/* Moves to out each of totals whose group has no job record in out from index run_first on;
 * frees the others. totals is left empty. */
void bl_fio_flush_totals(bl_records *totals, bl_records *out, size_t run_first);

#endif
