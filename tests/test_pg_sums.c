/* Exact sums computed by a real PostgreSQL server (tests/support/pgserver.h; core/
 * store_pg_sums.c): float8 values split by SQL into binary exponent and integer mantissa,
 * summed per group and exponent as numeric, and put back together (bl_pg_xsum_add), give the
 * same bits as the exact sums benchlog makes of the same values itself (core/xsum.h): the
 * sum, the n*sum(x^2)-sum(x)^2 a stdev comes from, the extremes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/store_pg_int.h"
#include "../core/xsum.h"
#include "support/pgserver.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { G = 7 };

typedef struct group {
    bl_xsum sum, sumsq;
    double lo, hi;
    size_t n;
} group;

/* Stores v[] (group i % G) on the server and reads back each group's exact sums, the
 * server's min and max. */
static void server_sums(const double *v, size_t n, group *out)
{
    char *url = bl_test_pg_new_db();
    PGconn *c = PQconnectdb(url);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    bl_strbuf sql;
    bl_strbuf_init(&sql);
    bl_strbuf_puts(&sql, "CREATE TABLE v(g int, x float8); INSERT INTO v VALUES ");
    for (size_t i = 0; i < n; i++)
        bl_strbuf_printf(&sql, "%s(%zu, %.17g)", i ? "," : "", i % G, v[i]);
    PGresult *res = PQexec(c, sql.s);
    assert_int_equal(PQresultStatus(res), PGRES_COMMAND_OK);
    PQclear(res);
    bl_strbuf_reset(&sql);
    bl_strbuf_puts(&sql, "SELECT g, e, count(*), sum(m)::text, sum(m::numeric * m)::text, "
                         "min(x), max(x) FROM (SELECT g, x, ");
    bl_pg_sql_exponent(&sql, "b.bits");
    bl_strbuf_puts(&sql, " AS e, ");
    bl_pg_sql_mantissa(&sql, "b.bits");
    bl_strbuf_puts(&sql, " AS m FROM v, LATERAL (SELECT ");
    bl_pg_sql_bits(&sql, "v.x");
    bl_strbuf_puts(&sql, " AS bits) b) t GROUP BY g, e");
    res = PQexec(c, sql.s);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        print_error("%s\n", PQerrorMessage(c));
    assert_int_equal(PQresultStatus(res), PGRES_TUPLES_OK);
    for (int i = 0; i < PQntuples(res); i++) {
        group *g = &out[atoi(PQgetvalue(res, i, 0))];
        assert_int_equal(bl_pg_xsum_add(&g->sum, &g->sumsq, atoi(PQgetvalue(res, i, 1)),
                                        PQgetvalue(res, i, 3), PQgetvalue(res, i, 4)),
                         0);
        double lo = strtod(PQgetvalue(res, i, 5), NULL), hi = strtod(PQgetvalue(res, i, 6), NULL);
        if (g->n == 0 || lo < g->lo)
            g->lo = lo;
        if (g->n == 0 || hi > g->hi)
            g->hi = hi;
        g->n += strtoul(PQgetvalue(res, i, 2), NULL, 10);
    }
    PQclear(res);
    PQfinish(c);
    bl_strbuf_free(&sql);
    free(url);
}

static void same_sums(const double *v, size_t n)
{
    group mine[G], server[G];
    memset(mine, 0, sizeof mine);
    memset(server, 0, sizeof server);
    for (size_t i = 0; i < n; i++) {
        group *g = &mine[i % G];
        bl_xsum_add(&g->sum, v[i]);
        bl_xsum_add_sq(&g->sumsq, v[i]);
        if (g->n == 0 || v[i] < g->lo)
            g->lo = v[i];
        if (g->n == 0 || v[i] > g->hi)
            g->hi = v[i];
        g->n++;
    }
    server_sums(v, n, server);
    bl_xsum all = {0}, allsq = {0};
    for (int k = 0; k < G; k++) {
        assert_int_equal(server[k].n, mine[k].n);
        assert_true(bl_xsum_value(&server[k].sum) == bl_xsum_value(&mine[k].sum));
        assert_true(bl_xsum_value(&server[k].sumsq) == bl_xsum_value(&mine[k].sumsq));
        double nk = (double)mine[k].n;
        assert_true(bl_xsum_spread(nk, &server[k].sum, &server[k].sumsq) ==
                    bl_xsum_spread(nk, &mine[k].sum, &mine[k].sumsq));
        assert_true(server[k].lo == mine[k].lo && server[k].hi == mine[k].hi);
        bl_xsum_merge(&all, &server[k].sum);
        bl_xsum_merge(&allsq, &server[k].sumsq);
        bl_xsum_free(&server[k].sum);
        bl_xsum_free(&server[k].sumsq);
        bl_xsum_free(&mine[k].sum);
        bl_xsum_free(&mine[k].sumsq);
    }
    /* the groups merged: the sum of every value, as one exact sum of them in order */
    bl_xsum ref = {0}, refsq = {0};
    for (size_t i = 0; i < n; i++) {
        bl_xsum_add(&ref, v[i]);
        bl_xsum_add_sq(&refsq, v[i]);
    }
    assert_true(bl_xsum_value(&all) == bl_xsum_value(&ref));
    assert_true(bl_xsum_spread((double)n, &all, &allsq) == bl_xsum_spread((double)n, &ref, &refsq));
    bl_xsum_free(&all);
    bl_xsum_free(&allsq);
    bl_xsum_free(&ref);
    bl_xsum_free(&refsq);
}

/* 7 x 10 repeats of 0.1 MB/s: the server's sum of each group is 1 exactly (a float8 sum()
 * gives 0.9999999999999999). */
static void test_tenths(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    double v[70];
    for (int i = 0; i < 70; i++)
        v[i] = 0.1;
    group server[G];
    memset(server, 0, sizeof server);
    server_sums(v, 70, server);
    for (int k = 0; k < G; k++) {
        assert_int_equal(server[k].n, 10);
        assert_true(bl_xsum_value(&server[k].sum) == 1.0);
        assert_true(bl_xsum_spread(10, &server[k].sum, &server[k].sumsq) == 0); /* stdev 0 */
        bl_xsum_free(&server[k].sum);
        bl_xsum_free(&server[k].sumsq);
    }
    same_sums(v, 70);
}

/* Bandwidths (MB/s), latencies (ns), IOPS, full 53-bit fractions, a few signs, zeros and a
 * subnormal, in 7 groups. */
static void test_figures(void **state)
{
    (void)state;
    BL_TEST_PG_NEED();
    enum { N = 6000 };
    double *v = malloc(N * sizeof *v);
    unsigned long long r = 88172645463325252ULL;
    static const double scale[] = {1800, 4.6e6, 102539, 0.37, 1e-3, 9.5e11};
    for (int i = 0; i < N; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        v[i] = scale[i % 6] * (0.9 + 0.2 * (double)(r >> 11) / 9007199254740992.0);
        if (i % 97 == 0)
            v[i] = -v[i];
    }
    v[5] = 0;
    v[11] = 5e-324;
    same_sums(v, N);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tenths),
        cmocka_unit_test(test_figures),
    };
    return cmocka_run_group_tests(tests, bl_test_pg_group_setup, bl_test_pg_group_teardown);
}
