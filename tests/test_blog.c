/* The seed blog posts, record by record: what each must give (issue 4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../parsers/sections.h"
#include "formats_util.h"
#include "support/support.h"
#include <dirent.h>
#include <stdlib.h>

static int load(const char *rel, bl_parse_out *o)
{
    char *p = bl_test_corpus(rel);
    if (!p)
        return 0;
    bl_out_init(o, "seed");
    int rc = bl_test_parse(p, NULL, o);
    free(p);
    return rc + 1;
}

/* 004: 21 bonnie++ 1.03e runs (11 + 10 under two headings), 12 tests each, K/sec. */
static void test_004_bonnie(void **state)
{
    (void)state;
    bl_parse_out o;
    int rc = load("blog/004_8160137f383e9f6d.txt", &o);
    if (!rc)
        skip();
    /* the only errors are the four fio-cdm cells of test_004_fio_cdm_dd */
    assert_int_equal(rc - 1, 1);
    assert_int_equal(o.n_diags, 4);
    assert_int_equal(fu_count(&o, "bonnie++", NULL, NULL), 21 * 12);
    assert_int_equal(fu_runs(&o, "bonnie++"), 21);
    assert_int_equal(fu_count(&o, "bonnie++", "section", "指定しない場合"), 11 * 12);
    assert_int_equal(fu_count(&o, "bonnie++", "section", "指定した場合"), 10 * 12);
    static const char *const tests[] = {"seq-write-char", "seq-write-block", "seq-rewrite",
                                        "seq-read-char",  "seq-read-block",  "rand-seeks",
                                        "seq-create",     "seq-stat",        "seq-delete",
                                        "rand-create",    "rand-stat",       "rand-delete"};
    for (size_t i = 0; i < 12; i++)
        assert_non_null(fu_find(&o, tests[i], "section", "指定した場合", 9));
    /* first row, line 45: | 157586(100) | 635116(17) | ... | 482.8(1) | 49502(100) | ... */
    const bl_record *r = fu_find(&o, "seq-write-char", NULL, NULL, 0);
    assert_int_equal(r->line, 45);
    assert_string_equal(r->tool_version, "1.03e");
    assert_double_equal(r->bw_bytes_s, 157586.0 * 1024, 0);
    assert_false(r->lat_ns.present);
    assert_double_equal(r->cpu_pct, 100, 0);
    r = fu_find(&o, "seq-write-block", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 635116.0 * 1024, 0);
    r = fu_find(&o, "rand-seeks", NULL, NULL, 0);
    assert_double_equal(r->value, 482.8, 1e-9);
    assert_string_equal(r->unit, "ops/s");
    assert_false(bl_present(r->bw_bytes_s));
    r = fu_find(&o, "seq-create", NULL, NULL, 0);
    assert_double_equal(r->value, 49502, 0);
    assert_string_equal(r->unit, "files/s");
    /* last row of the second table, line 72: ... | 305886(100) | 71927(94) | */
    r = fu_find(&o, "rand-delete", "section", "指定した場合", 9);
    assert_int_equal(r->line, 86);
    assert_double_equal(r->value, 71927, 0);
    assert_double_equal(r->cpu_pct, 94, 0);
    r = fu_find(&o, "seq-read-block", "section", "指定した場合", 9);
    assert_double_equal(r->bw_bytes_s, 269419.0 * 1024, 0);
    assert_double_equal(r->cpu_pct, 6, 0);
    bl_out_free(&o);
}

/* 004: four fio-cdm tables of 4 rows x read/write, and one dd run. Each table's 4K read
 * is "64159.000" MB/s and the like (64 GB/s at 4 KiB Q1 from a SATA disk): fio-cdm's shell
 * script misread fio's unit there. Those four cells are refused at their lines, the other
 * 28 kept. */
