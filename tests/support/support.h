/* Helpers shared by the cmocka test programs. Include after <cmocka.h>'s prerequisites. */
#ifndef BL_TEST_SUPPORT_H
#define BL_TEST_SUPPORT_H

#include "../../parsers/parser.h"
#include <stddef.h>

/* Absolute path of a file in ../shared/corpus (BENCHLOG_CORPUS), or NULL when the corpus or
 * the file is absent (it prints why; the caller then skip()s). Caller frees. */
char *bl_test_corpus(const char *rel);
/* skip() saying why on the test's output: a skipped test names the tool, service or name
 * resolution it lacked, so a run that skips is never mistaken for one that passed. */
#define bl_skip_because(why)                                                                       \
    do {                                                                                           \
        printf("[  SKIP    ] %s\n", (why));                                                        \
        skip();                                                                                    \
    } while (0)

/* Path of a file in fixtures/, relative to the repository root where tests run. */
const char *bl_test_fixture(const char *rel, char *buf, size_t n);
/* The whole of a file as a string ("" when empty), or NULL when it cannot be opened.
 * Caller frees. */
char *bl_test_slurp(const char *path);
/* The same, with its length, for files that may hold NUL bytes. */
char *bl_test_slurp_n(const char *path, size_t *len);
/* The standard output of a shell command ("" when none); its wait status in *status when
 * status is not NULL. Caller frees. */
char *bl_test_sh(const char *cmd, int *status);
/* Whether a program is on PATH (the tests that need LibreOffice, poppler, xmllint...). */
int bl_test_have(const char *program);
/* A new empty temporary folder, removed with what it holds when the program exits; the caller
 * frees the string. */
char *bl_test_tmpdir(void);

/* Whether this build runs under AddressSanitizer (its shadow and quarantine are not the
 * program's memory). */
int bl_test_under_asan(void);
/* Whether memory figures are the program's own: neither ASan nor valgrind
 * (BENCHLOG_VALGRIND). Memory bounds are asserted only then. */
int bl_test_memory_measurable(void);
/* Peak resident memory (KiB) of one shell command and what it starts: wait4's rusage of that
 * child. *status gets its wait status; with status NULL it must exit 0. */
long bl_test_peak_kib_of(const char *cmd, int *status);

/* Runs `benchlog ARGS` (BENCHLOG_BIN) through the shell with stdin from /dev/null; returns
 * its exit status and, when out/err are not NULL, its stdout and stderr (caller frees). */
int bl_test_benchlog(const char *args, char **out, char **err);
/* The same with ARGS formatted as printf does. */
int bl_test_benchlogf(char **out, char **err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Runs sql on the SQLite file db through libsqlite3 (a fresh root has no sqlite3 shell);
 * 0, else -1 with SQLite's message on stderr. */
int bl_test_sqlite_exec(const char *db, const char *sql);
/* Copies the store db (of this schema) to db5 and takes the copy back to schema 5, a store
 * made before the time column (when_at, records_lean); 0 or -1. */
int bl_test_store_v5(const char *db, const char *db5);
/* The same back to schema 4, a store made before the fold columns (core/fold.h). */
int bl_test_store_v4(const char *db, const char *db4);
/* Imports every file of fixtures/ and of the corpus (when BENCHLOG_CORPUS names one that is
 * there), in name order, into the store db with the benchlog at bin; files refused in part
 * are part of them, so the import's status is not checked. Returns whether the corpus was in. */
int bl_test_import_all(const char *bin, const char *db);
/* The number of newline characters in s. */
size_t bl_test_count_lines(const char *s);

/* Parses a file as `benchlog parse` does (format "auto" when as is NULL); returns the
 * driver's status. out must be freed with bl_out_free. */
int bl_test_parse(const char *path, const char *as, bl_parse_out *out);
/* The same for text given inline, named `name` in records and messages. */
int bl_test_parse_text(const char *name, const char *text, const char *as, bl_parse_out *out);
/* The records whose label key has value (or all when key is NULL), in order. */
size_t bl_test_count(const bl_parse_out *o, const char *key, const char *value);
const bl_record *bl_test_nth(const bl_parse_out *o, const char *key, const char *value, size_t i);

/* Relative comparison for figures converted from text: |a-b| <= rel*|b|. */
int bl_test_close(double a, double b, double rel);

/* cmocka 1.1 has no double assertion: |actual - expected| <= eps, both printed on failure. */
#define assert_double_equal(actual, expected, eps)                                                 \
    bl_test_assert_near((double)(actual), (double)(expected), (double)(eps), #actual, __FILE__,    \
                        __LINE__)
void bl_test_assert_near(double actual, double expected, double eps, const char *what,
                         const char *file, int line);

#endif
