/* core/consistency.h: bandwidth against IOPS x block size, on made-up records first (the
 * wrong-figure cases), then on every record every parser makes of fixtures/ and
 * ../shared/corpus, then as `benchlog parse` and `import` report it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/consistency.h"
#include "support/support.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bl_record *rec(double bw, double iops, int64_t bs)
{
    bl_record *r = bl_record_new();
    r->bw_bytes_s = bw;
    r->iops = iops;
    r->bs = bs;
    return r;
}

static void test_unit_misreads_disagree(void **state)
{
    (void)state;
    /* KDiskMark 3.2.0 "500.326 MB/s [488.6 IOPS]" of 1 MiB read right (x 1,024,000)... */
    bl_record *r = rec(500.326 * 1024000, 488.6, 1048576);
    r->bw_prec = 1024 + 1024;
    r->iops_prec = 0.1;
    bl_consistency c = bl_check_consistency(r);
    assert_true(c.applies);
    assert_true(c.agrees);
    assert_double_equal(c.ratio, 1.0, 1e-5);
    /* ...and as its header says (x 10^6): 2.3% low, beyond 0.1 IOPS of 1 MiB */
    r->bw_bytes_s = 500.326e6;
    r->bw_prec = 1000;
    c = bl_check_consistency(r);
    assert_false(c.agrees);
    assert_double_equal(c.ratio, 0.97656, 1e-4);
    /* the same misread where the parser gave no precision: 0.5% + 0.5% by default */
    r->bw_prec = r->iops_prec = BL_ABSENT;
    assert_false(bl_check_consistency(r).agrees);
    bl_record_free(r);
    /* MiB/s taken as 10^6 bytes/s: 4.6% low */
    r = rec(88.0e6, 22528.0, 4096);
    assert_false(bl_check_consistency(r).agrees);
    r->bw_bytes_s = 88.0 * 1048576;
    assert_true(bl_check_consistency(r).agrees);
    bl_record_free(r);
    /* a figure per second read as per millisecond is no "precision" either */
    r = rec(356804, 72000, 4096);
    assert_false(bl_check_consistency(r).agrees);
    bl_record_free(r);
}

static void test_printing_explains(void **state)
{
    (void)state;
    /* fio 2.0.5 "bw=36115KB/s, iops=35": fio truncates IOPS to a whole number (35.27) */
    bl_record *r = rec(36981760, 35, 1048576);
    assert_true(bl_check_consistency(r).agrees);
    /* a typed "1.0" MB/s beside 234 IOPS of 4 KiB: one unit of the last digit is 0.1 MB/s */
    r->bw_bytes_s = 1.0e6;
    r->iops = 234;
    r->bs = 4096;
    assert_false(bl_check_consistency(r).agrees); /* 4.3% off for three significant digits */
    r->bw_prec = 0.1e6;
    assert_true(bl_check_consistency(r).agrees);
    /* ...but "10.8" beside 2699 IOPS is 2.3% off where 0.1 explains 0.9% */
    r->bw_bytes_s = 10.8e6;
    r->iops = 2699;
    assert_false(bl_check_consistency(r).agrees);
    bl_record_free(r);
    /* both zero: an idle direction agrees; IOPS 0 beside a bandwidth does not */
    r = rec(0, 0, 4096);
    assert_true(bl_check_consistency(r).applies);
    assert_true(bl_check_consistency(r).agrees);
    r->bw_bytes_s = 1e6;
    assert_false(bl_check_consistency(r).agrees);
    bl_record_free(r);
}

static void test_not_applicable(void **state)
{
    (void)state;
    bl_record *v[] = {rec(1e6, BL_ABSENT, 4096), rec(BL_ABSENT, 100, 4096), rec(1e6, 100, -1),
                      rec(1e6, 100, 0)};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        bl_consistency c = bl_check_consistency(v[i]);
        assert_false(c.applies);
        assert_true(c.agrees);
        char msg[256];
        assert_false(bl_check_and_note(v[i], msg, sizeof msg));
        assert_null(v[i]->note);
        bl_record_free(v[i]);
    }
}