static void test_004_fio_cdm_dd(void **state)
{
    (void)state;
    bl_parse_out o;
    if (!load("blog/004_8160137f383e9f6d.txt", &o))
        skip();
    assert_int_equal(fu_count(&o, "fio-cdm", NULL, NULL), 4 * 4 * 2 - 4);
    assert_int_equal(fu_runs(&o, "fio-cdm"), 4);
    assert_null(fu_find(&o, "rand-read", "cdm_test", "RND4K Q1T1", 0));
    assert_int_equal(o.n_diags, 4);
    static const long lines[] = {106, 114, 122, 130};
    static const char *const cells[] = {"'64159.000'", "'61911.000'", "'59820.000'", "'52459.000'"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(o.diags[i].line, lines[i]);
        assert_non_null(strstr(o.diags[i].msg, cells[i]));
        assert_non_null(strstr(o.diags[i].msg, "misreads fio's bandwidth unit"));
    }
    const bl_record *w = fu_find(&o, "rand-write", "cdm_test", "RND4K Q1T1", 0);
    assert_int_equal(w->line, 106);
    assert_double_equal(w->bw_bytes_s, 3.003e6, 1e-6);
    const bl_record *r = fu_find(&o, "seq-read", "cdm_test", "SEQ1M Q1T1", 0);
    assert_string_equal(r->tool, "fio-cdm");
    assert_double_equal(r->bw_bytes_s, 420.361e6, 1e-3);
    r = fu_find(&o, "rand-write", "cdm_test", "RND4K Q32T1", 3);
    assert_double_equal(r->bw_bytes_s, 2.042e6, 1e-6);
    assert_int_equal(r->iodepth, 32);
    assert_int_equal(r->bs, 4096);
    r = fu_find(&o, "rand-read", "cdm_test", "RND512K Q1T1", 1);
    assert_double_equal(r->bw_bytes_s, 53.117e6, 1e-6);
    /* dd: 10737418240 バイト (11 GB) コピーされました、 16.747 秒、 641 MB/秒 */
    assert_int_equal(fu_count(&o, "dd", NULL, NULL), 1);
    r = fu_find(&o, NULL, NULL, NULL, 0);
    for (size_t i = 0; i < o.recs.n; i++)
        if (strcmp(o.recs.v[i]->tool, "dd") == 0)
            r = o.recs.v[i];
    assert_int_equal(r->io_bytes, 10737418240LL);
    assert_string_equal(bl_record_label(r, "section"), "ddで計測");
    assert_string_equal(bl_record_label(r, "dd_bs"), "4k");
    assert_int_equal(r->bs, 4096);
    assert_string_equal(r->test, "seq-write");
    assert_string_equal(bl_record_label(r, "time_real"), "0m16.749s");
    assert_double_equal(r->runtime_s, 16.747, 1e-9);
    assert_true(bl_test_close(r->bw_bytes_s, 641e6, 0.001));
    bl_out_free(&o);
}

/* 001: 9 configurations x 8 tests x 2 columns ("1 GbE", "10 GbE"). */
static void test_001_grid(void **state)
{
    (void)state;
    bl_parse_out o;
    int rc = load("blog/001_8562a4b6946fb1ec.txt", &o);
    if (!rc)
        skip();
    assert_int_equal(rc - 1, 0);
    assert_int_equal(o.recs.n, 9 * 8 * 2);
    assert_int_equal(fu_runs(&o, "CrystalDiskMark"), 18);
    assert_int_equal(fu_count(&o, NULL, "column", "1 GbE"), 72);
    assert_int_equal(fu_count(&o, NULL, "column", "10 GbE"), 72);
    static const char *const captions[] = {
        "CIFS SSDキャッシュ無し",
        "iSCSI SSDキャッシュ無し",
        "iSCSI キャッシュ有り SSDキャッシュ無し （継続的有効の無効化 チェックON）",
        "CIFS SSD×2 SSDキャッシュ有り （ZIL、L2ARC共に有効、ミラー保護有り）",
        "iSCSI SSD×2 SSDキャッシュ有り （ZIL、L2ARC共に有効、ミラー保護有り）",
        "CIFS SSD×2 SSDキャッシュ有り （ZILのみ有効、ミラー保護有り）",
        "iSCSI SSD×2 SSDキャッシュ有り （ZILのみ有効、ミラー保護有り）",
        "CIFS SSD×2 SSDキャッシュ有り （L2ARCのみ有効）",
        "iSCSI SSD×2 SSDキャッシュ有り （L2ARCのみ有効）"};
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(fu_count(&o, NULL, "section", captions[i]), 16);
    /* line 43: Random Read 4KB (QD=32) : | 106.585 MB/s [ 26021.7 IOPS] | (iSCSI, 1 GbE) */
    const bl_record *r = fu_find(&o, "rand-read", "section", "iSCSI SSDキャッシュ無し", 2);
    assert_int_equal(r->line, 43);
    assert_string_equal(bl_record_label(r, "column"), "1 GbE");
    assert_string_equal(bl_record_label(r, "cdm_test"), "RND4K Q32T1");
    assert_double_equal(r->bw_bytes_s, 106.585e6, 1e-3);
    assert_double_equal(r->iops, 26021.7, 1e-9);
    assert_int_equal(r->iodepth, 32);
    r = fu_find(&o, "seq-write", "section", "CIFS SSDキャッシュ無し", 1);
    assert_string_equal(bl_record_label(r, "column"), "10 GbE");
    assert_double_equal(r->bw_bytes_s, 615.434e6, 1e-3);
    assert_false(bl_present(r->iops));
    r = fu_find(&o, "rand-write", "column", "10 GbE", 26);
    assert_string_equal(bl_record_label(r, "section"),
                        "iSCSI SSD×2 SSDキャッシュ有り （L2ARCのみ有効）");
    assert_double_equal(r->bw_bytes_s, 9.020e6, 1e-6);
    assert_double_equal(r->iops, 2202.1, 1e-9);
    bl_out_free(&o);
}

