/* The detail rows benchlog writes itself (report/xlsx_own.h) make the very workbook
 * libxlsxwriter makes: every part of the zip compared, uncompressed, with the one written
 * through libxlsxwriter (bl_xlsx_opts.lxw_rows), in constant-memory mode from the first record;
 * on records whose strings need escaping (XML, control characters, white space at either end,
 * too long for a cell), numbers of every size, percentiles out of order and twice, devices, and
 * tables long enough to go on in "NAME (2)". And the numbers' text is printf's "%.16G". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../compare/load.h"
#include "../core/record_decode.h"
#include "../core/store.h"
#include "../report/xlsx.h"
#include "../report/xlsx_own.h"
#include "support/support.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <unzip.h>

#include "test_report_records.h"

static void same_text(double v)
{
    char want[64], got[32];
    snprintf(want, sizeof want, "%.16G", v);
    size_t n = bl_xlsx_num_text(v, got);
    if (strcmp(want, got) != 0 || n != strlen(want))
        fail_msg("%a: printf %s, bl_xlsx_num_text %s", v, want, got);
}

static uint64_t rnd(uint64_t *s) /* xorshift64* */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static void test_number_text(void **state)
{
    (void)state;
    const double special[] = {0.0,
                              -0.0,
                              1,
                              -1,
                              1e-4,
                              9.99999999999999e-5,
                              1e-5,
                              1e15,
                              1e16,
                              1e17,
                              1e15 - 0.5,
                              999999999999999.9,
                              0.1,
                              0.3,
                              2770,
                              6752,
                              4267.42,
                              5616.050000000001,
                              1.0 / 3,
                              2.0 / 3,
                              INFINITY,
                              -INFINITY,
                              NAN,
                              DBL_MIN,
                              DBL_MAX,
                              123456789012345.25,
                              123456789012345.75,
                              12345678901234.125,
                              4503599627370495.5,
                              9007199254740993.0};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        same_text(special[i]);
    uint64_t s = 88172645463325252u;
    for (int i = 0; i < 25000; i++) {
        uint64_t bits = rnd(&s);
        double v;
        memcpy(&v, &bits, sizeof v); /* any double at all */
        same_text(v);
        /* figures as benchmarks give them: a few decimals, scaled as the sheets scale them */
        double m = (double)(rnd(&s) % 100000000) / pow(10, (double)(rnd(&s) % 9));
        same_text(m / 1e3);
        same_text(-m / 1e6);
        /* ties at the 17th digit: a 15-digit integer and a quarter, and the like */
        unsigned d = 1 + (unsigned)(rnd(&s) % 5);
        double ipart = (double)(rnd(&s) % (uint64_t)pow(10, 17 - d));
        same_text(ipart + (double)(2 * (rnd(&s) % (1u << (d - 1))) + 1) / (double)(1u << d));
        same_text((double)(rnd(&s) >> 11)); /* integers below 2^53 */
    }
}

