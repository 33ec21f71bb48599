/* The model's door for figures: whatever a parser read, a record whose figures no storage
 * benchmark can print is refused (parsers/driver.c: "FILE:LINE: FIELD ...: record refused",
 * the other records kept). Every figure must be finite; bandwidth, IOPS, bytes, latency,
 * runtime, CPU shares and counts must not be negative; rates, latencies and sizes must lie
 * within the physical bounds below. NaN is the model's "absent" and is no figure. */
#ifndef BL_FIGURES_H
#define BL_FIGURES_H

#include "record.h"
#include <stddef.h>

/* A petabyte a second is a thousand times the fastest storage systems there are (the
 * largest parallel file systems move a few TB/s): a figure above it is a misread unit or a
 * forged file, and printing it gives 309-digit cells, NaN coordinates in charts and
 * infinities in a workbook. Every I/O moves at least a byte, so IOPS share the bound. */
#define BL_MAX_BYTES_S 1e15
#define BL_MAX_IOPS 1e15
/* Latency: a single I/O of more than a day is no measurement (fio caps its own at hours);
 * runtime: a century. Sizes: an exabyte (2^60 bytes). */
#define BL_MAX_LAT_NS 86400e9
#define BL_MAX_RUNTIME_S 3.2e9
#define BL_MAX_BYTES 1152921504606846976.0

/* 0 when every figure of r is possible; else -1 with "iops 1.7976931348623157e+308 is
 * beyond any storage device (at most 10^15 IO/s)" in why (the field named as in JSON). */
int bl_figures_check(const bl_record *r, char *why, size_t n);

#endif