/* 003: CDM 3.0 rows run together; the documented rule gives exactly one split each. */
static void test_003_runon(void **state)
{
    (void)state;
    bl_parse_out o;
    int rc = load("blog/003_c0a3f5a42cdf17b6.txt", &o);
    if (!rc)
        skip();
    assert_int_equal(rc - 1, 0);
    assert_int_equal(o.recs.n, 4 * 8);
    assert_int_equal(fu_runs(&o, "CrystalDiskMark"), 4);
    assert_int_equal(fu_count(&o, NULL, "section", "測定結果"), 32);
    const char *row4 = "zil_disable=1 zfs_nocacheflush=1";
    /* 185.6385.5120115.6116113.319.28116.2 -> label digit 1, then 85.63 85.51 20 115.6 ... */
    const bl_record *r = fu_find(&o, "seq-read", "row", row4, 0);
    assert_int_equal(r->line, 50);
    assert_double_equal(r->bw_bytes_s, 85.63e6, 1e-3);
    assert_string_equal(bl_record_label(r, "cdm_version"), "3.0");
    r = fu_find(&o, "rand-read", "row", row4, 0);
    assert_double_equal(r->bw_bytes_s, 85.51e6, 1e-3); /* 512K */
    assert_int_equal(r->bs, 524288);
    r = fu_find(&o, "rand-read", "row", row4, 1);
    assert_double_equal(r->bw_bytes_s, 20e6, 1e-3); /* 4K QD1 */
    r = fu_find(&o, "rand-write", "row", row4, 1);  /* 4K QD1 */
    assert_double_equal(r->bw_bytes_s, 19.28e6, 1e-3);
    assert_int_equal(r->iodepth, 1);
    r = fu_find(&o, "rand-write", "row", row4, 2); /* 4K QD32 */
    assert_double_equal(r->bw_bytes_s, 116.2e6, 1e-3);
    assert_int_equal(r->iodepth, 32);
    r = fu_find(&o, "seq-read", "row", "zil_disable=0 zfs_nocacheflush=1", 0);
    assert_double_equal(r->bw_bytes_s, 85.4e6, 1e-3);
    r = fu_find(&o, "rand-write", "row", "shareiscsi (D3+P1)zil_disable=0 zfs_nocacheflush=0", 2);
    assert_double_equal(r->bw_bytes_s, 116.4e6, 1e-3);
    bl_out_free(&o);
}

/* A row the rule cannot settle is reported with its line and gives nothing. */
static void test_runon_ambiguous(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/amb.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("read write\n"
          "シーケンシャルランダム512kランダム4kランダム4k "
          "QD32シーケンシャルランダム512kランダム4kランダム4k QD32\n"
          "b=1111111111111111\n",
          f);
    fclose(f);
    bl_parse_out o;
    bl_out_init(&o, path);
    assert_int_equal(bl_test_parse(path, "cdm", &o), 1);
    /* sixteen 1s split into eight figures many equally good ways: reported, nothing kept */
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    assert_int_equal(o.recs.n, 0);
    bl_out_free(&o);
    remove(path);
    free(dir);
}

