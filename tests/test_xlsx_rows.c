/* The workbook's detail rows: every record in its run's sheet (or Records) and Latency, in
 * the walk's order, whatever batches the second thread hands them over in; and a table
 * longer than a sheet holds going on in "NAME (2)", ... rather than losing rows (Excel holds
 * 1,048,576 rows a sheet; max_rows stands for it here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../report/xlsx.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_RUNS 3
#define PER_RUN 234 /* 702 records: past two batches of 256 */

/* dd's "67108864 bytes (67 MB, 64 MiB) copied, ..." records, each run with its own rate:
 * record i moves (i + 1) MB/s, so each row tells which record it holds; every other one has
 * fio's clat mean and p99. */
static void make_records(bl_records *rs)
{
    bl_records_init(rs);
    for (size_t i = 0; i < N_RUNS * PER_RUN; i++) {
        bl_record *r = bl_record_new();
        bl_record_set_str(&r->source, "dd.txt");
        r->run = (int64_t)(i / PER_RUN + 1);
        r->line = (int64_t)(i + 1);
        bl_record_set_str(&r->tool, "dd");
        bl_record_set_str(&r->test, "seq-write");
        bl_record_set_str(&r->op, "write");
        bl_record_set_str(&r->pattern, "seq");
        r->bs = 1048576;
        r->io_bytes = 67108864;
        r->bw_bytes_s = (double)(i + 1) * 1e6;
        if (i % 2 == 0) {
            r->clat_ns.present = true;
            r->clat_ns.mean = 2770000; /* 2,770.0 µs */
            bl_lat_add_pct(&r->clat_ns, 99, 6752000);
        }
        bl_records_push(rs, r);
    }
}

static char *zip_part(const char *xlsx, const char *part)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "unzip -p '%s' '%s'", xlsx, part);
    return bl_test_sh(cmd, NULL);
}

/* The XML of the sheet named name, or NULL when the workbook has none. */
static char *sheet(const char *xlsx, const char *name)
{
    char *wb = zip_part(xlsx, "xl/workbook.xml"), want[200];
    snprintf(want, sizeof want, "<sheet name=\"%s\" sheetId=\"", name);
    const char *p = strstr(wb, want);
    char part[64];
    if (p)
        snprintf(part, sizeof part, "xl/worksheets/sheet%d.xml", atoi(p + strlen(want)));
    free(wb);
    return p ? zip_part(xlsx, part) : NULL;
}

/* The value of cell ref ("M5"), a number or an inline string, or "" when it holds none. */
static const char *cell(const char *xml, const char *ref)
{
    static char v[64];
    char want[32];
    snprintf(want, sizeof want, "<c r=\"%s\"", ref);
    const char *p = strstr(xml, want), *end = p ? strstr(p, "</c>") : NULL;
    const char *at = p ? strstr(p, "<v>") : NULL, *t = p ? strstr(p, "<t>") : NULL;
    if (!at || at > end)
        at = t;
    v[0] = 0;
    if (at && at < end)
        snprintf(v, sizeof v, "%.*s", (int)strcspn(at + 3, "<"), at + 3);
    return v;
}

static size_t rows_of(const char *xml)
{
    size_t n = 0;
    for (const char *p = xml; (p = strstr(p, "<row ")); p++)
        n++;
    return n - 1; /* the header */
}

/* Record i (0-based) is in row row of xml: its line in column line_col, its MB/s in bw_col. */
static void assert_record(const char *xml, size_t row, size_t i, char line_col, char bw_col)
{
    char ref[16], want[32];
    snprintf(ref, sizeof ref, "%c%zu", line_col, row);
    snprintf(want, sizeof want, "%zu", i + 1);
    assert_string_equal(cell(xml, ref), want);
    snprintf(ref, sizeof ref, "%c%zu", bw_col, row);
    assert_string_equal(cell(xml, ref), want);
}

static void write_book(const char *path, bl_records *rs, const bl_xlsx_opts *o)
{
    char err[256] = "";
    assert_int_equal(bl_xlsx_write(path, rs, o, err, sizeof err), 0);
}

