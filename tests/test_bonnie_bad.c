/* Bad bonnie++ and CrystalDiskMark input: FILE:LINE messages, the good records kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>

static int parse_text(const char *text, const char *as, bl_parse_out *o, char **dir)
{
    *dir = bl_test_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/in.txt", *dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    bl_out_init(o, "in.txt");
    int rc = bl_test_parse(path, as, o);
    remove(path);
    return rc;
}

static void test_bonnie_bad_row_and_csv(void **state)
{
    (void)state;
    const char *text =
        "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n"
        "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        "good            15G   736  99 26293   3 24577   2  1656  99 34696   3  9677 141\n"
        "bad             15G   736  99 26x93   3 24577   2  1656  99 34696   3  9677 141\n"
        "1.97,1.97,other,1,1518013224,15G,,736,99,26293\n";
    bl_parse_out o;
    char *dir;
    assert_int_equal(parse_text(text, NULL, &o, &dir), 1);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 5);
    assert_int_equal(o.diags[1].line, 6);
    assert_int_equal(o.recs.n, 6);
    const bl_record *r = fu_find(&o, "seq-write-block", "host", "good", 0);
    assert_double_equal(r->bw_bytes_s, 26293.0 * 1024, 0);
    bl_out_free(&o);
    free(dir);
}

static void test_bonnie_pipe_mismatch(void **state)
{
    (void)state;
    const char *text =
        "| Sequential Output | Sequential Input | Random Seeks |\n"
        "| Per Char | Block | Rewrite | Per Char | Block |\n"
        "| 157586(100) | 635116(17) | 231945(12) | 118887(79) | 296926(8) | 482.8(1) |\n"
        "| 157586(100) | 635116(17) | 231945(12) |\n";
    bl_parse_out o;
    char *dir;
    assert_int_equal(parse_text(text, NULL, &o, &dir), 1);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 4);
    assert_int_equal(o.recs.n, 6);
    assert_double_equal(fu_find(&o, "rand-seeks", NULL, NULL, 0)->value, 482.8, 1e-9);
    bl_out_free(&o);
    free(dir);
}

static void test_cdm_bad_cells(void **state)
{
    (void)state;
    const char *text = "CrystalDiskMark 3.0.2 x64 (C) 2007-2013 hiyohiyo\n"
                       "           Sequential Read :   478.802 MB/s\n"
                       "    Random Read 4KB (QD=1) :   n/a\n"
                       "\n"
                       "|Name        | Read(MB/s)|Write(MB/s)|\n"
                       "|------------|-----------|-----------|\n"
                       "|SEQ1M Q8 T1 |    3076.62|      oops |\n";
    bl_parse_out o;
    char *dir;
    assert_int_equal(parse_text(text, NULL, &o, &dir), 1);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 3);
    assert_int_equal(o.diags[1].line, 7);
    assert_int_equal(o.recs.n, 2);
    assert_double_equal(fu_find(&o, "seq-read", "cdm_test", "SEQ1M Q8T1", 0)->bw_bytes_s, 3076.62e6,
                        1e-3);
    bl_out_free(&o);
    free(dir);
}

/* Found by fuzzing: a block size of twenty digits overflowed. */
static void test_cdm_huge_block_size(void **state)
{
    (void)state;
    const char *text = "[Read]\n"
                       "Random 33333333333333333333333KiB (Q= 1, T= 1): 1.000 MB/s\n"
                       "Random 4KiB (Q= 1, T= 1): 2.000 MB/s\n";
    bl_parse_out o;
    char *dir;
    parse_text(text, "cdm", &o, &dir);
    assert_int_equal(o.recs.n, 1);
    assert_int_equal(o.recs.v[0]->bs, 4096);
    bl_out_free(&o);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bonnie_bad_row_and_csv),
        cmocka_unit_test(test_bonnie_pipe_mismatch),
        cmocka_unit_test(test_cdm_bad_cells),
        cmocka_unit_test(test_cdm_huge_block_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