/* 000 (the fio issue's): each fio run stands under its own heading. */
static void test_000_headings(void **state)
{
    (void)state;
    char *p = bl_test_corpus("blog/000_bed2622bff3958ce.txt");
    if (!p)
        skip();
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_load(&t, p, err, sizeof err), 0);
    static const struct {
        long line, stop;
        const char *want;
    } cases[] = {{41, 1, "シーケンシャルリード"},  {77, 64, "シーケンシャルライト"},
                 {108, 97, "ランダムリード 512k"}, {144, 128, "ランダムライト 512k"},
                 {181, 164, "ランダムリード4k"},   {219, 202, "ランダムライト4k"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *h = bl_heading_above(&t, cases[i].line, cases[i].stop);
        assert_non_null(h);
        assert_string_equal(h, cases[i].want);
        free(h);
    }
    char *none = bl_heading_above(&t, 60, 45);
    assert_null(none);
    bl_text_free(&t);
    /* and through the driver, on the fio parser's records: each heading only names its
     * run's test, so it is a test_heading, not a section (which would make a set-up of
     * each test) */
    static const char *const jobs[][2] = {
        {"seqread", "シーケンシャルリード"},     {"seqwrite", "シーケンシャルライト"},
        {"randread512k", "ランダムリード 512k"}, {"randwrite512k", "ランダムライト 512k"},
        {"randread4k", "ランダムリード4k"},      {"randwrite4k", "ランダムライト4k"}};
    bl_parse_out o;
    bl_out_init(&o, p);
    assert_int_equal(bl_test_parse(p, "fio", &o), 0);
    for (size_t i = 0; i < 6; i++) {
        const bl_record *r = fu_find(&o, NULL, "job", jobs[i][0], 0);
        assert_non_null(r);
        assert_string_equal(bl_record_label(r, "test_heading"), jobs[i][1]);
        assert_null(bl_record_label(r, "section"));
    }
    bl_out_free(&o);
    free(p);
}

static bl_record *rec(const char *op, const char *pattern, int64_t bs)
{
    bl_record *r = bl_record_new();
    r->op = bl_xstrdup(op);
    r->pattern = bl_xstrdup(pattern);
    r->bs = bs;
    return r;
}

/* A heading titles a test only when it holds nothing but the words of that test and they
 * agree with every record under it; anything more may name a set-up and stays a section. */
static void test_heading_names_test(void **state)
{
    (void)state;
    bl_record *rr4 = rec("read", "rand", 4096), *rw4 = rec("write", "rand", 4096),
              *sr = rec("read", "seq", 1048576), *rr8 = rec("read", "rand", 8192);
    bl_record *one[1] = {rr4}, *mixed[2] = {rr4, rw4}, *seq[1] = {sr}, *r8[1] = {rr8};
    assert_true(bl_heading_names_test("ランダムリード4k", one, 1));
    assert_true(bl_heading_names_test("Random read 4k", one, 1));
    assert_true(bl_heading_names_test("Random read (4 KiB, QD1)", one, 1));
    assert_true(bl_heading_names_test("シーケンシャルリード", seq, 1));
    assert_true(bl_heading_names_test("Sequential read", seq, 1));
    /* more than the test: a machine, a setting */
    assert_false(bl_heading_names_test("Random read 4k on NAS-1", one, 1));
    assert_false(bl_heading_names_test("iSCSI ランダムリード4k", one, 1));
    assert_false(bl_heading_names_test("Random read 4k ext4", one, 1));
    /* words that disagree with the records, or name no direction */
    assert_false(bl_heading_names_test("Random read 4k", r8, 1));
    assert_false(bl_heading_names_test("Random read 4k", mixed, 2));
    assert_false(bl_heading_names_test("シーケンシャルリード", one, 1));
    assert_false(bl_heading_names_test("Random write", one, 1));
    assert_false(bl_heading_names_test("Random 4k", one, 1));
    assert_false(bl_heading_names_test("4k", one, 1));
    assert_false(bl_heading_names_test("Random read 4k", one, 0));
    bl_record_free(rr4);
    bl_record_free(rw4);
    bl_record_free(sr);
    bl_record_free(rr8);
}