static void test_note_added_once(void **state)
{
    (void)state;
    bl_record *r = rec(356804, 72, 4096);
    bl_record_set_str(&r->note, "fio job error 5");
    char msg[256];
    assert_true(bl_check_and_note(r, msg, sizeof msg));
    assert_non_null(strstr(msg, "356804"));
    assert_non_null(strstr(msg, "1.2099"));
    assert_true(bl_check_and_note(r, msg, sizeof msg));
    assert_string_equal(r->note, "fio job error 5; bandwidth is 1.2099 x IOPS x block size in "
                                 "the source, beyond its printed precision");
    bl_record_free(r);
}

/* ---- every record of fixtures/ and the corpus ---------------------------------------------- */

/* The only files allowed records that disagree, how many, and why. Anything else that
 * disagrees is a parser reading a unit wrong. */
static const struct exception {
    const char *file; /* path under fixtures/ or the corpus */
    size_t n;
    const char *why;
} exceptions[] = {
    {"fio-normal/fio-2.0.15_8jobs_no_group_reporting.txt", 9,
     "fio's own figures: io= and bw count 63 more 4 KiB I/Os than iops= (iops=72 beside "
     "356804 B/s): the iodepth=64 queue still in flight when the 4 s run stopped; and the total of "
     "the 8 jobs (numjobs clones) that sums both"},
    {"fio-normal/fio-2.0.1_version_with_space_no_lat.txt", 1,
     "fio's own figures: io=16548KB is 4137 I/Os, iops=1018 counts the 4074 issued"},
    {"fio-normal/fio-2.99_8jobs_transitional.txt", 8,
     "fio's own figures: BW from 23.8MiB, IOPS=1503 from 6036 issued I/Os (the queue in flight)"},
    {"fio-normal/fio-3.26_8jobs_randwrite.txt", 9,
     "fio's own figures: 1484KiB written is 371 I/Os, IOPS=75 counts the 308 issued; and the total "
     "of the 8 jobs (numjobs clones) that sums both"},
    {"blog/000_bed2622bff3958ce.txt", 2,
     "the author's table: its 'MB/s' is fio 2.0.5's KB/s / 1000 (10.8 x 1,024,000 = 2699 x "
     "4096), so the 4 KiB rows of one column are 2.3% and 1.7% low as typed"},
};

typedef struct sweep {
    size_t files, records, checked;
    size_t hits[sizeof exceptions / sizeof exceptions[0]];
    int bad;
} sweep;

static const struct exception *exception_of(const char *rel, size_t *index)
{
    for (size_t i = 0; i < sizeof exceptions / sizeof exceptions[0]; i++)
        if (strcmp(rel, exceptions[i].file) == 0) {
            *index = i;
            return &exceptions[i];
        }
    return NULL;
}

static void check_file(const char *path, const char *rel, sweep *sw)
{
    bl_parse_out o;
    bl_out_init(&o, rel);
    bl_test_parse(path, NULL, &o);
    size_t idx = 0, flagged = 0;
    const struct exception *ex = exception_of(rel, &idx);
    for (size_t i = 0; i < o.recs.n; i++) {
        const bl_record *r = o.recs.v[i];
        bl_consistency c = bl_check_consistency(r);
        sw->records++;
        sw->checked += c.applies;
        if (c.agrees)
            continue;
        flagged++;
        /* what the import-time check must have said about it */
        if (!r->note || !strstr(r->note, "beyond its printed precision")) {
            print_error("%s:%lld: disagreeing record without the note\n", rel, (long long)r->line);
            sw->bad = 1;
        }
        if (!ex) {
            print_error("%s:%lld: bw %.0f is %.4f x IOPS %g x bs %lld (printing explains "
                        "%.2f%%): a unit misread? (or list the file in exceptions[] with why)\n",
                        rel, (long long)r->line, r->bw_bytes_s, c.ratio, r->iops, (long long)r->bs,
                        100 * c.allowed);
            sw->bad = 1;
        }
    }
    size_t warns = 0;
    for (size_t i = 0; i < o.n_warns; i++)
        warns += strstr(o.warns[i].msg, "warning: bandwidth") != NULL;
    if (warns != flagged) {
        print_error("%s: %zu records disagree but %zu warnings\n", rel, flagged, warns);
        sw->bad = 1;
    }
    if (ex) {
        sw->hits[idx] += flagged;
        if (flagged != ex->n) {
            print_error("%s: %zu records disagree, exceptions[] says %zu (%s)\n", rel, flagged,
                        ex->n, ex->why);
            sw->bad = 1;
        }
    }
    sw->files++;
    bl_out_free(&o);
}

