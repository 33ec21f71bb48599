#include "fio_totals.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include "fio_common.h"
#include "fio_units.h"
#include <stdio.h>
#include <string.h>

/*   2.x  `READ: io=5120.0MB, aggrb=367715KB/s, minb=..., maxb=..., mint=14258msec, maxt=...`
 *   3.x  `READ: bw=70.2MiB/s (73.6MB/s), 70.2MiB/s-70.2MiB/s (...), io=140MiB (147MB),
 *         run=2001-2001msec` */
bl_record *bl_fio_group_total(const char *p, int ddir, long group, const char *version)
{
    const char *bw = bl_fio_after(p, "aggrb="), *run = bl_fio_after(p, "maxt=");
    if (!bw)
        bw = bl_fio_after(p, "bw=");
    if (!run && (run = bl_fio_after(p, "run=")))
        run = strchr(run, '-') ? strchr(run, '-') + 1 : run;
    double x;
    int si = 0, fig = bw ? bl_fio_figure(bw, 0, &x, &si, NULL) : BL_FIO_FIG_BAD;
    if (fig == BL_FIO_FIG_DISAGREE ||
        (fig == BL_FIO_FIG_BAD && (!bw || !bl_parse_bandwidth(bw, BL_BINARY, &x, NULL))))
        return NULL;
    bl_record *r = bl_record_new();
    bl_fio_fill(r, ddir, NULL, NULL, version);
    r->bw_bytes_s = x;
    const char *io = bl_fio_after(p, "io=");
    if (io && (bl_fio_figure(io, si, &x, NULL, NULL) == BL_FIO_FIG_OK ||
               bl_parse_size(io, BL_BINARY, &x, NULL)))
        r->io_bytes = bl_count_or(x, -1);
    if (run && bl_parse_duration_ns(run, 1e6, &x, NULL))
        r->runtime_s = x / 1e9;
    char g[32];
    snprintf(g, sizeof g, "%ld", group);
    bl_record_set_label(r, "group", g);
    bl_record_set_label(r, "scope", "group total");
    bl_record_set_str(&r->note, "group total from fio's \"Run status group\" line (aggregate "
                                "bandwidth of its jobs); the job blocks are not in the text");
    return r;
}

void bl_fio_flush_totals(bl_records *totals, bl_records *out, size_t run_first)
{
    for (size_t i = 0; i < totals->n; i++) {
        bl_record *t = totals->v[i];
        const char *g = bl_record_label(t, "group");
        int has_jobs = 0;
        for (size_t k = run_first; k < out->n && !has_jobs; k++) {
            const char *rg = bl_record_label(out->v[k], "group");
            const char *sc = bl_record_label(out->v[k], "scope");
            /* job records, numjobs clones (scope "job K/N") among them */
            has_jobs = (!sc || strcmp(sc, "group total") != 0) && (!rg || strcmp(rg, g) == 0);
        }
        if (has_jobs)
            bl_record_free(t);
        else
            bl_records_push(out, t);
    }
    totals->n = 0;
}
