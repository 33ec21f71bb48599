/* bonnie++ table and CSV in one text: merged into one run only when the CSV line repeats the
 * table row's figures (bonnie++ prints both forms of one run); a CSV line of another run of
 * the same machine is a run of its own, under its own heading. K/sec x 1024 = bytes/s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "formats_util.h"
#include "../parsers/driver.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

static int parse_string(const char *text, bl_parse_out *o)
{
    return bl_test_parse_text("b.txt", text, NULL, o);
}

/* QA b3: bonnie++ 1.03 table (seq-write-char 45123 K/sec) and a CSV line of another run
 * (55123): the table's figure was silently replaced by the CSV's. */
static const char b3[] =
    "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n" /* 1 */
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n" /* 2 */
    "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n" /* 3 */
    "fileserver       4G 45123  97 89012  32 34567  12 44321  91 98765  15 234.5   1\n" /* 4 */
    "                    ------Sequential Create------ --------Random Create--------\n" /* 5 */
    "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n" /* 6 */
    "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n" /* 7 */
    "                 16  3012  99 +++++ +++ +++++ +++  3112  98 +++++ +++ 10234  99\n" /* 8 */
    "fileserver,4G,55123,97,89012,32,34567,12,44321,91,98765,15,234.5,1,16,3012,99,+++++,+++,+++++,"
    "+++,3112,98,+++++,+++,10234,99\n" /* 9 */;

static void test_csv_of_another_run_kept_apart(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_string(b3, &o), 0);
    assert_int_equal(fu_runs(&o, "bonnie++"), 2);
    assert_int_equal(o.recs.n, 24);
    const bl_record *t = fu_find(&o, "seq-write-char", NULL, NULL, 0);
    const bl_record *c = fu_find(&o, "seq-write-char", NULL, NULL, 1);
    assert_int_equal(t->line, 4);
    assert_double_equal(t->bw_bytes_s, 45123.0 * 1024, 0);
    assert_int_equal(c->line, 9);
    assert_double_equal(c->bw_bytes_s, 55123.0 * 1024, 0);
    assert_true(t->run != c->run);
    bl_out_free(&o);
}

/* QA b4: "Before tuning" table, then "After tuning ..., CSV only:" and the CSV line of the
 * later run: one run labelled "Before tuning" carried the CSV's figures
 * (seq-write-block 99012 K/sec where the table says 89012). */
static const char b4[] =
    "Before tuning\n"                                                                   /* 1 */
    "\n"                                                                                /* 2 */
    "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n" /* 3 */
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n" /* 4 */
    "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n" /* 5 */
    "fileserver       4G 45123  97 89012  32 34567  12 44321  91 98765  15 234.5   1\n" /* 6 */
    "                    ------Sequential Create------ --------Random Create--------\n" /* 7 */
    "                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n" /* 8 */
    "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n" /* 9 */
    "                 16  3012  99 +++++ +++ +++++ +++  3112  98 +++++ +++ 10234  99\n" /* 10 */
    "\n"                                                                                /* 11 */
    "After tuning (noatime, deadline scheduler), CSV only:\n"                           /* 12 */
    "\n"                                                                                /* 13 */
    "fileserver,4G,55123,97,99012,35,44567,14,44321,91,128765,19,334.5,1,16,3012,99,+++++,+++,+++++"
    ",+++,3112,98,+++++,+++,10234,99\n" /* 14 */;

static void test_before_and_after_under_their_headings(void **state)
{
    (void)state;
    bl_parse_out o;
    assert_int_equal(parse_string(b4, &o), 0);
    assert_int_equal(fu_runs(&o, "bonnie++"), 2);
    const char *before = "Before tuning",
               *after = "After tuning (noatime, deadline scheduler), CSV only";
    assert_int_equal(fu_count(&o, "bonnie++", "section", before), 12);
    assert_int_equal(fu_count(&o, "bonnie++", "section", after), 12);
    static const struct {
        const char *test;
        double table, csv; /* K/sec */
    } want[] = {{"seq-write-block", 89012, 99012},
                {"seq-rewrite", 34567, 44567},
                {"seq-read-block", 98765, 128765}};
    for (size_t i = 0; i < 3; i++) {
        const bl_record *r = fu_find(&o, want[i].test, "section", before, 0);
        assert_non_null(r);
        assert_int_equal(r->line, 6);
        assert_double_equal(r->bw_bytes_s, want[i].table * 1024, 0);
        r = fu_find(&o, want[i].test, "section", after, 0);
        assert_non_null(r);
        assert_int_equal(r->line, 14);
        assert_double_equal(r->bw_bytes_s, want[i].csv * 1024, 0);
    }
    bl_out_free(&o);
}

/* bonnie++ 2.00a prints its table rounded ("259m") and its CSV in K/sec (264958 = 258.75
 * MiB/s): one run. A CSV figure that would print "260m" (266000 K/sec) is another run. */
static void test_rounded_table_agrees_within_its_digit(void **state)
{
    (void)state;
    char p[4096];
    char *text = bl_test_slurp(bl_test_fixture("bonnie/bonnie-2.00a_s256_n2.txt", p, sizeof p));
    bl_parse_out o;
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(fu_runs(&o, "bonnie++"), 1);
    const bl_record *r = fu_find(&o, "seq-write-block", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 264958.0 * 1024, 0); /* the CSV's unrounded figure */
    bl_out_free(&o);
    char *csv = strstr(text, ",264958,");
    assert_non_null(csv);
    memcpy(csv, ",266000,", 8);
    assert_int_equal(parse_string(text, &o), 0);
    assert_int_equal(fu_runs(&o, "bonnie++"), 2);
    assert_double_equal(fu_find(&o, "seq-write-block", NULL, NULL, 0)->bw_bytes_s, 259.0 * 1048576,
                        0);
    assert_double_equal(fu_find(&o, "seq-write-block", NULL, NULL, 1)->bw_bytes_s, 266000.0 * 1024,
                        0);
    bl_out_free(&o);
    free(text);
}

/* bonnie++ 1.97's table and CSV of one run (corpus, GCE pd-ssd): still one run of 12 tests. */
static void test_gce_table_and_csv_one_run(void **state)
{
    (void)state;
    char *p = bl_test_corpus("bonnie/bonnie-1.97_human_plus_csv_gce.txt");
    if (!p)
        skip();
    bl_parse_out o;
    assert_int_equal(bl_test_parse(p, NULL, &o), 0);
    free(p);
    assert_int_equal(o.recs.n, 12);
    assert_int_equal(fu_runs(&o, "bonnie++"), 1);
    assert_string_equal(bl_record_label(o.recs.v[0], "host"), "gce_pd-ssd");
    const bl_record *r = fu_find(&o, "seq-write-block", NULL, NULL, 0);
    assert_double_equal(r->bw_bytes_s, 26293.0 * 1024, 0);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_of_another_run_kept_apart),
        cmocka_unit_test(test_before_and_after_under_their_headings),
        cmocka_unit_test(test_rounded_table_agrees_within_its_digit),
        cmocka_unit_test(test_gce_table_and_csv_one_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
