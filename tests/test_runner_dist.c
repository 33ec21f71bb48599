/* random_distribution: zipf and pareto have fio's shape. fio's own fio-genzipf draws n values
 * over n blocks and prints the share of hits on the hottest 5%, 10% ... of the blocks hit;
 * ours, drawn the same way, must give the same shares within 1 point. A job with zipf really
 * draws from it: a random write of as many I/Os as blocks touches the share of distinct blocks
 * the generator predicts (uniform with replacement: 1 - 1/e = 63%; zipf:1.2 far fewer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/dist.h"
#include "../runner/runner.h"
#include "support/runjob.h"
#include "support/support.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROWS 20

static int by_count_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Cumulative % of all draws on the hottest rows of the blocks hit, as fio-genzipf rows them. */
static void our_rows(bl_dist_kind kind, double param, uint64_t n, double sum[ROWS])
{
    bl_randdist d;
    uint64_t rng = 0x243f6a8885a308d3ull;
    bl_dist_init(&d, kind, param, n, &rng);
    uint32_t *hits = calloc(n, sizeof *hits);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t b = bl_dist_next(&d, &rng);
        assert_true(b < n);
        hits[b]++;
    }
    qsort(hits, n, sizeof *hits, by_count_desc);
    uint64_t nodes = 0;
    while (nodes < n && hits[nodes])
        nodes++;
    uint64_t step = (nodes - 1) / ROWS + 1, acc = 0;
    for (int r = 0; r < ROWS; r++) {
        for (uint64_t k = r * step; k < (r + 1) * step && k < nodes; k++)
            acc += hits[k];
        sum[r] = 100.0 * (double)acc / (double)n;
    }
    free(hits);
}

/* fio-genzipf's rows (1 GiB of 4 KiB blocks); false when fio-genzipf is not there. */
static bool fio_rows(const char *type, double param, double sum[ROWS])
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "fio-genzipf -t %s -i %g -g 1 -b 4096 -o %d 2>/dev/null", type, param,
             ROWS);
    if (system("command -v fio-genzipf >/dev/null 2>&1") != 0)
        return false;
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[256];
    int r = 0;
    double acc = 0;
    while (fgets(line, sizeof line, p) && r < ROWS) {
        double row, hits;
        /* "Top   5.00%	 85.69%	..." then "|->  10.00%	  3.07%	...": the row's own share */
        if (sscanf(line, "Top %lf%% %lf%%", &row, &hits) == 2 ||
            sscanf(line, "|-> %lf%% %lf%%", &row, &hits) == 2) {
            acc += hits;
            sum[r++] = acc;
        }
    }
    assert_int_equal(pclose(p), 0);
    assert_int_equal(r, ROWS);
    return true;
}

static void compare(const char *type, bl_dist_kind kind, double param)
{
    double ours[ROWS], fio[ROWS];
    our_rows(kind, param, 262144, ours);
    if (!fio_rows(type, param, fio))
        bl_skip_because("fio-genzipf (Debian's fio) is not installed: nothing to compare with");
    printf("  %s:%g hottest 5%%/10%%/50%% of blocks hit: fio %.2f/%.2f/%.2f%%, ours "
           "%.2f/%.2f/%.2f%%\n",
           type, param, fio[0], fio[1], fio[9], ours[0], ours[1], ours[9]);
    for (int r = 0; r < ROWS; r++)
        assert_double_equal(ours[r], fio[r], 1.0);
}

static void test_zipf_shape_is_fios(void **state)
{
    (void)state;
    compare("zipf", BL_DIST_ZIPF, 1.2);
    compare("zipf", BL_DIST_ZIPF, 0.8);
}

static void test_pareto_shape_is_fios(void **state)
{
    (void)state;
    compare("pareto", BL_DIST_PARETO, 0.2);
}

/* fio's normal: 13.3% of the draws on the hottest 5% of the blocks hit, 48% on the hottest
 * quarter (uniform would be 5% and 25%); the jitter of normal:10 moves it a little. */
static void test_normal_shape_is_fios(void **state)
{
    (void)state;
    compare("normal", BL_DIST_NORMAL, 0);
    compare("normal", BL_DIST_NORMAL, 10);
    compare("normal", BL_DIST_NORMAL, 60);
}

/* Distinct blocks of n draws over n blocks from our generator. */
static uint64_t distinct(bl_dist_kind kind, double param, uint64_t n)
{
    bl_randdist d;
    uint64_t rng = 0x13198a2e03707344ull;
    bl_dist_init(&d, kind, param, n, &rng);
    unsigned char *seen = calloc(n, 1);
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t b = bl_dist_next(&d, &rng);
        c += !seen[b];
        seen[b] = 1;
    }
    free(seen);
    return c;
}

