#include "suites.h"
#include "../core/strbuf.h"
#include "exec.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KiB 1024u
#define MiB (1024u * 1024u)

/* CrystalDiskMark 3.0: Seq (1 MiB), 512K, 4K, 4K QD32; 1000 MB, x5. Named the way the cdm
 * parser names CrystalDiskMark 3 rows, so old screenshots and our runs share cdm_test. */
static const bl_suite_test cdm3_tests[] = {
    {"SEQ1M Q1T1", false, MiB, 1, 1},
    {"RND512K Q1T1", true, 512 * KiB, 1, 1},
    {"RND4K Q1T1", true, 4 * KiB, 1, 1},
    {"RND4K Q32T1", true, 4 * KiB, 32, 1},
};
/* CrystalDiskMark 8, settings "NVMe SSD" (IsNVMeMode in DiskMarkDlg.cpp). */
static const bl_suite_test cdm8_tests[] = {
    {"SEQ1M Q8T1", false, MiB, 8, 1},
    {"SEQ1M Q1T1", false, MiB, 1, 1},
    {"RND4K Q32T16", true, 4 * KiB, 32, 16},
    {"RND4K Q1T1", true, 4 * KiB, 1, 1},
};
/* CrystalDiskMark 8, default settings (IsNormMode). */
static const bl_suite_test cdm8_default_tests[] = {
    {"SEQ1M Q8T1", false, MiB, 8, 1},
    {"SEQ1M Q1T1", false, MiB, 1, 1},
    {"RND4K Q32T1", true, 4 * KiB, 32, 1},
    {"RND4K Q1T1", true, 4 * KiB, 1, 1},
};
static const bl_suite_test quick_tests[] = {
    {"SEQ1M Q8T1", false, MiB, 8, 1},
    {"RND4K Q32T1", true, 4 * KiB, 32, 1},
    {"RND4K Q1T1", true, 4 * KiB, 1, 1},
};

#define N(a) (sizeof a / sizeof a[0])
static const bl_suite suites[] = {
    {"cdm3", "CrystalDiskMark 3: Seq, 512K, 4K, 4K QD32; 1000 MiB, best of 5", 1000ull * MiB, 5, 5,
     5, 5, N(cdm3_tests), cdm3_tests},
    {"cdm8",
     "CrystalDiskMark 8 (NVMe SSD): SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T16, RND4K Q1T1; "
     "1 GiB, best of 5",
     1024ull * MiB, 5, 5, 5, 5, N(cdm8_tests), cdm8_tests},
    {"cdm8-default",
     "CrystalDiskMark 8 (default): SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; 1 GiB, "
     "best of 5",
     1024ull * MiB, 5, 5, 5, 5, N(cdm8_default_tests), cdm8_default_tests},
    {"quick", "a few seconds: SEQ1M Q8T1, RND4K Q32T1, RND4K Q1T1 on 32 MiB, 1 run of 0.5 s",
     32ull * MiB, 1, 0.5, 0, 0, N(quick_tests), quick_tests},
};

const bl_suite *bl_suite_find(const char *name)
{
    for (size_t i = 0; i < N(suites); i++)
        if (strcmp(suites[i].name, name) == 0)
            return &suites[i];
    return NULL;
}

size_t bl_suite_count(void)
{
    return N(suites);
}

const bl_suite *bl_suite_at(size_t i)
{
    return i < N(suites) ? &suites[i] : NULL;
}

void bl_suite_job(const bl_suite *s, size_t i, bl_dir d, bl_job *j)
{
    const bl_suite_test *t = &s->tests[i];
    bl_job_defaults(j);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (const char *p = t->cdm_name; *p; p++)
        bl_strbuf_putc(&sb, *p == ' ' ? '-' : (char)tolower((unsigned char)*p));
    bl_strbuf_puts(&sb, d == BL_DIR_READ ? "-read" : "-write");
    j->name = bl_strbuf_take(&sb);
    j->cdm_test = bl_xstrdup(t->cdm_name);
    j->is_read = d == BL_DIR_READ;
    j->is_write = d == BL_DIR_WRITE;
    j->random = t->random;
    j->bs = t->bs;
    j->iodepth = t->queues;
    j->numjobs = t->threads;
    j->size = s->size;
    j->runtime_s = s->measure_s;
    j->time_based = true;
    j->direct = 1;
    j->overwrite = true; /* CrystalDiskMark fills its test file before any test */
    j->engine = bl_engine_find(t->queues > 1 ? "libaio" : "sync");
}

