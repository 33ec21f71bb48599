/* What KDiskMark's "MB/s" stands for.
 *
 * Its exports say "MB/s = 1,000,000 bytes/s", but the figure is fio's JSON "bw" (KiB/s)
 * divided by 1024 up to 1.5.0 (MiB/s: V x 1,048,576 bytes/s) and by 1000 from 1.5.1 on
 * (V x 1,024,000 bytes/s; KDiskMark's src/benchmark.cpp, "Bandwith conversion to KB, not
 * KiB"). Its IOPS come from fio unchanged. Exports before 1.6.0 name no version. */
#ifndef BL_CDM_KDISKMARK_H
#define BL_CDM_KDISKMARK_H

#include "parser.h"

/* Bytes/s of one printed "MB/s" in an export of this version ("3.2.0"); 0 when version is
 * NULL or not a version. */
double bl_kdm_unit(const char *version);

/* The records o->recs.v[first..] are one KDiskMark export whose figures were read as 10^6
 * bytes/s: rescales them to the unit of the version. When the export names none, the unit
 * whose IOPS x block size the figures fit is taken and noted on each record; failing that,
 * a 3.x layout (layout3: "[Measure:" or "Target:" in the footer) means 1,024,000; else the
 * bandwidths are dropped with an error at line. */
void bl_kdm_fix_units(bl_parse_out *o, size_t first, const char *version, int layout3, long line);

/* KDiskMark before 3.3.0 ran T threads as T fio jobs without --group_reporting and read back
 * only some: up to 1.5.x the first job, from 1.6.0 every other one (its issue 182). Notes on
 * the records of threads > 1 of such an export (or of one naming no version) that their
 * figures stand for part of the threads, kept as printed. header_1x: the export has the
 * "KDiskMark: https://..." header of 1.4-1.5.x. */
void bl_kdm_note_threads(bl_parse_out *o, size_t first, const char *version, int header_1x);

#endif