/* One sheet per run, each row its record in order, in both writing modes. */
static void test_every_record_in_order(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[600];
    snprintf(path, sizeof path, "%s/b.xlsx", dir);
    bl_records rs;
    make_records(&rs);
    for (int cm = 0; cm < 2; cm++) {
        bl_xlsx_opts o = {.constant_memory_from = cm ? 1 : 0};
        write_book(path, &rs, &o);
        for (size_t k = 0; k < N_RUNS; k++) {
            char name[32];
            snprintf(name, sizeof name, "%zu dd #%zu", k + 1, k + 1);
            char *xml = sheet(path, name);
            assert_non_null(xml);
            assert_int_equal(rows_of(xml), PER_RUN);
            for (size_t j = 0; j < PER_RUN; j++)
                assert_record(xml, j + 2, k * PER_RUN + j, 'A', 'M');
            free(xml);
        }
        char *lat = sheet(path, "Latency");
        assert_int_equal(rows_of(lat), N_RUNS * PER_RUN / 2);
        /* the second clat row: record 3 (line 3) of run 1, mean and p99 in µs */
        assert_string_equal(cell(lat, "B3"), "3");
        assert_string_equal(cell(lat, "F3"), "2770");
        assert_string_equal(cell(lat, "I3"), "6752");
        free(lat);
        assert_null(sheet(path, "1 dd #1 (2)"));
    }
    bl_records_free(&rs);
    free(dir);
}

/* 100 data rows a sheet: run 1's 234 records on "1 dd #1", "1 dd #1 (2)" and "(3)", in order,
 * none lost, each with its autofilter; Records and Latency go on the same way. */
static void test_past_the_rows_of_a_sheet(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[600];
    snprintf(path, sizeof path, "%s/b.xlsx", dir);
    bl_records rs;
    make_records(&rs);
    bl_xlsx_opts o = {.constant_memory_from = 1, .max_rows = 101};
    write_book(path, &rs, &o);
    char *wb = zip_part(path, "xl/workbook.xml");
    const char *order[] = {"1 dd #1", "1 dd #1 (2)", "1 dd #1 (3)", "2 dd #2", "3 dd #3 (3)",
                           "Latency", "Latency (2)", "Latency (4)", "Sources"};
    const char *at = wb;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "<sheet name=\"%s\"", order[i]);
        at = strstr(at, want);
        assert_non_null(at);
    }
    assert_null(strstr(wb, "\"1 dd #1 (4)\""));
    assert_null(strstr(wb, "\"Latency (5)\""));
    free(wb);
    const char *parts[] = {"1 dd #1", "1 dd #1 (2)", "1 dd #1 (3)"};
    for (size_t p = 0; p < 3; p++) {
        char *xml = sheet(path, parts[p]);
        size_t rows = p < 2 ? 100 : PER_RUN - 200;
        assert_int_equal(rows_of(xml), rows);
        for (size_t j = 0; j < rows; j++)
            assert_record(xml, j + 2, p * 100 + j, 'A', 'M');
        char want[64];
        snprintf(want, sizeof want, "<autoFilter ref=\"A1:AE%zu\"/>", rows + 1);
        assert_non_null(strstr(xml, want));
        free(xml);
    }
    char *lat = sheet(path, "Latency (4)"); /* 351 clat rows: 51 on the fourth */
    assert_int_equal(rows_of(lat), 51);
    assert_string_equal(cell(lat, "A2"), "3 dd #3"); /* record 601: line 601 */
    assert_string_equal(cell(lat, "B2"), "601");
    free(lat);
    /* One Records sheet for the runs (max_run_sheets 1): 702 rows on 8 sheets. */
    o.max_run_sheets = 1;
    write_book(path, &rs, &o);
    size_t total = 0;
    for (size_t p = 0; p < 8; p++) {
        char name[32];
        snprintf(name, sizeof name, p ? "Records (%zu)" : "Records", p + 1);
        char *xml = sheet(path, name);
        assert_non_null(xml);
        size_t rows = rows_of(xml);
        for (size_t j = 0; j < rows; j++)
            assert_record(xml, j + 2, total + j, 'D', 'P');
        total += rows;
        free(xml);
    }
    assert_int_equal(total, N_RUNS * PER_RUN);
    assert_null(sheet(path, "Records (9)"));
    bl_records_free(&rs);
    free(dir);
}

/* A name near 31 characters keeps its suffix: shortened to leave room. */
static void test_long_name_shortened(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), path[600];
    snprintf(path, sizeof path, "%s/b.xlsx", dir);
    bl_records rs;
    make_records(&rs);
    for (size_t i = 0; i < rs.n; i++)
        bl_record_set_label(rs.v[i], "host", "ストレージサーバー一号機のNAS-volume-00001");
    bl_xlsx_opts o = {.max_rows = 201};
    write_book(path, &rs, &o);
    char *wb = zip_part(path, "xl/workbook.xml");
    /* "1 " and the label's 29 characters make 31; the second part keeps 27 and " (2)" */
    assert_non_null(strstr(wb, "<sheet name=\"1 ストレージサーバー一号機のNAS-volume-00001\""));
    assert_non_null(strstr(wb, "<sheet name=\"1 ストレージサーバー一号機のNAS-volume-0 (2)\""));
    free(wb);
    bl_records_free(&rs);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_record_in_order),
        cmocka_unit_test(test_past_the_rows_of_a_sheet),
        cmocka_unit_test(test_long_name_shortened),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
