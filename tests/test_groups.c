/* Comparison groups (compare/group.h): one per source document, in source order whatever the
 * order the store holds them in, a group's set-ups in the table's order; one group across
 * sources when asked; a group's table keeps its set-ups' figures and repeats, and only the
 * tests they ran. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../compare/group.h"
#include "../compare/table.h"
#include "support/support.h"
#include <stdlib.h>
#include <string.h>

#include "test_report_records.h"

static bl_record *dd(bl_records *rs, const char *src, const char *col, const char *test, double mbs,
                     long run)
{
    bl_record *r = rec(rs, src, run, "dd", "9.1", test, 1048576, 1, 1);
    bl_record_set_label(r, "column", col);
    r->bw_bytes_s = mbs * 1e6;
    return r;
}

static void test_one_group_per_source(void **state)
{
    (void)state;
    bl_records rs;
    bl_records_init(&rs);
    /* Stored zeta first: groups still come by source name. */
    dd(&rs, "zeta.txt", "usb", "seq-write", 9.59, 1);
    dd(&rs, "alpha.txt", "nvme", "seq-read", 3200, 1);
    dd(&rs, "alpha.txt", "nvme", "seq-read", 3000, 2); /* a repeat */
    dd(&rs, "alpha.txt", "sata", "seq-read", 550, 3);
    dd(&rs, "zeta.txt", "ssd", "seq-write", 580, 2);
    bl_table_opts to = {0};
    char err[256] = "";
    bl_table *t = bl_table_build(&rs, &to, err, sizeof err);
    assert_non_null(t);
    assert_int_equal(t->ncols, 4);
    assert_int_equal(t->nrows, 2);
    bl_groups gs;
    bl_groups_make(t, 0, &gs);
    assert_int_equal(gs.n, 2);
    assert_string_equal(gs.v[0].name, "alpha.txt");
    assert_string_equal(gs.v[1].name, "zeta.txt");
    assert_int_equal(gs.v[0].ncols, 2);
    assert_int_equal(gs.v[0].nrows, 1);
    assert_int_equal(gs.v[0].records, 3);
    assert_int_equal(gs.v[1].records, 2);
    /* In the table's order: zeta's usb (first stored) before its ssd. */
    assert_string_equal(t->cols[gs.v[1].cols[0]].label, "usb");
    assert_string_equal(t->cols[gs.v[1].cols[1]].label, "ssd");
    /* alpha's table: seq-read only, nvme's two runs a mean of 3100 MB/s with n = 2. */
    bl_table *a = bl_table_subset(t, gs.v[0].cols, gs.v[0].ncols);
    assert_int_equal(a->nrows, 1);
    assert_int_equal(a->ncols, 2);
    assert_string_equal(a->rows[0].test, "seq-read");
    assert_int_equal(a->n_records, 3);
    size_t nvme = strcmp(a->cols[0].label, "nvme") == 0 ? 0 : 1;
    const bl_stat *st = &bl_table_cell(a, 0, nvme)->m[BL_M_BW];
    assert_int_equal(st->n, 2);
    assert_true(bl_test_close(st->fig, 3100, 1e-9));
    assert_true(bl_test_close(bl_table_cell(a, 0, 1 - nvme)->m[BL_M_BW].fig, 550, 1e-9));
    assert_int_equal(a->any_repeat, 1);
    /* zeta's: no repeats. */
    bl_table *z = bl_table_subset(t, gs.v[1].cols, gs.v[1].ncols);
    assert_int_equal(z->any_repeat, 0);
    assert_true(bl_test_close(bl_table_cell(z, 0, 0)->m[BL_M_BW].fig, 9.59, 1e-9));
    bl_table_free(z);
    bl_table_free(a);
    bl_groups_free(&gs);
    /* Across sources: one group of all four set-ups. */
    bl_groups_make(t, 1, &gs);
    assert_int_equal(gs.n, 1);
    assert_int_equal(gs.v[0].ncols, 4);
    assert_int_equal(gs.v[0].nrows, 2);
    assert_int_equal(gs.v[0].records, 5);
    bl_groups_free(&gs);
    bl_table_free(t);
    bl_records_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_group_per_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