static void pause_s(bl_exec *ex, double s)
{
    for (double t = 0; t < s && !bl_exec_interrupted(ex); t += 0.1) {
        struct timespec ts = {0, 100 * 1000000};
        nanosleep(&ts, NULL);
    }
}

/* One run of the job; its records (one direction) go to recs. */
static int one_run(bl_exec *ex, const bl_job *j, const char *title, bl_records *recs)
{
    bl_job_result res;
    int rc = bl_exec_phase(ex, j, 1, &res, title);
    if (rc == 0)
        bl_results_to_records(ex, &res, 1, false, recs);
    bl_job_result_free(&res);
    return rc;
}

bl_record *bl_suite_pick(bl_records *runs, bl_suite_picked *from)
{
    if (runs->n == 0)
        return NULL;
    size_t best = 0;
    for (size_t i = 1; i < runs->n; i++)
        if (runs->v[i]->bw_bytes_s > runs->v[best]->bw_bytes_s)
            best = i;
    bl_record *r = runs->v[best];
    bl_suite_picked f = {(int)best + 1, (int)best + 1, (int)best + 1};
    for (size_t i = 0; i < runs->n; i++) {
        const bl_record *o = runs->v[i];
        if (bl_present(o->iops) && (!bl_present(r->iops) || o->iops > r->iops)) {
            r->iops = o->iops;
            f.iops = (int)i + 1;
        }
        if (o->lat_ns.present && bl_present(o->lat_ns.mean) && r->lat_ns.present &&
            o->lat_ns.mean < r->lat_ns.mean) {
            r->lat_ns.mean = o->lat_ns.mean;
            f.lat = (int)i + 1;
        }
    }
    runs->v[best] = runs->v[--runs->n];
    if (from)
        *from = f;
    return r;
}

/* Every pass's figures on the picked record, t = pass number (0 = the warm-up). */
static void add_passes(bl_record *best, const bl_record *warm, const bl_records *runs)
{
    static const struct {
        const char *name, *unit;
    } s[] = {{"pass_bw", "bytes/s"}, {"pass_iops", "IO/s"}, {"pass_lat_mean", "ns"}};
    for (int k = 0; k < 3; k++) {
        bl_series *ser = bl_record_add_series(best, s[k].name, s[k].unit);
        for (size_t i = 0; i <= runs->n; i++) {
            const bl_record *r = i == 0 ? warm : runs->v[i - 1];
            if (!r)
                continue;
            double v = k == 0 ? r->bw_bytes_s : k == 1 ? r->iops : r->lat_ns.mean;
            if (k < 2 || r->lat_ns.present)
                bl_series_push(ser, (double)i, v);
        }
    }
}

static void set_int_label(bl_record *r, const char *key, int v)
{
    char n[16];
    snprintf(n, sizeof n, "%d", v);
    bl_record_set_label(r, key, n);
}