/* Every part of a and b, uncompressed, but docProps/core.xml (its time of writing). */
static void same_parts(const char *a, const char *b)
{
    unzFile za = unzOpen64(a), zb = unzOpen64(b);
    assert_non_null(za);
    assert_non_null(zb);
    int ra = unzGoToFirstFile(za), rb = unzGoToFirstFile(zb);
    size_t parts = 0;
    for (; ra == UNZ_OK && rb == UNZ_OK; ra = unzGoToNextFile(za), rb = unzGoToNextFile(zb)) {
        unz_file_info64 ia, ib;
        char na[256], nb[256];
        assert_int_equal(unzGetCurrentFileInfo64(za, &ia, na, sizeof na, NULL, 0, NULL, 0), UNZ_OK);
        assert_int_equal(unzGetCurrentFileInfo64(zb, &ib, nb, sizeof nb, NULL, 0, NULL, 0), UNZ_OK);
        assert_string_equal(na, nb);
        parts++;
        if (strcmp(na, "docProps/core.xml") == 0)
            continue;
        if (ia.uncompressed_size != ib.uncompressed_size)
            fail_msg("%s: %llu bytes, %llu", na, (unsigned long long)ia.uncompressed_size,
                     (unsigned long long)ib.uncompressed_size);
        size_t len = (size_t)ia.uncompressed_size;
        char *xa = malloc(len + 1), *xb = malloc(len + 1);
        assert_int_equal(unzOpenCurrentFile(za), UNZ_OK);
        assert_int_equal(unzOpenCurrentFile(zb), UNZ_OK);
        assert_int_equal(unzReadCurrentFile(za, xa, (unsigned)len + 1), (int)len);
        assert_int_equal(unzReadCurrentFile(zb, xb, (unsigned)len + 1), (int)len);
        /* the CRC of each part checked as it is read to its end */
        assert_int_equal(unzCloseCurrentFile(za), UNZ_OK);
        assert_int_equal(unzCloseCurrentFile(zb), UNZ_OK);
        if (memcmp(xa, xb, len) != 0) {
            size_t i = 0;
            while (xa[i] == xb[i])
                i++;
            size_t from = i > 80 ? i - 80 : 0;
            fail_msg("%s differs at %zu:\n%.160s\n%.160s", na, i, xa + from, xb + from);
        }
        free(xa);
        free(xb);
    }
    assert_int_equal(ra, UNZ_END_OF_LIST_OF_FILE);
    assert_int_equal(rb, UNZ_END_OF_LIST_OF_FILE);
    assert_true(parts > 10);
    unzClose(za);
    unzClose(zb);
}

static void both_ways(const char *dir, bl_records *rs, bl_xlsx_opts o)
{
    char a[600], b[600], err[256] = "";
    snprintf(a, sizeof a, "%s/lxw.xlsx", dir);
    snprintf(b, sizeof b, "%s/own.xlsx", dir);
    o.constant_memory_from = 1;
    o.lxw_rows = 1;
    assert_int_equal(bl_xlsx_write(a, rs, &o, err, sizeof err), 0);
    o.lxw_rows = 0;
    assert_int_equal(bl_xlsx_write(b, rs, &o, err, sizeof err), 0);
    same_parts(a, b);
}

/* Strings and figures that each take another path through libxlsxwriter's writing. */
static void add_awkward(bl_records *rs)
{
    static const char *const text[] = {"a & b <c> \"d\" 'e'", " lead", "trail\t",
                                       "\x01\x1f ctl\x0b",    "\n",    "ストレージ µs",
                                       "x_x0041_y",           "&",     "a\x7f"};
    char *longer = malloc(32800);
    memset(longer, 'w', 32767);
    strcpy(longer + 32767, "x"); /* 32,768 characters: no cell, yet in the dimensions */
    for (size_t i = 0; i < 150; i++) {
        bl_record *r = rec(rs, i < 120 ? "awk.txt" : "awk2.txt", (long)(1 + i % 3), "fio", NULL,
                           "rand-mix", 4096, 1, 1);
        r->line = (int64_t)i * 7;
        bl_record_set_str(&r->test, text[i % 9]);
        bl_record_set_str(&r->note, i == 5 ? longer : text[(i + 3) % 9]);
        bl_record_set_str(&r->metric, i % 4 ? NULL : "seeks");
        r->value = i % 4 ? BL_ABSENT : -1.0 / (double)(i + 1);
        r->bw_bytes_s = pow(10, (double)(i % 23) - 3) * 1.2345678901234567;
        r->iops = (double)i * 1e14 + 0.5;
        r->runtime_s = i % 5 ? 1e-6 * (double)i : BL_ABSENT;
        r->cpu_pct = i % 7 ? INFINITY : 12.5;
        r->clat_ns.present = i % 3 != 0;
        r->clat_ns.mean = 2770000.0 + (double)i;
        bl_lat_add_pct(&r->clat_ns, 99.9, 9000000);
        bl_lat_add_pct(&r->clat_ns, 50, 1000000);   /* out of order */
        bl_lat_add_pct(&r->clat_ns, 99.9, 9100000); /* twice: the last one shows */
        if (i % 2) {
            r->sync_ns.present = true;
            r->sync_ns.mean = 1.5;
        }
        bl_record_set_label(r, "host", i % 2 ? "nas&1" : "nas<2>");
        if (i == 7) {
            bl_disk *dk = bl_record_add_disk(r, "md0");
            dk->read_ios = 12;
            dk->util_pct = 99.5;
        }
    }
    free(longer);
}

