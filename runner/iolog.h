/* fio's own log format, so that `benchlog parse --as fio-log` reads our logs back.
 *
 * fio 3.x lines are "time_ms, value, direction, bs, prio": latencies in ns (clat/slat/lat
 * logs), bandwidth in KiB/s (bw log), I/Os per interval rate (iops log); direction 0 read,
 * 1 write. With log_avg_msec = 0 latency logs get one line per I/O, otherwise the mean of
 * each window; bw/iops logs get one line per sampling interval. Files are PREFIX_clat.N.log
 * etc., N the 1-based worker number, as fio names them.
 *
 * write_hist_log (PREFIX_clat_hist.N.log) as fio's flush_hist_samples writes it: "time_ms,
 * direction, bs, c0, c1, ..." with fio's 1856 completion-latency buckets summed by groups of
 * 2^log_hist_coarseness, counting the I/Os since the direction's previous line; a line is
 * written when an I/O completes log_hist_msec or more after it. Unlike fio, the last partial
 * window is written too, so the lines add up to the run's histogram. */
#ifndef BL_RUNNER_IOLOG_H
#define BL_RUNNER_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bl_logent {
    uint64_t t_ms, value;
    uint32_t dir;
    uint64_t bs;
} bl_logent;

typedef struct bl_log {
    size_t n, cap;
    bl_logent *v;
} bl_log;

typedef struct bl_iolog_set {
    bool lat_on, rate_on;
    uint64_t avg_ms; /* 0 = per I/O */
    bl_log slat, clat, lat, bw, iops;
    /* Window of the averaged latency log: sums per direction. */
    uint64_t win_start_ms, win_n[2], win_slat[2], win_clat[2], win_lat[2];
    /* Histogram log: counts since each direction's last line, and the lines (rows of
     * 3 + BL_PLAT_NR >> hist_coarse numbers: time, direction, bs, counts). */
    bool hist_on;
    uint64_t hist_ms;
    unsigned hist_coarse;
    uint64_t *hist_win[2], hist_last_ms[2], hist_t_ms[2], hist_bs[2];
    size_t hist_rows, hist_cap;
    uint64_t *hist_v;
} bl_iolog_set;

void bl_log_push(bl_log *l, uint64_t t_ms, uint64_t value, uint32_t dir, uint64_t bs);
void bl_iolog_lat_slow(bl_iolog_set *s, uint64_t t_ns, int dir, uint64_t bs, uint64_t slat,
                       uint64_t clat, uint64_t lat);
static inline void bl_iolog_lat(bl_iolog_set *s, uint64_t t_ns, int dir, uint64_t bs, uint64_t slat,
                                uint64_t clat, uint64_t lat)
{
    bl_iolog_lat_slow(s, t_ns, dir, bs, slat, clat, lat);
}
/* One completion into the histogram log (hist_on). */
void bl_iolog_hist(bl_iolog_set *s, uint64_t t_ns, int dir, uint64_t bs, uint64_t clat_ns);
/* Writes the logs that are on; prefixes may be NULL. Returns 0 or -1. */
int bl_iolog_write(bl_iolog_set *s, const char *lat_prefix, const char *bw_prefix,
                   const char *iops_prefix, const char *hist_prefix, int worker_id, char *err,
                   size_t errlen);
void bl_iolog_free(bl_iolog_set *s);

#endif
