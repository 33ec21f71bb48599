/* Built-in suites: CrystalDiskMark's presets, run by benchlog's engine.
 *
 * As CrystalDiskMark 8 does (DiskBench.cpp): one test file of the test size filled with
 * random data; for each test a 5 s warm-up run that is not counted, then `runs` runs of
 * `measure_s` each, and the figures shown are each the best across the runs, taken apart
 * (highest MB/s, highest IOPS, lowest mean latency: bl_suite_pick); 5 s pause between tests; all
 * reads first, then all writes. Records carry CrystalDiskMark's test name in the label cdm_test
 * ("SEQ1M Q8T1"; CrystalDiskMark 3's "4K QD32" is "RND4K Q32T1") so imported CrystalDiskMark
 * results line up with ours. Every pass stays checkable: the picked record carries the series
 * pass_bw, pass_iops and pass_lat_mean (t = pass number, 0 = the warm-up, not counted) and the
 * labels cdm_pick_pass, cdm_pick_iops_pass, cdm_pick_lat_pass. QD1 tests use the sync engine,
 * deeper queues libaio, all with O_DIRECT (CrystalDiskMark bypasses the cache too). */
#ifndef BL_RUNNER_SUITES_H
#define BL_RUNNER_SUITES_H

#include "job.h"
#include "runner.h"

typedef struct bl_suite_test {
    const char *cdm_name;
    bool random;
    uint64_t bs;
    int queues, threads;
} bl_suite_test;

typedef struct bl_suite {
    const char *name, *summary;
    uint64_t size;     /* test file bytes */
    int runs;          /* measured runs per test; the best is kept */
    double measure_s;  /* each run */
    double warmup_s;   /* discarded run before the measured ones; 0 = none */
    double interval_s; /* pause between tests */
    size_t n_tests;
    const bl_suite_test *tests;
} bl_suite;

const bl_suite *bl_suite_find(const char *name);
/* A suite job's cdm_test and name made again from its bs, iodepth and numjobs, after a sweep
 * changed them ("RND4K Q32T1" at iodepth=4, numjobs=2: "RND4K Q4T2", job rnd4k-q4t2-read). */
void bl_suite_rename(bl_job *j);
size_t bl_suite_count(void);
const bl_suite *bl_suite_at(size_t i);
/* The job of test i in direction d (reads first, like CrystalDiskMark). */
void bl_suite_job(const bl_suite *s, size_t i, bl_dir d, bl_job *out);
/* CrystalDiskMark's pick over the measured runs of one test: the highest-bandwidth run's
 * record (taken out of runs), with the highest IOPS and the lowest mean latency (lat_ns) of
 * any run, as CrystalDiskMark shows them; the distribution (min, max, percentiles) stays the
 * chosen run's. from (may be NULL) receives the 1-based run each figure came from. NULL when
 * runs is empty. */
typedef struct bl_suite_picked {
    int bw, iops, lat;
} bl_suite_picked;
bl_record *bl_suite_pick(bl_records *runs, bl_suite_picked *from);
/* Runs the suite; records of finished tests are appended even when interrupted. Returns
 * BL_RUN_OK, BL_RUN_FAILED or BL_RUN_INTERRUPTED (runner.h). */
int bl_run_suite(const bl_suite *s, const bl_run_opts *o, bl_records *out);
/* Seconds the suite takes (warm-ups, runs and pauses) with o's --runtime (o may be NULL). */
double bl_suite_seconds(const bl_suite *s, const bl_run_opts *o);

#endif
