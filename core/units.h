/* Turning what tools print into the model's units.
 *
 * Every function parses a number with an optional unit from the start of `s` and returns
 * true with the converted value in *out, or false when the text is not such a quantity.
 * `end` (may be NULL) receives the first character not consumed. Decimal commas ("16,747")
 * are accepted where the dialect says so (BL_DECIMAL_COMMA).
 *
 * The meaning of K/M/G differs by tool; the caller states it:
 *   BL_SI      K = 10^3  (CrystalDiskMark and dd "MB", fio 3.x "(376MB/s)", "kB")
 *   BL_BINARY  K = 2^10  (fio 2.x "KB/s" and "MB", bonnie++ "K/sec", any "KiB"/"MiB")
 * An explicit IEC suffix (KiB, MiB) is always binary whatever the dialect. */
#ifndef BL_UNITS_H
#define BL_UNITS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { BL_SI = 0, BL_BINARY = 1 } bl_kilo;
enum { BL_DECIMAL_COMMA = 0x100 }; /* or-ed into the bl_kilo argument */

/* A plain decimal number, "1,5" accepted with BL_DECIMAL_COMMA in flags. */
bool bl_parse_number(const char *s, int flags, double *out, const char **end);
/* "367715KB/s", "960935 B/s", "359MiB/s", "641 MB/s", "1.2GB/s", "51501929 bytes/sec" -> bytes/s */
bool bl_parse_bandwidth(const char *s, int kilo, double *out, const char **end);
/* "5120.0MB", "1024MB", "4k", "1m", "10737418240" -> bytes (bare k/m suffixes as given by kilo) */
bool bl_parse_size(const char *s, int kilo, double *out, const char **end);
/* "2.77 msec", "2215.24 usec", "800ns", "1.5s", "3ms", "120us" -> ns; bare number uses
 * default_unit_ns (e.g. 1000 for a number known to be usec). */
bool bl_parse_duration_ns(const char *s, double default_unit_ns, double *out, const char **end);
/* "1.5k", "359", "6839k", "3509.5K", "1.2M" IOPS -> IO/s; k is always 1000 for counts. */
bool bl_parse_count(const char *s, double *out, const char **end);
/* Multiplier of a unit word ("usec"->1000, "msec"->1e6, "nsec"->1, "sec"->1e9); 0 if unknown. */
double bl_time_unit_ns(const char *unit, int len);

/* A count or size as int64: false when v is NaN, infinite, negative or beyond 2^63. */
bool bl_to_count(double v, int64_t *out);
/* The same as a value: v rounded to the nearest count, or `absent` when it is no count. */
int64_t bl_count_or(double v, int64_t absent);

#endif
