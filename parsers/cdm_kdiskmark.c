#include "cdm_kdiskmark.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define KDM_MIB 1048576.0 /* 1.4.x - 1.5.0: fio's KiB/s / 1024 */
#define KDM_KB 1024000.0  /* 1.5.1 on: fio's KiB/s / 1000 */

/* "1.5.1" -> 10501; -1 when not a version. Parts past 99 count as 99 (no overflow). */
static long version_number(const char *v)
{
    long part[3] = {0, 0, 0};
    char *end;
    for (int i = 0; i < 3; i++) {
        if (*v < '0' || *v > '9')
            return i == 0 ? -1 : part[0] * 10000 + part[1] * 100 + part[2];
        part[i] = strtol(v, &end, 10);
        if (part[i] > 99)
            part[i] = 99;
        v = *end == '.' ? end + 1 : end;
        if (*end != '.')
            break;
    }
    return part[0] * 10000 + part[1] * 100 + part[2];
}

double bl_kdm_unit(const char *version)
{
    long n = version ? version_number(version) : -1;
    if (n < 0)
        return 0;
    return n < 10501 ? KDM_MIB : KDM_KB;
}

/* The candidate unit the export's own IOPS x block size fit within 1% (the candidates are
 * 2.4% apart), over all its rows together; 0 when no row can tell or none fits. */
static double unit_from_iops(const bl_parse_out *o, size_t first)
{
    double expect = 0, printed = 0;
    for (size_t i = first; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        if (bl_present(r->bw_bytes_s) && bl_present(r->iops) && r->bs > 0 && r->bw_bytes_s > 0) {
            expect += r->iops * (double)r->bs;
            printed += r->bw_bytes_s / 1e6;
        }
    }
    if (printed <= 0)
        return 0;
    static const double cand[] = {KDM_KB, KDM_MIB};
    for (size_t k = 0; k < sizeof cand / sizeof cand[0]; k++)
        if (fabs(expect / (printed * cand[k]) - 1) < 0.01)
            return cand[k];
    return 0;
}

static void rescale(bl_parse_out *o, size_t first, double unit, const char *note)
{
    for (size_t i = first; i < o->recs.n; i++) {
        bl_record *r = o->recs.v[i];
        if (!bl_present(r->bw_bytes_s))
            continue;
        r->bw_bytes_s = unit > 0 ? r->bw_bytes_s / 1e6 * unit : BL_ABSENT;
        /* the printed digits, and fio's "bw" is whole KiB/s */
        if (bl_present(r->bw_prec))
            r->bw_prec = unit > 0 ? r->bw_prec / 1e6 * unit + 1024 : BL_ABSENT;
        if (note)
            bl_record_add_note(r, note);
    }
}

void bl_kdm_fix_units(bl_parse_out *o, size_t first, const char *version, int layout3, long line)
{
    double unit = bl_kdm_unit(version);
    if (unit > 0) {
        rescale(o, first, unit, NULL);
        return;
    }
    unit = unit_from_iops(o, first);
    if (unit == KDM_KB)
        rescale(o, first, unit,
                "KDiskMark version not in the export: MB/s read as 1,024,000 bytes/s (1.5.1 "
                "on), the unit its IOPS x block size fit");
    else if (unit == KDM_MIB)
        rescale(o, first, unit,
                "KDiskMark version not in the export: MB/s read as MiB/s (1.4.x to 1.5.0), "
                "the unit its IOPS x block size fit");
    else if (layout3)
        rescale(o, first, KDM_KB,
                "KDiskMark version not in the export: MB/s read as 1,024,000 bytes/s, as its "
                "3.x footer says 3.0 or later");
    else {
        bl_out_error(o, line,
                     "KDiskMark export names no version and its IOPS do not tell MB/s from MiB/s "
                     "(KDiskMark 1.4.x-1.5.0 print MiB/s): bandwidths left out");
        rescale(o, first, 0, "bandwidth left out: unit unknown (KDiskMark version not named)");
    }
}

void bl_kdm_note_threads(bl_parse_out *o, size_t first, const char *version, int header_1x)
{
    long n = version ? version_number(version) : header_1x ? 10500 : -1;
    const char *note =
        n < 0       ? "KDiskMark version not named: before 3.3.0 it read back only part of "
                      "its threads' fio jobs (its issue 182), figures as printed"
        : n < 10600 ? "KDiskMark before 1.6.0 read back the first of its threads' fio jobs "
                      "only: figures are one thread's, as printed"
        : n < 30300 ? "KDiskMark 1.6-3.2 read back every other of its threads' fio jobs (its "
                      "issue 182): figures are about half the threads', as printed"
                    : NULL;
    if (!note)
        return;
    for (size_t i = first; i < o->recs.n; i++)
        if (o->recs.v[i]->numjobs > 1)
            bl_record_add_note(o->recs.v[i], note);
}
