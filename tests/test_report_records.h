/* Records of every tool, built by hand as their parsers make them, for the report, chart and
 * workbook tests. Figures are those the tools printed, converted to model units: fio 3.x
 * "bw=359MiB/s (377MB/s)", bonnie++ 1.98 "K/sec", GNU dd "MB/s", CrystalDiskMark "MB/s"
 * (10^6), and benchlog's own runner with latency bins and a bandwidth timeline. */
#ifndef BL_TEST_REPORT_RECORDS_H
#define BL_TEST_REPORT_RECORDS_H

#include "../core/record.h"

static inline bl_record *rec(bl_records *rs, const char *source, long run, const char *tool,
                             const char *version, const char *test, long bs, long qd, long jobs)
{
    bl_record *r = bl_record_new();
    bl_record_set_str(&r->source, source);
    r->line = 10 + (long)rs->n;
    r->run = run;
    bl_record_set_str(&r->tool, tool);
    bl_record_set_str(&r->tool_version, version);
    bl_record_set_str(&r->test, test);
    bl_record_set_str(&r->op, strstr(test, "read")    ? "read"
                              : strstr(test, "write") ? "write"
                                                      : "meta");
    bl_record_set_str(&r->pattern, strncmp(test, "rand", 4) == 0 ? "rand" : "seq");
    r->bs = bs;
    r->iodepth = qd;
    r->numjobs = jobs;
    bl_records_push(rs, r);
    return r;
}

/* fio: one run of two jobs under a Japanese heading. */
/* "md0: ios=81424/0, merge=0/0, ticks=113246/0, in_queue=113244, util=94.77%", as the fio
 * parser puts it on every record of the run. */
static inline void add_md0(bl_record *r)
{
    bl_disk *d = bl_record_add_disk(r, "md0");
    d->read_ios = 81424;
    d->write_ios = d->read_merges = d->write_merges = 0;
    d->read_ticks_s = 113.246;
    d->write_ticks_s = 0;
    d->in_queue_s = 113.244;
    d->util_pct = 94.77;
}

static inline void add_fio(bl_records *rs)
{
    bl_record *r = rec(rs, "blog/nas.txt", 1, "fio", "3.33", "seq-read", 1048576, 8, 1);
    bl_record_set_label(r, "job", "seqread");
    bl_record_set_label(r, "section", "シーケンシャル");
    bl_record_set_label(r, "host", "nas1");
    r->bw_bytes_s = 376540160; /* 359MiB/s */
    r->iops = 359;
    r->clat_ns.mean = 2770000;
    bl_lat_add_pct(&r->clat_ns, 1, 2008000);
    bl_lat_add_pct(&r->clat_ns, 50, 2352000);
    bl_lat_add_pct(&r->clat_ns, 99, 6752000);
    bl_lat_add_pct(&r->clat_ns, 99.9, 22912000);
    /* "bw (  KiB/s): min=348160, max=401408, per=100.00%, avg=367715.00" */
    r->bw_samples =
        (bl_samples){true, 348160.0 * 1024, 401408.0 * 1024, 367715.0 * 1024, BL_ABSENT, 28};
    add_md0(r);
    r = rec(rs, "blog/nas.txt", 1, "fio", "3.33", "rand-read", 4096, 32, 1);
    add_md0(r);
    bl_record_set_label(r, "job", "randread");
    bl_record_set_label(r, "section", "シーケンシャル");
    bl_record_set_label(r, "host", "nas1");
    r->bw_bytes_s = 53870592; /* 51.4MiB/s */
    r->iops = 13152;
    r->clat_ns.mean = 2433000;
    bl_lat_add_pct(&r->clat_ns, 50, 2180000);
    bl_lat_add_pct(&r->clat_ns, 99, 5800000);
    bl_lat_add_pct(&r->clat_ns, 99.99, 14000000);
}

