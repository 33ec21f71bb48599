/* A store made before schema 5 or 6 is upgraded by the first command that opens it for
 * writing: every record's fold columns (5) and time column (6) are filled, about a minute at a
 * million records. Each step tells its progress (core/store.h's registered
 * bl_store_progress_fn) and the program shows it for a store of 20,000 records or more, never
 * under -q nor for a small store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/store.h"
#include "support/support.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_DD = 20000 }; /* the least store the program tells about */

typedef struct fixture {
    char *dir;
    char big[600], big4[600], big5[600], small[600], small4[600];
} fixture;

/* n dd summaries (bytes copied, seconds, rate) in path, one record each. */
static void write_dd(const char *path, long n)
{
    FILE *o = fopen(path, "w");
    assert_non_null(o);
    for (long i = 1; i <= n; i++) {
        double secs = 1.5 + (double)(i % 7);
        fprintf(o, "%ld bytes copied, %.1f s, %.0f kB/s\n", i * 1048576L, secs,
                (double)i * 1048576 / secs / 1e3);
    }
    assert_int_equal(fclose(o), 0);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->dir = bl_test_tmpdir();
    char txt[600];
    snprintf(txt, sizeof txt, "%s/big.txt", f->dir);
    write_dd(txt, N_DD);
    snprintf(f->big, sizeof f->big, "%s/big.db", f->dir);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "--db %s import --as dd %s", f->big, txt), 0);
    snprintf(txt, sizeof txt, "%s/small.txt", f->dir);
    write_dd(txt, 50);
    snprintf(f->small, sizeof f->small, "%s/small.db", f->dir);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "--db %s import --as dd %s", f->small, txt), 0);
    snprintf(f->big4, sizeof f->big4, "%s/big4.db", f->dir);
    snprintf(f->big5, sizeof f->big5, "%s/big5.db", f->dir);
    snprintf(f->small4, sizeof f->small4, "%s/small4.db", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        return -1;
    free(f->dir);
    free(f);
    return 0;
}

/* What core told the registered function, step by step (told[5], told[6]: a test may keep
 * it in a static: it is the one registration, as the program's). */
typedef struct told_step {
    int calls;
    int64_t first_done, first_total, last_done, last_total;
    int monotone;
} told_step;
static told_step told[7];

static void record_progress(const char *path, const char *what, int64_t done, int64_t total)
{
    assert_non_null(path);
    int v = strstr(what, "schema 5") ? 5 : strstr(what, "schema 6") ? 6 : 0;
    assert_true(v != 0);
    /* the steps in order: nothing of schema 5 is told after schema 6 began */
    assert_true(v == 6 || told[6].calls == 0);
    told_step *t = &told[v];
    if (t->calls == 0) {
        t->first_done = done;
        t->first_total = total;
        t->monotone = 1;
    } else if (done < t->last_done) {
        t->monotone = 0;
    }
    t->calls++;
    t->last_done = done;
    t->last_total = total;
}

static void assert_told_whole(const told_step *t, int64_t n)
{
    assert_true(t->calls >= 2);
    assert_int_equal(t->first_done, 0);
    assert_int_equal(t->first_total, n);
    assert_int_equal(t->last_done, n);
    assert_int_equal(t->last_total, n);
    assert_true(t->monotone);
}

static int64_t count_of(const char *db)
{
    char err[512];
    bl_store *s = bl_store_open_existing(db, err, sizeof err);
    assert_non_null(s);
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_store_query(s, NULL, &recs, err, sizeof err), 0);
    int64_t n = (int64_t)recs.n;
    bl_records_free(&recs);
    bl_store_close(s);
    return n;
}

/* Core tells the start (0 of all), steps in order and the end (all of all). */
static void test_core_tells_progress(void **state)
{
    fixture *f = *state;
    assert_int_equal(bl_test_store_v4(f->big, f->big4), 0);
    memset(&told, 0, sizeof told);
    bl_store_register_progress(record_progress);
    int64_t n = count_of(f->big4); /* opening it migrates it */
    bl_store_register_progress(NULL);
    assert_int_equal(n, N_DD);
    assert_told_whole(&told[5], N_DD);
    assert_told_whole(&told[6], N_DD);
    /* upgraded once: opening it again tells nothing */
    memset(&told, 0, sizeof told);
    bl_store_register_progress(record_progress);
    assert_int_equal(count_of(f->big4), N_DD);
    bl_store_register_progress(NULL);
    assert_int_equal(told[5].calls + told[6].calls, 0);
    /* a store of schema 5 takes the one step; 20,000 records fill in steps of 50,000: one */
    assert_int_equal(bl_test_store_v5(f->big, f->big5), 0);
    memset(&told, 0, sizeof told);
    bl_store_register_progress(record_progress);
    assert_int_equal(count_of(f->big5), N_DD);
    bl_store_register_progress(NULL);
    assert_int_equal(told[5].calls, 0);
    assert_told_whole(&told[6], N_DD);
}

/* The program: a line when it starts and one when done (stderr is no terminal here), the
 * report the same as the store made new; nothing under -q; nothing for a small store. */
static void test_program_says_it(void **state)
{
    fixture *f = *state;
    char *out = NULL, *err = NULL, *out_new = NULL;
    assert_int_equal(bl_test_store_v4(f->big, f->big4), 0);
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s report", f->big4), 0);
    assert_non_null(strstr(err, "big4.db: upgrading the store to schema 5 (the grouped "
                                "report's columns): 20000 records, once...\n"));
    assert_non_null(strstr(err, "big4.db: upgrading the store to schema 5 (the grouped "
                                "report's columns): done\n"));
    assert_non_null(strstr(err, "big4.db: upgrading the store to schema 6 (the time column "
                                "history reads): done\n"));
    assert_int_equal(bl_test_benchlogf(&out_new, NULL, "--db %s report", f->big), 0);
    assert_string_equal(out, out_new);
    free(out);
    free(err);

    assert_int_equal(bl_test_store_v4(f->big, f->big4), 0);
    assert_int_equal(bl_test_benchlogf(&out, &err, "-q --db %s report", f->big4), 0);
    assert_null(strstr(err, "upgrading"));
    assert_string_equal(out, out_new);
    free(out);
    free(err);
    free(out_new);

    assert_int_equal(bl_test_store_v4(f->small, f->small4), 0);
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s report", f->small4), 0);
    assert_null(strstr(err, "upgrading"));
    assert_int_equal(bl_test_benchlogf(&out_new, NULL, "--db %s report", f->small), 0);
    assert_non_null(strstr(out, "seq-copy Q1T1"));
    assert_string_equal(out, out_new);
    free(out);
    free(err);
    free(out_new);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_tells_progress),
        cmocka_unit_test(test_program_says_it),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