/* Every regular file under root/dir, with rel its path from root. */
static void walk(const char *root, const char *dir, sweep *sw)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s%s", root, *dir ? "/" : "", dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char rel[1024], full[2048];
        snprintf(rel, sizeof rel, "%s%s%s", dir, *dir ? "/" : "", e->d_name);
        snprintf(full, sizeof full, "%s/%s", root, rel);
        struct stat st;
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(root, rel, sw);
        else if (S_ISREG(st.st_mode))
            check_file(full, rel, sw);
    }
    closedir(d);
}

static void test_every_fixture_record(void **state)
{
    (void)state;
    sweep sw = {0};
    walk("fixtures", "", &sw);
    print_message("fixtures: %zu files, %zu records, %zu with bw, IOPS and bs\n", sw.files,
                  sw.records, sw.checked);
    assert_int_equal(sw.bad, 0);
    assert_true(sw.checked >= 30); /* the KDiskMark and CDM fixtures alone have 38 */
}

static void test_every_corpus_record(void **state)
{
    (void)state;
    const char *root = getenv("BENCHLOG_CORPUS");
    struct stat st;
    if (!root || stat(root, &st) != 0)
        skip();
    sweep sw = {0};
    walk(root, "", &sw);
    print_message("corpus: %zu files, %zu records, %zu with bw, IOPS and bs\n", sw.files,
                  sw.records, sw.checked);
    assert_int_equal(sw.bad, 0);
    for (size_t i = 0; i < sizeof exceptions / sizeof exceptions[0]; i++)
        if (sw.hits[i] != exceptions[i].n)
            fail_msg("exceptions[] lists %s, which is no longer found or no longer disagrees",
                     exceptions[i].file);
    assert_true(sw.checked >= 100);
}

/* ---- as the user sees it -------------------------------------------------------------------- */

static void test_parse_and_import_warn(void **state)
{
    (void)state;
    char *path = bl_test_corpus("fio-normal/fio-2.0.15_8jobs_no_group_reporting.txt");
    if (!path)
        skip();
    char args[4096], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "parse '%s'", path);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0); /* kept: a warning, no error */
    char want[2048];
    snprintf(want, sizeof want,
             "%s:7: warning: bandwidth 356804 bytes/s is 1.2099 x IOPS 72 x block size 4096", path);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(out, "\"bw_bytes_s\":356804,\"iops\":72,"));
    assert_non_null(strstr(out, "\"note\":\"bandwidth is 1.2099 x IOPS x block size in the "
                                "source, beyond its printed precision\""));
    free(out);
    free(err);

    char *dir = bl_test_tmpdir();
    snprintf(args, sizeof args, "import --db '%s/t.db' '%s'", dir, path);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(out, "imported 9 records")); /* 8 jobs and their total */
    free(out);
    free(err);
    snprintf(args, sizeof args, "export --db '%s/t.db'", dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "beyond its printed precision")); /* the note is stored */
    free(out);
    free(dir);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_misreads_disagree), cmocka_unit_test(test_printing_explains),
        cmocka_unit_test(test_not_applicable),         cmocka_unit_test(test_note_added_once),
        cmocka_unit_test(test_every_fixture_record),   cmocka_unit_test(test_every_corpus_record),
        cmocka_unit_test(test_parse_and_import_warn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
