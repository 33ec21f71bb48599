/* µs per stored record decoded: every record's JSON text of a store read into memory, then
 * decoded by jansson's DOM path (what the store read before) and by the fast reader
 * (core/record_decode.h), in alternating rounds; prints each round and the ratio, and how
 * many records the fast reader handed back to jansson.
 *
 *   record_decode STORE.db [ROUNDS]    (build: see bench/report.sh; gen_store makes a store) */
#include "../core/jsonl.h"
#include "../core/record_decode.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct texts {
    char **s;
    size_t *len, n, cap;
} texts;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int load(const char *db, texts *t)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, "SELECT json FROM records ORDER BY id", -1, &st, NULL) != SQLITE_OK)
        return -1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (t->n == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 1024;
            t->s = bl_xrealloc(t->s, t->cap * sizeof *t->s);
            t->len = bl_xrealloc(t->len, t->cap * sizeof *t->len);
        }
        t->len[t->n] = (size_t)sqlite3_column_bytes(st, 0);
        t->s[t->n] = bl_xstrdup((const char *)sqlite3_column_text(st, 0));
        t->n++;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return 0;
}

/* µs per record of one pass; *fell counts the fast reader's NULLs */
static double pass(const texts *t, int fast, size_t *fell)
{
    double t0 = now();
    for (size_t i = 0; i < t->n; i++) {
        bl_record *r = fast ? bl_record_decode_fast(t->s[i], t->len[i])
                            : bl_record_from_json_dom(t->s[i], t->len[i], NULL, 0);
        if (!r && fast)
            (*fell)++;
        bl_record_free(r);
    }
    return (now() - t0) * 1e6 / (double)t->n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: record_decode STORE.db [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    texts t = {0};
    if (load(argv[1], &t) != 0 || !t.n) {
        fprintf(stderr, "record_decode: cannot read records from %s\n", argv[1]);
        return 1;
    }
    double best_dom = 1e9, best_fast = 1e9;
    size_t fell = 0;
    for (int r = 0; r < rounds; r++) {
        double d = pass(&t, 0, &fell);
        size_t f0 = fell;
        double f = pass(&t, 1, &fell);
        printf("round %d: jansson %.2f us/record, fast %.2f us/record (%zu fell back)\n", r + 1, d,
               f, fell - f0);
        best_dom = d < best_dom ? d : best_dom;
        best_fast = f < best_fast ? f : best_fast;
    }
    printf("%zu records: jansson %.2f, fast %.2f us/record (best of %d): %.1fx\n", t.n, best_dom,
           best_fast, rounds, best_dom / best_fast);
    for (size_t i = 0; i < t.n; i++)
        free(t.s[i]);
    free(t.s);
    free(t.len);
    return 0;
}