/* bonnie++: three runs under one heading (mean ± stdev), seeks as a metric, "+++++". */
static inline void add_bonnie(bl_records *rs)
{
    for (long i = 0; i < 3; i++) {
        bl_record *r =
            rec(rs, "bonnie.txt", 1 + i, "bonnie++", "1.98", "seq-write-block", 8192, -1, -1);
        bl_record_set_label(r, "section", "ext4 on md0");
        bl_record_set_label(r, "host", "nas1");
        r->bw_bytes_s = (100 + 10 * (double)i) * 1e6;
        r->cpu_pct = 12 + 2 * (double)i;
        r = rec(rs, "bonnie.txt", 1 + i, "bonnie++", "1.98", "rand-seeks", -1, -1, -1);
        bl_record_set_label(r, "section", "ext4 on md0");
        bl_record_set_label(r, "host", "nas1");
        bl_record_set_str(&r->metric, "seeks");
        bl_record_set_str(&r->unit, "ops/s");
        r->value = 200 + 10 * (double)i;
        r = rec(rs, "bonnie.txt", 1 + i, "bonnie++", "1.98", "seq-create", -1, -1, -1);
        bl_record_set_label(r, "section", "ext4 on md0");
        bl_record_set_label(r, "host", "nas1");
        bl_record_set_str(&r->metric, "files");
        bl_record_set_str(&r->unit, "files/s");
        bl_record_set_str(&r->note, "+++++: too fast to measure");
    }
}

/* GNU dd 9.1: "67108864 bytes (67 MB, 64 MiB) copied, 0.281737 s, 238 MB/s" and a read. */
static inline void add_dd(bl_records *rs)
{
    bl_record *r = rec(rs, "dd.txt", 1, "dd", NULL, "seq-write", 1048576, 1, 1);
    r->io_bytes = 67108864;
    r->runtime_s = 0.281737;
    r->bw_bytes_s = 67108864 / 0.281737;
    r = rec(rs, "dd.txt", 2, "dd", NULL, "seq-read", 65536, 1, 1);
    r->io_bytes = 67108864;
    r->runtime_s = 0.0146754;
    r->bw_bytes_s = 67108864 / 0.0146754;
}

/* CrystalDiskMark 8: one table, two columns compared. */
static inline void add_cdm(bl_records *rs)
{
    static const struct {
        const char *col, *cdm, *test;
        long bs, q, t;
        double mbps, iops;
    } cells[] = {
        {"1 GbE", "SEQ1M Q8T1", "seq-read", 1048576, 8, 1, 117.6, 112.2},
        {"10 GbE", "SEQ1M Q8T1", "seq-read", 1048576, 8, 1, 1121.4, 1069.4},
        {"1 GbE", "RND4K Q32T16", "rand-read", 4096, 32, 16, 45.2, 11035.2},
        {"10 GbE", "RND4K Q32T16", "rand-read", 4096, 32, 16, 250.7, 61206.1},
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        bl_record *r = rec(rs, "cdm.txt", 1, "cdm", "8.0.4", cells[i].test, cells[i].bs, cells[i].q,
                           cells[i].t);
        bl_record_set_label(r, "cdm_test", cells[i].cdm);
        bl_record_set_label(r, "column", cells[i].col);
        r->bw_bytes_s = cells[i].mbps * 1e6;
        r->iops = cells[i].iops;
    }
}

/* benchlog's runner: latency bins and a one-second bandwidth timeline. */
static inline void add_runner(bl_records *rs)
{
    bl_record *r = rec(rs, "run:quick", 1, "benchlog", "0.1", "rand-write", 4096, 1, 1);
    bl_record_set_label(r, "suite", "quick");
    bl_record_set_label(r, "host", "ssd1");
    bl_record_set_str(&r->when, "2026-12-02T12:28:07Z"); /* as benchlog run stamps its start */
    bl_record_set_str(&r->when_from, "run");
    r->bw_bytes_s = 30.5e6;
    r->iops = 7446.3;
    r->lat_ns.mean = 130000;
    bl_lat_add_pct(&r->lat_ns, 50, 120000);
    bl_lat_add_pct(&r->lat_ns, 99, 410000);
    bl_lat_add_pct(&r->lat_ns, 99.9, 900000);
    static const double bins[][2] = {{50000, 10},     {80000, 900},    {100000, 30000},
                                     {120000, 25000}, {160000, 12000}, {250000, 4000},
                                     {410000, 700},   {900000, 70},    {2000000, 7}};
    for (size_t i = 0; i < sizeof bins / sizeof bins[0]; i++)
        bl_lat_add_bin(&r->lat_ns, bins[i][0], (uint64_t)bins[i][1]);
    /* fsync=8: the sync calls' own latency */
    r->sync_ns.present = true;
    r->sync_ns.mean = 95000;
    bl_lat_add_pct(&r->sync_ns, 99, 300000);
    bl_series *s = bl_record_add_series(r, "bw", "bytes/s");
    for (int t = 1; t <= 10; t++)
        bl_series_push(s, t, (30 + (t % 3)) * 1e6);
}

static inline void add_every_tool(bl_records *rs)
{
    add_fio(rs);
    add_bonnie(rs);
    add_dd(rs);
    add_cdm(rs);
    add_runner(rs);
}

#endif
