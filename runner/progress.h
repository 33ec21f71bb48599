/* The progress line of `benchlog run`: test, % done, current MB/s and IOPS, time left,
 * rewritten in place. Only when the stream is a terminal: logs and pipes get none of it. */
#ifndef BL_RUNNER_PROGRESS_H
#define BL_RUNNER_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

bool bl_progress_enabled(FILE *f);
/* Formats the line without the terminal controls (for tests). */
void bl_progress_format(char *buf, size_t n, const char *test, double pct, double bw_bytes_s,
                        double iops, double left_s);
void bl_progress_show(FILE *f, const char *test, double pct, double bw_bytes_s, double iops,
                      double left_s);
void bl_progress_clear(FILE *f);

#endif
