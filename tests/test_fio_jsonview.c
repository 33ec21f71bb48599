/* The view of a JSON value read from text (parsers/fio_jsonview.h, the fast path of the fio
 * JSON reader) says what jansson's reading of the same text says, node for node and bit for
 * bit, or refuses the text (which is then given to jansson): over odd texts (escapes, repeated
 * keys, numbers of every form, deep nesting, trailing commas), random numbers, and every job
 * of the fio JSON fixtures and corpus, where the fast path must take them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../parsers/fio_jsonview.h"
#include "support/support.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void same_views(const bl_jv *a, const bl_jv *b, const char *text)
{
    if (a->n != b->n)
        fail_msg("%zu nodes, jansson's %zu: %s", a->n, b->n, text);
    for (size_t i = 0; i < a->n; i++) {
        const bl_jv_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->type != y->type || x->size != y->size || x->span != y->span || x->i != y->i ||
            memcmp(&x->d, &y->d, sizeof x->d) != 0 || (!x->str) != (!y->str) ||
            (x->str && strcmp(x->str, y->str) != 0))
            fail_msg("node %zu differs from jansson's (%.17g, %.17g): %s", i, x->d, y->d, text);
    }
}

/* 1 when the fast path took the text (and agreed with jansson), 0 when it refused it. */
static int check(const char *text, size_t n)
{
    char *mine = malloc(n + 1);
    assert_non_null(mine);
    memcpy(mine, text, n);
    mine[n] = '\0';
    bl_jv a = {0}, b = {0};
    int took = bl_jv_parse(&a, mine, n);
    if (took) {
        json_error_t err;
        json_t *j = json_loadb(text, n, JSON_DECODE_ANY, &err);
        if (!j)
            fail_msg("taken, but jansson refuses it (%s): %.*s", err.text, (int)n, text);
        bl_jv_from_json(&b, j);
        same_views(&a, &b, text);
        json_decref(j);
    }
    bl_jv_free(&a);
    bl_jv_free(&b);
    free(mine);
    return took;
}

static int check_s(const char *text)
{
    return check(text, strlen(text));
}

