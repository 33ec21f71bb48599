/* Merging the logs of a numjobs=N fio job given together (see fio_log_merge.c): reads the
 * fio-log records of in and appends one merged record per job, kind and direction to out
 * (out owns them; in is left as it is). */
#ifndef BL_FIO_LOG_MERGE_H
#define BL_FIO_LOG_MERGE_H

#include "parser.h"

void bl_fio_logs_merge(const bl_records *in, bl_records *out);

#endif