/* Warm-up, then the runs; CrystalDiskMark's pick of them goes to out, every pass on it. */
static int run_test(bl_exec *ex, const bl_suite *s, const bl_job *j, bl_records *out)
{
    char title[96];
    int rc = 0;
    bl_records warm_recs;
    bl_records_init(&warm_recs);
    if (s->warmup_s > 0) {
        bl_job warm;
        bl_job_copy(&warm, j);
        warm.runtime_s = s->warmup_s;
        snprintf(title, sizeof title, "%s %s: warm-up", j->cdm_test, j->is_read ? "read" : "write");
        rc = one_run(ex, &warm, title, &warm_recs);
        bl_job_free(&warm);
    }
    bl_records runs;
    bl_records_init(&runs);
    for (int r = 1; r <= s->runs && rc == 0; r++) {
        snprintf(title, sizeof title, "%s %s [%d/%d]", j->cdm_test, j->is_read ? "read" : "write",
                 r, s->runs);
        rc = one_run(ex, j, title, &runs);
    }
    /* The passes as measured, before the pick takes one out and changes it. */
    bl_records passes;
    bl_records_init(&passes);
    for (size_t i = 0; rc == 0 && i < runs.n; i++)
        bl_records_push(&passes, bl_record_clone(runs.v[i]));
    bl_suite_picked from;
    bl_record *best = rc == 0 ? bl_suite_pick(&runs, &from) : NULL;
    bl_records_free(&runs);
    if (best) {
        add_passes(best, warm_recs.n ? warm_recs.v[0] : NULL, &passes);
        char pick[48];
        snprintf(pick, sizeof pick, "best of %d", s->runs);
        set_int_label(best, "cdm_runs", s->runs);
        bl_record_set_label(best, "cdm_pick", pick);
        set_int_label(best, "cdm_pick_pass", from.bw);
        set_int_label(best, "cdm_pick_iops_pass", from.iops);
        set_int_label(best, "cdm_pick_lat_pass", from.lat);
        char suffix[96];
        snprintf(suffix, sizeof suffix, "  (%s: MB/s of pass %d, IOPS %d, latency %d)", pick,
                 from.bw, from.iops, from.lat);
        bl_print_summary(ex, best, suffix);
        bl_records_push(out, best);
    }
    bl_records_free(&passes);
    bl_records_free(&warm_recs);
    return rc;
}

int bl_run_suite_on(bl_exec *ex, const bl_suite *s, bl_records *out)
{
    int rc = 0;
    for (int d = 0; d < 2 && rc == 0; d++)
        for (size_t i = 0; i < s->n_tests && rc == 0; i++) {
            if (d + i > 0)
                pause_s(ex, s->interval_s);
            bl_job j;
            bl_suite_job(s, i, (bl_dir)d, &j);
            rc = run_test(ex, s, &j, out);
            bl_job_free(&j);
        }
    return rc == 0 ? BL_RUN_OK : rc > 0 ? BL_RUN_INTERRUPTED : BL_RUN_FAILED;
}

int bl_run_suite(const bl_suite *s, const bl_run_opts *o, bl_records *out)
{
    bl_exec ex;
    bl_exec_init(&ex, o);
    int rc = bl_run_suite_on(&ex, s, out);
    bl_exec_done(&ex);
    return rc;
}

double bl_suite_seconds(const bl_suite *s, const bl_run_opts *o)
{
    double run = o && o->runtime_s > 0 ? o->runtime_s : s->measure_s;
    double warm = s->warmup_s > 0 ? (o && o->runtime_s > 0 ? o->runtime_s : s->warmup_s) : 0;
    double n = 2.0 * (double)s->n_tests;
    return n * (warm + run * s->runs) + (n - 1) * s->interval_s;
}

/* "4K", "512K", "1M": CrystalDiskMark's spelling of a block size. */
static void cdm_size(uint64_t bs, char *buf, size_t n)
{
    if (bs % MiB == 0)
        snprintf(buf, n, "%lluM", (unsigned long long)(bs / MiB));
    else if (bs % KiB == 0)
        snprintf(buf, n, "%lluK", (unsigned long long)(bs / KiB));
    else
        snprintf(buf, n, "%lluB", (unsigned long long)bs);
}

void bl_suite_rename(bl_job *j)
{
    char size[32], name[96];
    cdm_size(j->bs, size, sizeof size);
    snprintf(name, sizeof name, "%s%s Q%dT%d", j->random ? "RND" : "SEQ", size,
             j->iodepth_asked ? j->iodepth_asked : j->iodepth, j->numjobs);
    free(j->cdm_test);
    j->cdm_test = bl_xstrdup(name);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (const char *p = name; *p; p++)
        bl_strbuf_putc(&sb, *p == ' ' ? '-' : (char)tolower((unsigned char)*p));
    bl_strbuf_puts(&sb, j->is_read ? "-read" : "-write");
    free(j->name);
    j->name = bl_strbuf_take(&sb);
}
