/* A format's needles (bl_format.needles) must be needed by its probe: the driver skips the
 * probe of a text holding none of them, so a needle the probe can do without would lose a
 * format. Every file of fixtures/ and the corpus (blog posts and fuzzing inputs too), as
 * pasted and in both normalised readings the driver probes, goes to every probe: each claim
 * must come with one of the format's needles, and the driver must find the same formats with
 * the needles and without them (BENCHLOG_PROBE_ALL=1). On the same walk, the quick answer that
 * a text needs no normalising (bl_text_is_normal, which spares a big file's pieces the new
 * lines) is held to bl_text_normalize's on every file, in both readings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/normalize.h"
#include "../core/strbuf.h"
#include "../parsers/driver_int.h"
#include "support/support.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct tally {
    bl_strbuf bad;
    size_t files, claims, spared; /* spared: probes the needles skipped */
    size_t normal, not_normal;    /* readings bl_text_is_normal answered 1, 0 */
} tally;

static size_t found(const bl_text *t, const bl_format **fmts)
{
    return bl_drv_probe_formats(t, fmts, NULL);
}

static void check_reading(const bl_text *t, const char *path, const char *reading, tally *ty)
{
    for (size_t f = 0; f < bl_format_count(); f++) {
        const bl_format *fmt = bl_format_at(f);
        int may = bl_drv_may_claim(t, fmt), claims = fmt->probe(t) > 0;
        ty->claims += claims;
        ty->spared += !may;
        if (claims && !may)
            bl_strbuf_printf(&ty->bad, "%s (%s): %s claims it without a needle\n", path, reading,
                             fmt->name);
    }
    const bl_format *with[64], *without[64];
    size_t a = found(t, with);
    setenv("BENCHLOG_PROBE_ALL", "1", 1);
    size_t b = found(t, without);
    unsetenv("BENCHLOG_PROBE_ALL");
    if (a != b || memcmp(with, without, a * sizeof *with) != 0)
        bl_strbuf_printf(&ty->bad, "%s (%s): %zu formats found, %zu without needles\n", path,
                         reading, a, b);
}

static void check_file(const char *path, tally *ty)
{
    char err[256];
    bl_text t;
    if (bl_text_load(&t, path, err, sizeof err) != 0) {
        bl_strbuf_printf(&ty->bad, "%s: %s\n", path, err);
        return;
    }
    check_reading(&t, path, "as pasted", ty);
    static const struct {
        int flags;
        const char *name;
    } readings[] = {{0, "normalised"}, {BL_NORM_JOIN, "joined"}};
    for (size_t r = 0; r < sizeof readings / sizeof readings[0]; r++) {
        bl_text norm;
        long *map = NULL;
        int normal = bl_text_is_normal(&t, readings[r].flags);
        ty->normal += normal == 1;
        ty->not_normal += normal == 0;
        if (bl_text_normalize(&t, readings[r].flags, &norm, &map, NULL)) {
            if (normal)
                bl_strbuf_printf(&ty->bad, "%s (%s): said normal, but normalising changes it\n",
                                 path, readings[r].name);
            check_reading(&norm, path, readings[r].name, ty);
            bl_text_free(&norm);
            free(map);
        }
    }
    bl_text_free(&t);
    ty->files++;
}

static void check_tree(const char *dir, tally *ty)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            check_tree(path, ty);
        else if (S_ISREG(st.st_mode))
            check_file(path, ty);
    }
    closedir(d);
}

static void check_root(const char *root, size_t min_files)
{
    tally ty = {0};
    bl_strbuf_init(&ty.bad);
    check_tree(root, &ty);
    if (ty.bad.len)
        fail_msg("%s", ty.bad.s);
    assert_true(ty.files >= min_files);
    assert_true(ty.claims >= min_files); /* the probes ran: most files are claimed */
    assert_true(ty.spared > ty.files);   /* and the needles spared probes */
    assert_true(ty.normal >= min_files / 2 && ty.not_normal >= 10); /* both answers given */
    bl_strbuf_free(&ty.bad);
}