static void test_same_workbook(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    both_ways(dir, &rs, (bl_xlsx_opts){.by = "column"});
    add_awkward(&rs);
    both_ways(dir, &rs, (bl_xlsx_opts){0});
    both_ways(dir, &rs, (bl_xlsx_opts){.max_rows = 41}); /* sheets go on in "NAME (2)" */
    both_ways(dir, &rs, (bl_xlsx_opts){.max_run_sheets = 2, .max_rows = 61}); /* Records */
    bl_records_free(&rs);
    free(dir);
}

/* The store grew between the runs' walk and the rows' walk: the rows past those counted go on
 * in the last sheet as libxlsxwriter writes them (a sheet's rows after its compressor was
 * done with). */
typedef struct {
    bl_records *rs;
    size_t walks;
} growing;

static int grow_walk(void *src, bl_report_rec_fn fn, void *ctx, char *err, size_t errlen)
{
    growing *g = src;
    int first = g->walks++ % 2 == 0;
    for (size_t i = 0; i < g->rs->n; i++) /* the first walk misses 30 records of 3 runs */
        if (!(first && i >= 90 && i < 120) && fn(ctx, g->rs->v[i]) != 0)
            return snprintf(err, errlen, "stopped"), 1;
    return 0;
}

static void test_store_grew(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), a[600], b[600], err[256] = "";
    bl_records rs;
    bl_records_init(&rs);
    add_awkward(&rs);
    bl_table_opts to = {0};
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    assert_non_null(t);
    snprintf(a, sizeof a, "%s/lxw.xlsx", dir);
    snprintf(b, sizeof b, "%s/own.xlsx", dir);
    bl_xlsx_opts o = {.constant_memory_from = 1, .lxw_rows = 1, .max_rows = 1000};
    growing g = {&rs, 0};
    assert_int_equal(bl_xlsx_write_walk(a, t, grow_walk, &g, &o, err, sizeof err), 0);
    o.lxw_rows = 0;
    g.walks = 0;
    assert_int_equal(bl_xlsx_write_walk(b, t, grow_walk, &g, &o, err, sizeof err), 0);
    same_parts(a, b);
    bl_table_free(t);
    bl_records_free(&rs);
    free(dir);
}

/* `benchlog xlsx`'s walks of a store (the runs' walk reading each record in part, the rows'
 * walk handing its records over) make the workbook of the plain walks, whole records copied:
 * with and without constant memory, sheets split by the first walk's counts, every record or
 * those a term C decides matches. */
static void test_store_walks(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), db[600], a[600], b[600], err[512] = "";
    snprintf(db, sizeof db, "%s/s.db", dir);
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    add_awkward(&rs);
    bl_store *s = bl_store_open(db, err, sizeof err);
    assert_non_null(s);
    for (size_t i = 0; i < rs.n;) { /* an import per source, as each file is one */
        size_t j = i;
        while (j < rs.n && strcmp(rs.v[j]->source, rs.v[i]->source) == 0)
            j++;
        bl_records one = {rs.v + i, j - i, j - i};
        assert_true(bl_store_import(s, rs.v[i]->source, NULL, "t", &one, NULL, err, sizeof err) >=
                    0);
        i = j;
    }
    bl_store_close(s);
    bl_decode_want want;
    bl_xlsx_runs_want(&want);
    char *terms[] = {"bs~409"};
    for (int k = 0; k < 4; k++) {
        int n = k == 3; /* and from k 2, sheets that go on in "NAME (2)" by the counts */
        bl_table_opts to = {0};
        bl_table *t = NULL;
        assert_int_equal(bl_report_table(db, n, terms, &to, NULL, NULL, &t, err, sizeof err), 0);
        bl_store_walk whole = {db, n, terms, NULL}, part = {db, n, terms, &want};
        bl_xlsx_opts o = {.constant_memory_from = k ? 1 : 0, .max_rows = k >= 2 ? 41 : 0};
        snprintf(a, sizeof a, "%s/plain.xlsx", dir);
        snprintf(b, sizeof b, "%s/cli.xlsx", dir);
        assert_int_equal(bl_xlsx_write_walk(a, t, bl_walk_store, &whole, &o, err, sizeof err), 0);
        o.runs_walk = bl_walk_store;
        o.runs_src = &part;
        o.rows_take = bl_walk_store_take;
        assert_int_equal(bl_xlsx_write_walk(b, t, bl_walk_store, &whole, &o, err, sizeof err), 0);
        same_parts(a, b);
        bl_table_free(t);
    }
    bl_records_free(&rs);
    free(dir);
}

