/* The lines of a fio job block, one at a time (fio_normal_lines.h). */
#include "fio_normal_lines.h"
#include "../core/units.h"
#include "fio_common.h"
#include "fio_units.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Word before ":" at the start of the trimmed line, e.g. "read" of "read : io=". */
int bl_fio_line_key(const char *p, const char *key)
{
    if (*p != *key) /* most lines of a block: one byte tells, no strlen nor strncmp */
        return 0;
    size_t n = strlen(key);
    return strncmp(p, key, n) == 0 && !isalnum((unsigned char)p[n]);
}

void bl_fio_old_summary(const char *p, bl_record *r)
{
    const char *v;
    double x;
    if ((v = bl_fio_after(p, "io=")) && bl_parse_size(v, BL_BINARY, &x, NULL))
        r->io_bytes = bl_count_or(x, -1);
    if ((v = bl_fio_after(p, "bw=")) && bl_parse_bandwidth(v, BL_BINARY, &x, NULL))
        r->bw_bytes_s = x;
    if ((v = bl_fio_after(p, "iops=")) && bl_parse_count(v, &x, NULL))
        r->iops = x;
    if ((v = bl_fio_after(p, "runt=")) && bl_parse_duration_ns(v, 1e6, &x, NULL))
        r->runtime_s = x / 1e9;
}

/* `IOPS=18.0k, BW=70.2MiB/s (73.6MB/s)(140MiB/2001msec)`: the first figure is in kb_base's
 * units (MiB by default, MB with kb_base=1000: fio_units.h), and so is the io after it. fio's
 * client mode prints its "All clients" rate without the unit: `BW=105Mi (110M)`. */
void bl_fio_new_summary(const char *p, bl_record *r, int *si)
{
    const char *v;
    double x;
    if ((v = bl_fio_after(p, "IOPS=")) && bl_parse_count(v, &x, NULL))
        r->iops = x;
    if (bl_fio_figure_after(p, "BW=", 0, &x, si) == BL_FIO_FIG_OK)
        r->bw_bytes_s = x;
    const char *io = strstr(p, ")(");
    io = io ? io + 2 : NULL;
    const char *e;
    if (io && bl_fio_figure(io, *si, &x, NULL, &e) == BL_FIO_FIG_OK && *e == '/') {
        r->io_bytes = bl_count_or(x, -1);
        if (bl_parse_duration_ns(e + 1, 1e6, &x, NULL))
            r->runtime_s = x / 1e9;
    }
}

/* Unit word in "(usec)" right after p (spaces allowed); ns per unit, 0 when none. */
double bl_fio_paren_unit(const char *p, const char **end)
{
    p = bl_fio_skip(p);
    if (*p != '(')
        return 0;
    const char *q = strchr(p, ')');
    if (!q)
        return 0;
    double m = bl_time_unit_ns(p + 1, (int)(q - p - 1));
    if (end)
        *end = q + 1;
    return m;
}

bl_lat *bl_fio_lat_of(bl_record *r, const char *p, size_t *keylen)
{
    if (bl_fio_line_key(p, "slat")) {
        *keylen = 4;
        return &r->slat_ns;
    }
    if (bl_fio_line_key(p, "clat")) {
        *keylen = 4;
        return &r->clat_ns;
    }
    if (bl_fio_line_key(p, "lat")) {
        *keylen = 3;
        return &r->lat_ns;
    }
    /* fio 3.x's "fsync/fdatasync/sync_file_range:" block follows the job's last direction,
     * the writes that the syncs went with. */
    if (bl_fio_line_key(p, "sync")) {
        *keylen = 4;
        return &r->sync_ns;
    }
    return NULL;
}

/* min=, max=, avg=, stdev= of a line into dst (in the printed unit times mult); how many
 * were there. Values may carry a "k" (x1000). */
static int read_min_max_avg_stdev(const char *p, double mult, double *const dst[4])
{
    static const char *const keys[] = {"min=", "max=", "avg=", "stdev="};
    int ok = 0;
    for (int i = 0; i < 4; i++) {
        const char *v = bl_fio_after(p, keys[i]);
        double x;
        if (v && bl_parse_count(v, &x, NULL)) {
            *dst[i] = bl_fio_scale(x, mult);
            ok++;
        }
    }
    return ok;
}

/* `clat (msec): min=1 , max=93 , avg= 2.77, stdev= 2.26` */
int bl_fio_lat_line(const char *p, double unit, bl_lat *l)
{
    double *const dst[] = {&l->min, &l->max, &l->mean, &l->stdev};
    int ok = read_min_max_avg_stdev(p, unit, dst);
    l->present = true;
    return ok == 4;
}

/* `|  1.00th=[ 2008],  5.00th=[ 2008], ...` */
int bl_fio_pct_line(const char *p, double unit, bl_lat *l)
{
    int n = 0;
    p++;
    for (;;) {
        p = bl_fio_skip(p);
        double pct, v;
        const char *e;
        if (!bl_parse_number(p, 0, &pct, &e) || strncmp(e, "th=[", 4) != 0)
            break;
        if (!bl_parse_count(e + 4, &v, &e))
            return -1;
        e = bl_fio_skip(e);
        if (*e != ']')
            return -1;
        bl_lat_add_pct(l, bl_fio_pct_round(pct), bl_fio_scale(v, unit));
        n++;
        p = e + 1;
        if (*p == ',')
            p++;
    }
    return n;
}

/* `bw (KB/s)  : min=..., max=..., per=99.85%, avg=..., stdev=...[, samples=6]` and
 * `iops        : min=...`: min/max/avg/stdev in the printed unit, times mult. */
int bl_fio_samples_line(const char *p, double mult, bl_samples *s)
{
    double *const dst[] = {&s->min, &s->max, &s->mean, &s->stdev};
    int ok = read_min_max_avg_stdev(p, mult, dst);
    const char *n = bl_fio_after(p, "samples=");
    s->count = n ? strtoll(n, NULL, 10) : -1;
    s->present = ok > 0;
    return ok == 4;
}

/* "(KB  /s)", "(  KiB/s)", "(  MiB/s)" -> bytes/s per printed unit (fio: K = 1024). */
double bl_fio_bw_unit(const char *p)
{
    const char *o = strchr(p, '('), *c = o ? strchr(o, ')') : NULL;
    if (!c)
        return 0;
    char u[24];
    size_t n = 1;
    u[0] = '1';
    for (const char *q = o + 1; q < c && n < sizeof u - 1; q++)
        if (*q != ' ')
            u[n++] = *q;
    u[n] = '\0';
    double x;
    return bl_parse_bandwidth(u, BL_BINARY, &x, NULL) ? x : 0;
}
