#include "iolog.h"
#include "../core/atomic.h"
#include "../core/strbuf.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_log_push(bl_log *l, uint64_t t_ms, uint64_t value, uint32_t dir, uint64_t bs)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->v = bl_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (bl_logent){t_ms, value, dir, bs};
}

static void flush_window(bl_iolog_set *s, uint64_t bs)
{
    for (int d = 0; d < 2; d++) {
        uint64_t n = s->win_n[d];
        if (!n)
            continue;
        uint64_t t = s->win_start_ms + s->avg_ms;
        if (s->win_slat[d])
            bl_log_push(&s->slat, t, s->win_slat[d] / n, (uint32_t)d, bs);
        bl_log_push(&s->clat, t, s->win_clat[d] / n, (uint32_t)d, bs);
        bl_log_push(&s->lat, t, s->win_lat[d] / n, (uint32_t)d, bs);
        s->win_n[d] = s->win_slat[d] = s->win_clat[d] = s->win_lat[d] = 0;
    }
}

void bl_iolog_lat_slow(bl_iolog_set *s, uint64_t t_ns, int dir, uint64_t bs, uint64_t slat,
                       uint64_t clat, uint64_t lat)
{
    uint64_t t_ms = t_ns / 1000000;
    bool has_slat = slat != UINT64_MAX;
    if (s->avg_ms == 0) {
        if (has_slat)
            bl_log_push(&s->slat, t_ms, slat, (uint32_t)dir, bs);
        bl_log_push(&s->clat, t_ms, clat, (uint32_t)dir, bs);
        bl_log_push(&s->lat, t_ms, lat, (uint32_t)dir, bs);
        return;
    }
    while (t_ms >= s->win_start_ms + s->avg_ms) {
        flush_window(s, bs);
        s->win_start_ms += s->avg_ms;
    }
    s->win_n[dir]++;
    s->win_slat[dir] += has_slat ? slat : 0;
    s->win_clat[dir] += clat;
    s->win_lat[dir] += lat;
}

static int write_one(const bl_log *l, const char *prefix, const char *kind, int id, char *err,
                     size_t errlen)
{
    if (!prefix || l->n == 0)
        return 0;
    bl_strbuf p;
    bl_strbuf_init(&p);
    bl_strbuf_printf(&p, "%s_%s.%d.log", prefix, kind, id);
    bl_atomic a;
    if (bl_atomic_open(&a, p.s, err, errlen) != 0) {
        bl_strbuf_free(&p);
        return -1;
    }
    for (size_t i = 0; i < l->n; i++)
        fprintf(a.f, "%llu, %llu, %u, %llu, 0\n", (unsigned long long)l->v[i].t_ms,
                (unsigned long long)l->v[i].value, l->v[i].dir, (unsigned long long)l->v[i].bs);
    int rc = bl_atomic_commit(&a, err, errlen);
    bl_strbuf_free(&p);
    return rc;
}

int bl_iolog_write(bl_iolog_set *s, const char *lat_prefix, const char *bw_prefix,
                   const char *iops_prefix, int id, char *err, size_t errlen)
{
    if (s->lat_on && s->avg_ms)
        flush_window(s, s->clat.n ? s->clat.v[0].bs : 0);
    int rc = 0;
    rc |= write_one(&s->slat, lat_prefix, "slat", id, err, errlen);
    rc |= write_one(&s->clat, lat_prefix, "clat", id, err, errlen);
    rc |= write_one(&s->lat, lat_prefix, "lat", id, err, errlen);
    rc |= write_one(&s->bw, bw_prefix, "bw", id, err, errlen);
    rc |= write_one(&s->iops, iops_prefix, "iops", id, err, errlen);
    return rc ? -1 : 0;
}

void bl_iolog_free(bl_iolog_set *s)
{
    free(s->slat.v);
    free(s->clat.v);
    free(s->lat.v);
    free(s->bw.v);
    free(s->iops.v);
    memset(s, 0, sizeof *s);
}