/* Heading marks of wikis and Markdown, and what is never a heading. */
static void test_heading_kinds(void **state)
{
    (void)state;
    const char *text = "## Results on RAID5\n"                               /* 1 */
                       "prose line.\n"                                       /* 2 */
                       "■ 測定結果\n"                                        /* 3 */
                       "dd if=/dev/zero of=x\n"                              /* 4 */
                       "【iSCSI 接続】\n"                                    /* 5 */
                       "\n"                                                  /* 6 */
                       "Seagate HDD\n"                                       /* 7 */
                       "-----------\n"                                       /* 8 */
                       "\n"                                                  /* 9 */
                       "# uname -a\n"                                        /* 10 */
                       "\n"                                                  /* 11 */
                       "This ends like a sentence.\n"                        /* 12 */
                       "\n"                                                  /* 13 */
                       "** ランダムライト4k\n"                               /* 14 */
                       ">||\n"                                               /* 15 */
                       "== Mediawiki ==\n"                                   /* 16 */
                       "result 1\n"                                          /* 17 */
                       "\n"                                                  /* 18 */
                       "sysbench 1.0.18 (using system LuaJIT 2.1.0-beta3)\n" /* 19 */
                       "\n"                                                  /* 20 */
                       "result 2\n"                                          /* 21 */
                       "\n"                                                  /* 22 */
                       "Kernel 5.10\n"                                       /* 23 */
                       "\n"                                                  /* 24 */
                       "result 3\n";                                         /* 25 */
    bl_text t;
    char err[64];
    assert_int_equal(bl_text_from_bytes(&t, "h", text, strlen(text), err, sizeof err), 0);
    static const struct {
        long line, stop;
        const char *want;
    } cases[] = {{2, 1, "Results on RAID5"},
                 {4, 1, "測定結果"},
                 {6, 1, "iSCSI 接続"},
                 {9, 1, "Seagate HDD"},
                 {12, 9, NULL},
                 {14, 9, NULL},
                 {15, 1, "ランダムライト4k"},
                 {17, 1, "Mediawiki"},
                 /* a tool's version banner is its output; a kernel version may title a run */
                 {21, 18, NULL},
                 {25, 22, "Kernel 5.10"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *h = bl_heading_above(&t, cases[i].line, cases[i].stop);
        if (cases[i].want) {
            assert_non_null(h);
            assert_string_equal(h, cases[i].want);
        } else {
            assert_null(h);
        }
        free(h);
    }
    bl_text_free(&t);
}

/* The rows of the corpus that cannot be read with certainty, and must be reported: 000's
 * "*N" rows, whose count runs into the first figure (tests/test_speed_table.c); 004's
 * fio-cdm cells whose unit fio-cdm misread (test_004_fio_cdm_dd). */
static const struct {
    const char *file;
    long lines[4];
    const char *why;
} ambiguous[] = {{"000_bed2622bff3958ce.txt", {259, 260, 265, 266}, "more than one way"},
                 {"004_8160137f383e9f6d.txt", {106, 114, 122, 130}, "misreads fio's bandwidth"}};

static int expected_errors(const char *name, const bl_parse_out *o)
{
    for (size_t i = 0; i < sizeof ambiguous / sizeof ambiguous[0]; i++) {
        if (strcmp(name, ambiguous[i].file) != 0)
            continue;
        if (o->n_diags != 4)
            return 0;
        for (size_t d = 0; d < 4; d++)
            if (o->diags[d].line != ambiguous[i].lines[d] ||
                !strstr(o->diags[d].msg, ambiguous[i].why))
                return 0;
        return 1;
    }
    return 0;
}

/* Every file under corpus/{bonnie,cdm,dd,blog} gives records, and no error but the
 * ambiguous rows listed above. */
static void test_every_corpus_file(void **state)
{
    (void)state;
    char *root = bl_test_corpus("blog");
    if (!root)
        skip();
    free(root);
    static const char *const dirs[] = {"bonnie", "cdm", "dd", "blog"};
    size_t files = 0;
    for (size_t d = 0; d < 4; d++) {
        char *dir = bl_test_corpus(dirs[d]);
        DIR *dh = dir ? opendir(dir) : NULL;
        struct dirent *e;
        while (dh && (e = readdir(dh)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            bl_parse_out o;
            bl_out_init(&o, path);
            int rc = bl_test_parse(path, NULL, &o);
            if (rc == 1 && expected_errors(e->d_name, &o))
                rc = 0;
            if (rc != 0 || o.recs.n == 0)
                fail_msg("%s: status %d, %zu records, first message: %s", path, rc, o.recs.n,
                         o.n_diags ? o.diags[0].msg : "-");
            bl_out_free(&o);
            files++;
        }
        if (dh)
            closedir(dh);
        free(dir);
    }
    assert_true(files >= 21);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_004_bonnie),         cmocka_unit_test(test_004_fio_cdm_dd),
        cmocka_unit_test(test_001_grid),           cmocka_unit_test(test_003_runon),
        cmocka_unit_test(test_runon_ambiguous),    cmocka_unit_test(test_000_headings),
        cmocka_unit_test(test_every_corpus_file),  cmocka_unit_test(test_heading_kinds),
        cmocka_unit_test(test_heading_names_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
