/* Sums of one fio job's direction over the hosts of a client/server run: the figures of the
 * "all clients" records of the fio-client format (internal to it).
 *
 * io and I/Os are summed; bw and iops are taken over the longest runtime (fio's own rule
 * for its "All clients"); latency min/max/mean/stdev are exact over all samples (fio's
 * sample stdev); percentiles come from the summed bins, never from averaged percentiles.
 * The same holds for the write side's fsync/fdatasync latency (sync_ns). */
#ifndef BL_FIO_CLIENT_SUM_H
#define BL_FIO_CLIENT_SUM_H

#include "../core/record.h"

enum { BL_FC_SLAT, BL_FC_CLAT, BL_FC_LAT, BL_FC_SYNC, BL_FC_NKIND };

typedef struct bl_fc_latsum {
    double n, s1, s2, min, max; /* samples, sum, sum of squares */
    bl_lat bins;
    size_t npcts;
    double pcts[32]; /* the first host's percentile list, to give the same ones */
} bl_fc_latsum;

typedef struct bl_fc_sum {
    char *job;
    int ddir, hosts;     /* hosts: entries added */
    int64_t io, numjobs; /* numjobs: jobs per host, 0 when unknown (set by the caller) */
    double ios, runtime_ms, usr_w, sys_w, cpu_w;
    bl_fc_latsum lat[BL_FC_NKIND];
} bl_fc_sum;

/* r's slat_ns, clat_ns, lat_ns or sync_ns. */
bl_lat *bl_fc_lat(bl_record *r, int kind);

/* Adds one host's record of the direction: n[k] samples behind latency kind k (fio's
 * "N"), ios its I/O count, weight its job runtime (the CPU figures' weight). */
void bl_fc_sum_add(bl_fc_sum *s, const bl_record *r, const double n[BL_FC_NKIND], double ios,
                   double weight);

/* Sets r's figures and note from the sum; the summed bins move into r. */
void bl_fc_sum_fill(bl_fc_sum *s, bl_record *r);

/* Appends to r's note what fio's own sum f of the same direction says differently. */
void bl_fc_note_fio_all(bl_record *r, const bl_record *f);

void bl_fc_sum_free(bl_fc_sum *s);

#endif