/* Writes rs to path in a child whose files may not pass limit bytes (RLIMIT_FSIZE, SIGXFSZ
 * ignored: a write fails with EFBIG, as on a full disk); the child's message into said.
 * Returns 0 when benchlog refused, 1 when it wrote. */
static int write_limited(const char *path, bl_records *rs, off_t limit, char *said, size_t n)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(3);
        char err[512] = "";
        bl_xlsx_opts o = {.constant_memory_from = 1};
        int rc = bl_xlsx_write(path, rs, &o, err, sizeof err);
        if (write(fd[1], err, strlen(err)) < 0)
            _exit(4);
        _exit(rc == 0);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], said, n - 1);
    said[got > 0 ? got : 0] = 0;
    close(fd[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_true(WEXITSTATUS(status) <= 1);
    return WEXITSTATUS(status);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* A write that fails while the rows are packed (the disk full: here the file size limit)
 * leaves the old workbook as it was and no temporary file of either writer behind. */
static void test_failed_pack_keeps_old(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[600], err[256] = "";
    snprintf(path, sizeof path, "%s/out.xlsx", dir);
    bl_records rs;
    bl_records_init(&rs);
    add_every_tool(&rs);
    add_awkward(&rs);
    for (long i = 0; i < 4000; i++) /* the rows half the workbook and more */
        rec(&rs, "bulk.txt", 1 + i % 4, "fio", "fio-3.33", "randread", 4096, 1 + i % 32, 1)->iops =
            1000.0 + (double)i / 7;
    bl_xlsx_opts o = {.constant_memory_from = 1};
    assert_int_equal(bl_xlsx_write(path, &rs, &o, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    off_t full = st.st_size;
    assert_true(full > 20000);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("the old workbook\n", f);
    fclose(f);
    /* Short of the workbook, the packing fails at its end (its directory); at half, in a
     * sheet's rows (libxlsxwriter's file, without the detail rows, fits); far below,
     * libxlsxwriter fails. Not full - 1: the workbook holds the time it was made, whose digits
     * may deflate a byte shorter a second later (as under valgrind). */
    const off_t limits[] = {full - 512, full / 2, 4096};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        char said[600];
        if (write_limited(path, &rs, limits[i], said, sizeof said) != 0)
            fail_msg("limit %lld of %lld bytes: written", (long long)limits[i], (long long)full);
        if (!strstr(said, " (the old file, if any, is unchanged)") || !strstr(said, path))
            fail_msg("limit %lld: %s", (long long)limits[i], said);
        if (i < 2 && !strstr(said, "File too large (the old"))
            fail_msg("not the packing that failed: %s", said);
        if (i == 1 && !strstr(said, ": cannot write xl/worksheets/"))
            fail_msg("not a sheet's rows that failed: %s", said);
        char *old = bl_test_slurp(path);
        assert_string_equal(old, "the old workbook\n");
        free(old);
        assert_int_equal(count_entries(dir), 1);
    }
    /* The limit itself is no obstacle to a workbook that fits. */
    char said[600];
    assert_int_equal(write_limited(path, &rs, full + 4096, said, sizeof said), 1);
    assert_int_equal(stat(path, &st), 0);
    if (st.st_size < full - 64 || st.st_size > full + 64)
        fail_msg("written %lld bytes, %lld the first time", (long long)st.st_size, (long long)full);
    unzFile z = unzOpen64(path);
    assert_non_null(z);
    unzClose(z);
    assert_int_equal(count_entries(dir), 1);
    bl_records_free(&rs);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_text),
        cmocka_unit_test(test_same_workbook),
        cmocka_unit_test(test_store_grew),
        cmocka_unit_test(test_store_walks),
        cmocka_unit_test(test_failed_pack_keeps_old),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