static uint64_t job_distinct(const char *file, const char *dist)
{
    enum { NBLK = 16384, BS = 4096 };
    int fd = open(file, O_CREAT | O_TRUNC | O_RDWR, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)NBLK * BS), 0);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "[d]\nrw=randwrite\nbs=4k\nsize=64m\nioengine=sync\n%s\n", dist);
    bl_records recs;
    assert_int_equal(
        bl_test_run_jobtext(sb.s, (bl_run_opts){.target = file, .allow_overwrite = true}, &recs),
        BL_RUN_OK);
    assert_int_equal(recs.v[0]->io_bytes, (int64_t)NBLK * BS); /* as many I/Os as blocks */
    const char *label = bl_record_label(recs.v[0], "random_distribution");
    if (strstr(dist, "zipf"))
        assert_string_equal(label, "zipf:1.2");
    if (strstr(dist, "normal"))
        assert_string_equal(label, "normal:0");
    uint64_t c = 0;
    static unsigned char b[BS];
    for (size_t k = 0; k < NBLK; k++) {
        assert_int_equal(pread(fd, b, BS, (off_t)(k * BS)), BS);
        bool any = false;
        for (size_t i = 0; i < BS && !any; i++)
            any = b[i] != 0;
        c += any;
    }
    close(fd);
    bl_records_free(&recs);
    bl_strbuf_free(&sb);
    return c;
}

static void test_a_zipf_job_draws_from_zipf(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf f;
    bl_strbuf_init(&f);
    bl_strbuf_printf(&f, "%s/data", dir);
    uint64_t want_zipf = distinct(BL_DIST_ZIPF, 1.2, 16384);
    uint64_t zipf = job_distinct(f.s, "random_distribution=zipf:1.2");
    uint64_t uni = job_distinct(f.s, "norandommap");
    uint64_t map = job_distinct(f.s, "");
    printf("  distinct blocks of 16384 written: zipf:1.2 %llu (generator: %llu), uniform %llu, "
           "random map %llu\n",
           (unsigned long long)zipf, (unsigned long long)want_zipf, (unsigned long long)uni,
           (unsigned long long)map);
    assert_true(bl_test_close((double)zipf, (double)want_zipf, 0.10));
    assert_true(bl_test_close((double)uni, 16384 * 0.632, 0.03));
    assert_int_equal(map, 16384);
    /* normal piles the draws near the middle rank: fewer distinct blocks than uniform. */
    uint64_t want_normal = distinct(BL_DIST_NORMAL, 0, 16384);
    uint64_t normal = job_distinct(f.s, "random_distribution=normal");
    printf("  normal: %llu distinct (generator: %llu)\n", (unsigned long long)normal,
           (unsigned long long)want_normal);
    assert_true(bl_test_close((double)normal, (double)want_normal, 0.05));
    assert_true(normal < uni * 0.8);
    unlink(f.s);
    bl_strbuf_free(&f);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

static void test_what_is_not_done_is_refused(void **state)
{
    (void)state;
    const char *bad[][2] = {
        {"normal:100", "the normal deviation must be 0 <= dev < 100"},
        {"normal:5:0.3", "normal takes one deviation"},
        {"normal:-1", "the normal deviation must be 0 <= dev < 100"},
        {"zoned:50/5:50/95", "is not supported"},
        {"zipf", "zipf needs its parameter"},
        {"zipf:1", "theta must be above 0, not 1"},
        {"pareto:1.5", "h must be between 0 and 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "[a]\nrw=randread\nrandom_distribution=%s\n", bad[i][0]);
        bl_text t;
        char err[256];
        assert_int_equal(bl_text_from_bytes(&t, "d.fio", sb.s, sb.len, err, sizeof err), 0);
        bl_diags out;
        bl_diags_init(&out, "d.fio");
        bl_jobs jobs = {0};
        assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
        assert_int_equal(out.v[0].line, 3);
        if (!strstr(out.v[0].msg, bad[i][1]))
            printf("got %s\n", out.v[0].msg);
        assert_non_null(strstr(out.v[0].msg, bad[i][1]));
        bl_jobs_free(&jobs);
        bl_diags_free(&out);
        bl_text_free(&t);
        bl_strbuf_free(&sb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zipf_shape_is_fios),
        cmocka_unit_test(test_pareto_shape_is_fios),
        cmocka_unit_test(test_normal_shape_is_fios),
        cmocka_unit_test(test_a_zipf_job_draws_from_zipf),
        cmocka_unit_test(test_what_is_not_done_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
