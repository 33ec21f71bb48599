/* iozone's throughput mode (-t N): one block a test,
 *   Children see throughput for  4 initial writers  =  420478.03 kB/sec
 *   Parent sees throughput for  4 initial writers   =  396342.81 kB/sec
 *   Min throughput per process ...
 * The children's figure (the sum of each process's own rate) is the record's bandwidth, N its
 * numjobs; the parent's (all bytes over the parent's wall time) goes in the note. kB = 1024
 * bytes; "ops/sec" under -O. One run per iozone invocation (a test seen again starts the next). */
#ifndef BL_IOZONE_TPUT_H
#define BL_IOZONE_TPUT_H

#include "parser.h"

/* Whether s is a "Children see throughput for N <test> = X kB/sec" line. */
int bl_iozone_tput_line(const char *s);

/* Adds the records of every throughput block of t, numbering runs after *run. */
void bl_iozone_tput_parse(const bl_text *t, bl_parse_out *out, int64_t *run);

#endif
