/* `benchlog show` in the units people read: bandwidth in MB/s (10^6 bytes/s, as the reports),
 * IOPS, latencies in ns/µs/ms/s with their percentiles in a row, sizes in KiB/MiB, times in
 * s, shares in %. The formatting is compare/fmt.h's, so show and the reports print a figure
 * alike; `show --json` prints the record as stored. */
#ifndef BL_CLI_SHOW_UNITS_H
#define BL_CLI_SHOW_UNITS_H

#include "../core/fields.h"
#include "../core/strbuf.h"

/* The name show gives a field: its unit suffix dropped ("bw_bytes_s" -> "bw", "clat_ns" ->
 * "clat"), since the figure then carries the unit. */
void bl_show_name(char *buf, size_t n, const bl_field *f);

/* Prints one line a value through line(ctx, name, text) for the fields that have a unit
 * (sizes, rates, times, latencies, samples); returns 0 when the field is not one of them,
 * or absent from r (the caller prints it as it is). */
typedef void (*bl_show_line_fn)(void *ctx, const char *name, const char *text);
int bl_show_field(const bl_field *f, const bl_record *r, bl_show_line_fn line, void *ctx);

#endif