static void test_fixtures(void **state)
{
    (void)state;
    check_root("fixtures", 150);
}

static void test_corpus(void **state)
{
    (void)state;
    char *root = bl_test_corpus(".");
    if (!root)
        skip(); /* no corpus here: the needles are checked on it where it exists */
    check_root(root, 40);
    free(root);
}

static int claims_all(const bl_text *t)
{
    (void)t;
    return 1;
}

/* The check above can fail: a format whose probe needs no needle but names one is caught,
 * and a needle is found at either end of the text, never across two lines. */
static void test_needles_are_checked(void **state)
{
    (void)state;
    static const char *const wrong[] = {"never in this text", NULL};
    static const char *const ends[] = {"head", "tail", NULL};
    static const char *const across[] = {"line one\nline", NULL};
    bl_format f = {.name = "any", .probe = claims_all, .needles = wrong};
    const char *s = "head\nline one\nline two\ntail";
    char err[128];
    bl_text t;
    assert_int_equal(bl_text_from_bytes(&t, "x", s, strlen(s), err, sizeof err), 0);
    assert_int_equal(bl_drv_may_claim(&t, &f), 0);
    f.needles = ends;
    assert_int_equal(bl_drv_may_claim(&t, &f), 1);
    f.needles = across;
    assert_int_equal(bl_drv_may_claim(&t, &f), 0);
    f.needles = NULL;
    assert_int_equal(bl_drv_may_claim(&t, &f), 1);
    /* lines not in the text's buffer are searched one by one */
    char *lines[] = {"head", "line two"};
    bl_text loose = {.nlines = 2, .line = lines};
    f.needles = ends;
    assert_int_equal(bl_drv_may_claim(&loose, &f), 1);
    lines[0] = "no";
    assert_int_equal(bl_drv_may_claim(&loose, &f), 0);
    bl_text_free(&t);
}

/* bonnie-csv's quick test (bl_format.may_claim: a line of 5 commas, 19 or "1.9"/"2.0" first):
 * a real CSV line is seen at every place in the buffer's 16-byte blocks, with and without
 * CRs and leading blanks, and fio's lines of commas are not taken for one. */
static void test_csv_pre_test(void **state)
{
    (void)state;
    const bl_format *csv = bl_format_find("bonnie-csv");
    assert_non_null(csv);
    static const char *const lines[] = {
        "2.00a,2.00a,host,1,1700000000,16G,,8192,5,,,1025,50,,,+++++,+++,8000,99,16,,,,,,",
        "  1.96,1.96,h,1,1,2G,,,,1,2,3,4\r",
        "1.96,1.96,h,1,1,2G", /* 6 fields, the fewest the probe claims (to refuse it) */
        "host,16G,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25"};
    const char *fio =
        "  IO depths    : 1=0.1%, 2=0.1%, 4=0.2%, 8=0.4%, 16=99.2%, 32=0.0%, >=64=0.0%\n"
        "  bw (  KiB/s): min=1, max=2, per=100.00%, avg=1.50, stdev=0.71, samples=2\n";
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++)
        for (size_t pad = 0; pad < 40; pad++) {
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            bl_strbuf_printf(&sb, "%s%*s\n%s\n%s", fio, (int)pad, "", lines[k], pad % 2 ? fio : "");
            bl_text t;
            char err[128];
            assert_int_equal(bl_text_from_bytes(&t, "x", sb.s, sb.len, err, sizeof err), 0);
            assert_int_equal(bl_drv_may_claim(&t, csv), 1);
            assert_true(csv->probe(&t) > 0);
            bl_text_free(&t);
            bl_strbuf_free(&sb);
        }
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "x", fio, strlen(fio), err, sizeof err), 0);
    assert_int_equal(bl_drv_may_claim(&t, csv), 0);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_needles_are_checked),
        cmocka_unit_test(test_csv_pre_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