static void test_odd_texts(void **state)
{
    (void)state;
    static const char *const taken[] = {
        "{}",
        "[]",
        "{\"a\": [1, 2.5, \"x\", true, false, null, {}, []]}",
        " {\"a\":1} \n",
        "[0, -0, -0.0, 0.0, 1e5, 1E+5, 1.5e-7, 2e0, 123456789012345678, 1234567890123456789]",
        "[-9223372036854775808, 9223372036854775807, 9007199254740993, 0.1, 100795.134766]",
        "[1.7976931348623157e308, 4.9e-324, 1e-400, 123456789012345678901234567890.5]",
        "[0.000000000000000000000000000001, 99.000000, 1e22, 1e23, 12345678901234567e-5]",
        "{\"\": 1, \"b\": {\"b\": 2}}",
        "{\"a\": \"\"}",
        "\"s\""};
    for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
        if (!check_s(taken[i]))
            fail_msg("refused: %s", taken[i]);
    static const char *const refused[] = {"{\"a\": 1, \"a\": 2}",
                                          "{\"k\": {\"x\": 1, \"y\": 2, \"x\": 3}}",
                                          "{\"a\": \"x\\ny\"}",
                                          "{\"a\\u0041\": 1}",
                                          "{\"a\": \"\xc3\xa9\"}",
                                          "{\"a\": \"\t\"}",
                                          "[1e999]",
                                          "[-1e999]",
                                          "[99999999999999999999]",
                                          "[-99999999999999999999]",
                                          "[1,]",
                                          "{\"a\": 1,}",
                                          "[1 2]",
                                          "{\"a\" 1}",
                                          "{\"a\": 1}}",
                                          "{\"a\": 1} x",
                                          "[01]",
                                          "[1.]",
                                          "[.5]",
                                          "[-]",
                                          "[tru]",
                                          "[NaN]",
                                          "[Infinity]",
                                          "[+1]",
                                          "[1e]",
                                          "[0x10]",
                                          "{1: 2}",
                                          "{\"a\"}",
                                          "[\"a\" : 1]",
                                          "",
                                          " ",
                                          "1"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (check_s(refused[i]))
            fail_msg("taken: %s", refused[i]);
    assert_int_equal(check("[1]\0[2]", 7), 0);
    /* deeper than 64: jansson's to read */
    char deep[300];
    size_t d = 0;
    for (int k = 0; k < 100; k++)
        deep[d++] = '[';
    for (int k = 0; k < 100; k++)
        deep[d++] = ']';
    assert_int_equal(check(deep, d), 0);
    assert_int_equal(check(deep + 40, 120), 1);
}

/* Every byte inside a string: taken for printable ASCII but the quote and the backslash. */
static void test_string_bytes(void **state)
{
    (void)state;
    for (int c = 1; c < 256; c++) {
        char text[] = "{\"k?y\": \"a?b\"}";
        text[3] = text[10] = (char)c;
        int plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        if (check_s(text) != plain)
            fail_msg("byte 0x%02x in a string: %s", c, plain ? "refused" : "taken");
    }
}

/* bl_jv_read: the value at a text's start, where it ends, the text only read. */
static void read_at(const char *text, size_t n, int want, size_t want_len)
{
    bl_jv v = {0};
    char *buf = NULL;
    size_t len = 0, cap = 0;
    char *mine = malloc(n);
    assert_non_null(mine);
    memcpy(mine, text, n);
    int took = bl_jv_read(&v, mine, n, &len, &buf, &cap);
    if (took != want || (took && len != want_len))
        fail_msg("read %d, %zu bytes; want %d, %zu: %s", took, len, want, want_len, text);
    assert_memory_equal(mine, text, n);
    if (took) { /* the view of the bytes it took, each line end made '\n' */
        char *j = malloc(len);
        assert_non_null(j);
        for (size_t k = 0; k < len; k++)
            j[k] = text[k] ? text[k] : '\n';
        bl_jv w = {0};
        json_error_t err;
        json_t *jv = json_loadb(j, len, JSON_DECODE_ANY, &err);
        assert_non_null(jv);
        bl_jv_from_json(&w, jv);
        same_views(&v, &w, text);
        json_decref(jv);
        bl_jv_free(&w);
        free(j);
    }
    bl_jv_free(&v);
    free(buf);
    free(mine);
}

static void test_read_finds_the_end(void **state)
{
    (void)state;
#define READ_AT(lit, want, len) read_at(lit, sizeof lit - 1, want, len)
    READ_AT("{\"a\": [1, {\"b\": \"}\"}]},\n  {\"c\": 2}]", 1, 22);
    READ_AT("[1,\0 2.5]\0,", 1, 9);   /* a loaded text's line ends are whitespace */
    READ_AT("{\"a\": 1\0}\0]", 1, 9); /* and end a number */
    READ_AT("\"s\"]", 1, 3);
    READ_AT("12]", 1, 2);
    READ_AT("12", 0, 0); /* a number must end before the text does */
    READ_AT("{\"a\": 1", 0, 0);
    READ_AT("{\"a\": 1, \"a\": 2},", 0, 0);
    READ_AT("{\"a\": \"x\\\"}\"},", 0, 0);
    READ_AT(" {}", 0, 0); /* the caller skips whitespace */
#undef READ_AT
}

/* Runs of whitespace of every length from 0 to 40 around every token, and strings of every
 * length with a byte that ends or refuses them at every place: the reader takes whitespace
 * and strings 16 bytes at a time, and must neither skip a byte nor read past the text (each
 * text is its own allocation of its exact size, for ASan and valgrind to see). */
static void test_runs_at_every_length(void **state)
{
    (void)state;
    static const char *const runs[] = {" ", "\t", "\n", "\r\n"};
    char text[2048], ws[200];
    for (size_t r = 0; r < 4; r++)
        for (size_t len = 0; len <= 40; len++) {
            size_t w = 0;
            if (r >= 2) /* a line end and the next line's indentation */
                for (const char *c = runs[r]; *c; c++)
                    ws[w++] = *c;
            for (size_t k = 0; k < len; k++)
                ws[w++] = r == 1 ? '\t' : ' ';
            ws[w] = '\0';
            int n = snprintf(
                text, sizeof text,
                "{%s\"k%.*s\"%s:%s[%s1%s,%s-2.5e3%s,%s\"%.*s\"%s,%strue%s]%s,%s\"n\":%snull%s}", ws,
                (int)len, "0123456789012345678901234567890123456789", ws, ws, ws, ws, ws, ws, ws,
                (int)len, "abcdefghijklmnopqrstuvwxyzabcdefghijklmn", ws, ws, ws, ws, ws, ws, ws);
            if (!check(text, (size_t)n))
                fail_msg("refused: %s", text);
            /* the value cut before its end; then its end the text's */
            for (size_t cut = 0; cut < (size_t)n; cut++)
                read_at(text, cut, 0, 0);
            read_at(text, (size_t)n, 1, (size_t)n);
            text[n - 1] = '\0'; /* a '\0' (a loaded text's line end) before the brace */
            text[n] = '}';
            read_at(text, (size_t)n + 1, 1, (size_t)n + 1);
        }
    static const unsigned char ends[] = {'"', '\\', 0x01, 0x1f, 0x7f, 0x80, 0xff};
    for (size_t e = 0; e < sizeof ends; e++)
        for (size_t len = 0; len <= 40; len++)
            for (size_t tail = 0; tail <= 18; tail++) {
                /* "aaa<end>bbb" then the rest of the text: tail bytes after the byte */
                size_t n = 0;
                text[n++] = '"';
                for (size_t k = 0; k < len; k++)
                    text[n++] = (char)('a' + k % 26);
                text[n++] = (char)ends[e];
                for (size_t k = 0; k < tail; k++)
                    text[n++] = k + 1 == tail ? '"' : 'b';
                int want = ends[e] == '"' ? 1 : 0;
                read_at(text, n, want, len + 2);
                if (check(text, want ? len + 2 : n) != want)
                    fail_msg("byte 0x%02x after %zu bytes of a string: %s", ends[e], len,
                             want ? "refused" : "taken");
            }
}

/* Numbers of random digits, points and exponents: the same double as jansson's strtod; only
 * the integers that jansson refuses (past 64 bits) are refused. */
static void test_random_numbers(void **state)
{
    (void)state;
    srand(26);
    char buf[80];
    int taken = 0, jansson = 0;
    for (int k = 0; k < 20000; k++) {
        size_t n = 0;
        buf[n++] = '[';
        if (rand() % 2)
            buf[n++] = '-';
        int id = 1 + rand() % 20;
        buf[n++] = (char)('1' + rand() % 9);
        for (int i = 1; i < id; i++)
            buf[n++] = (char)('0' + rand() % 10);
        if (rand() % 3) {
            buf[n++] = '.';
            for (int i = 0, f = 1 + rand() % 20; i < f; i++)
                buf[n++] = (char)('0' + rand() % 10);
        }
        if (rand() % 3 == 0)
            n += (size_t)snprintf(buf + n, 12, "e%d", rand() % 80 - 40);
        buf[n++] = ']';
        taken += check(buf, n);
        json_error_t err;
        json_t *j = json_loadb(buf, n, 0, &err);
        jansson += j != NULL;
        json_decref(j);
    }
    assert_int_equal(taken, jansson);
    assert_true(taken > 19000);
}

/* The elements of the first "jobs" array of text: [from, to) pairs into *at. */
static size_t jobs_of(const char *text, size_t *at, size_t max)
{
    const char *p = strstr(text, "\"jobs\"");
    if (!p || !(p = strchr(p, '[')))
        return 0;
    size_t n = 0;
    int depth = 0;
    for (const char *q = p + 1; *q && n < max; q++) {
        if (*q == '"') {
            for (q++; *q && *q != '"'; q++)
                q += q[0] == '\\' && q[1];
        } else if (*q == '{' || *q == '[') {
            if (depth++ == 0)
                at[2 * n] = (size_t)(q - text);
        } else if (*q == '}' || *q == ']') {
            if (depth == 0)
                break;
            if (--depth == 0)
                at[2 * n + 1] = (size_t)(q + 1 - text), n++;
        }
    }
    return n;
}

static void test_fixture_jobs(void **state)
{
    (void)state;
    char cmd[1024], fx[512];
    snprintf(cmd, sizeof cmd, "grep -lsr '\"jobname\"' '%s' '%s/fio-json' 2>/dev/null",
             bl_test_fixture("fio", fx, sizeof fx),
             getenv("BENCHLOG_CORPUS") ? getenv("BENCHLOG_CORPUS") : "../shared/corpus");
    char *list = bl_test_sh(cmd, NULL);
    assert_non_null(list);
    size_t files = 0, jobs = 0, taken = 0, at[2 * 512];
    for (char *path = strtok(list, "\n"); path; path = strtok(NULL, "\n")) {
        char *text = bl_test_slurp(path);
        assert_non_null(text);
        size_t n = jobs_of(text, at, 512);
        files += n > 0;
        for (size_t i = 0; i < n; i++, jobs++) {
            const char *job = text + at[2 * i];
            size_t len = at[2 * i + 1] - at[2 * i];
            int t = check(job, len);
            taken += t;
            if (t) /* read where it stands, the document after it: the same view, its end */
                read_at(job, strlen(job), 1, len);
            /* fio writes plain JSON: a job is jansson's only for a repeated key (fio 2.x
             * printed percentile "0.00" again and again) or what is not JSON */
            json_error_t err;
            json_t *j = json_loadb(job, len, JSON_REJECT_DUPLICATES, &err);
            if (!t && j)
                fail_msg("%s: job %zu refused", path, i);
            json_decref(j);
        }
        free(text);
    }
    fprintf(stderr, "%zu files, %zu jobs, %zu read by the fast path\n", files, jobs, taken);
    assert_true(files >= 10);
    assert_true(taken >= jobs / 2);
    free(list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_texts),          cmocka_unit_test(test_string_bytes),
        cmocka_unit_test(test_read_finds_the_end), cmocka_unit_test(test_random_numbers),
        cmocka_unit_test(test_fixture_jobs),       cmocka_unit_test(test_runs_at_every_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
