/* Number and text formatting shared by the report renderers, the workbook and the charts.
 *
 * Figures are printed in the units people compare storage in: MB/s meaning 10^6 bytes/s (as
 * CrystalDiskMark and fio 3.x print it), IOPS, latency in the largest unit that keeps the
 * figure >= 1 (ns, µs, ms, s). Widths are terminal columns: East Asian wide characters count
 * two whatever the process locale, so tables line up in a C locale too. */
#ifndef BL_COMPARE_FMT_H
#define BL_COMPARE_FMT_H

#include "../core/strbuf.h"
#include <stddef.h>
#include <stdint.h>

/* "4572.9", "52.61", "0.512", "49223": three to five significant figures (whole numbers from
 * 10000 up), never exponent form. */
void bl_fmt_fig(bl_strbuf *sb, double v);
/* IOPS: whole numbers from 1000 up ("61206"), else as bl_fmt_fig. */
void bl_fmt_iops(bl_strbuf *sb, double v);
/* "1MiB", "4KiB", "512B", "1.5MiB" for a block size in bytes. */
void bl_fmt_size(bl_strbuf *sb, int64_t bytes);
/* "2.77 ms", "812 µs", "95 ns" for a latency in ns. */
void bl_fmt_ns(bl_strbuf *sb, double ns);
/* Terminal columns of UTF-8 text (invalid bytes count one). */
size_t bl_display_width(const char *s);
/* The last path component of a source name ("blog/x.txt" -> "x.txt"). */
const char *bl_basename(const char *path);

#endif
