/* The content key (core/digest.h) covers every byte of a source: two big logs of the same
 * size whose first and last MiB agree, differing only in the middle, are two sources and both
 * are imported (the key of a streamed file was its size and first and last MiB, and the second
 * was skipped as "already in the store": its records lost). A file's key is the same whether
 * it is streamed (--as fio-log) or loaded whole (auto): the same source is one source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/digest.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A fio bandwidth log of n lines (time, KiB/s, direction, block size): the line `odd`
 * (0: none) has the value 7777 instead of its pattern. Its size does not depend on `odd`. */
static void write_log(const char *path, long n, long odd)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (long i = 1; i <= n; i++)
        fprintf(f, "%ld, %ld, 0, 4096\n", i * 10, i == odd ? 7777L : 1000 + i % 50);
    assert_int_equal(fclose(f), 0);
}

static void key_of_file(const char *path, int want_fnv, bl_content_key *k)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    *k = (bl_content_key){.want_fnv = want_fnv};
    assert_int_equal(bl_content_key_stream(f, k), 0);
    fclose(f);
}

/* The streamed key of text in blocks (3 MiB: three blocks and a part) is the key of the text
 * loaded whole, CR LF line ends, a no-break space, a UTF-8 BOM and a last line without its
 * newline included; the legacy FNV key too. */
static void test_streamed_key_is_the_whole_text_key(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[512];
    snprintf(path, sizeof path, "%s/t.txt", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("\xef\xbb\xbf", f);
    for (long i = 0; i < 100000; i++)
        fprintf(f, "%ld bytes copied,\xc2\xa0%ld.5 s, %ld MB/s%s", i * 4096, i % 9, i % 700,
                i % 3 ? "\r\n" : "\n");
    fputs("no newline at the end", f);
    assert_int_equal(fclose(f), 0);
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_load(&t, path, err, sizeof err), 0);
    assert_true(t.len > (size_t)3 << 20);
    bl_content_key whole = {.want_fnv = 1}, streamed;
    bl_content_key_of(t.buf, t.len, &whole);
    key_of_file(path, 1, &streamed);
    assert_string_equal(streamed.sha256, whole.sha256);
    assert_string_equal(streamed.fnv, whole.fnv);
    assert_int_equal(strlen(streamed.fnv), 32);
    bl_text_free(&t);
    /* and the key is SHA-256: of "abc\0" as a file "abc\n" gives it */
    snprintf(path, sizeof path, "%s/abc", dir);
    f = fopen(path, "wb");
    fputs("abc\n", f);
    fclose(f);
    key_of_file(path, 0, &streamed);
    assert_string_equal(streamed.sha256,
                        "dc1114cd074914bd872cc1f9a23ec910ea2203bc79779ab2e17da25782a624fc");
    assert_string_equal(streamed.fnv, "");
    free(dir);
}

/* One byte in the middle of 3.3 MB changes the key. */
static void test_middle_byte_changes_the_key(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), a[512], b[512];
    snprintf(a, sizeof a, "%s/a.log", dir);
    snprintf(b, sizeof b, "%s/b.log", dir);
    write_log(a, 150000, 0);
    write_log(b, 150000, 75000);
    bl_content_key ka, kb;
    key_of_file(a, 0, &ka);
    key_of_file(b, 0, &kb);
    assert_string_not_equal(ka.sha256, kb.sha256);
    free(dir);
}

/* Two logs of one name in two folders, same size, same first and last MiB: both imported,
 * each with its own figures; then the first again, read whole this time: skipped. */
static void test_logs_differing_in_the_middle_are_both_imported(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/one %s/two", dir, dir);
    assert_int_equal(system(cmd), 0);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/one/job_bw.1.log", dir);
    snprintf(b, sizeof b, "%s/two/job_bw.1.log", dir);
    write_log(a, 150000, 0);
    write_log(b, 150000, 75000);
    struct stat sa, sb;
    assert_int_equal(stat(a, &sa), 0);
    assert_int_equal(stat(b, &sb), 0);
    assert_int_equal(sa.st_size, sb.st_size);
    assert_true(sa.st_size > (3 << 20));
    char *out = NULL, *err = NULL;
    int rc = bl_test_benchlogf(&out, &err, "import --db %s/s.db --as fio-log %s %s", dir, a, b);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "one/job_bw.1.log: imported 1 record"));
    assert_non_null(strstr(out, "two/job_bw.1.log: imported 1 record"));
    free(out);
    free(err);
    /* the two series' maxima: 1049 KiB/s in a, 7777 KiB/s in b (fio's KiB/s, 1024 bytes) */
    rc = bl_test_benchlogf(&out, &err, "export --db %s/s.db --jsonl", dir);
    assert_int_equal(rc, 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    char *second = strchr(out, '\n') + 1;
    assert_non_null(strstr(out, "\"max\":1074176"));
    assert_null(strstr(second, "\"max\":1074176"));
    assert_non_null(strstr(second, "\"max\":7963648"));
    free(out);
    free(err);
    rc = bl_test_benchlogf(&out, &err, "import --db %s/s.db %s", dir, a);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "already in the store (same content"));
    free(out);
    free(err);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streamed_key_is_the_whole_text_key),
        cmocka_unit_test(test_middle_byte_changes_the_key),
        cmocka_unit_test(test_logs_differing_in_the_middle_are_both_imported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
