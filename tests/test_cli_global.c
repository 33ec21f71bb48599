/* The command line as fingers expect it (cli/global.c, cli/main.c): global options before
 * the command (--db, -C DIR, --color, -q) give what the command's own give, the command's
 * own winning; results on stdout, diagnostics on stderr; colour only when asked or on a
 * terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/support.h"
#include <jansson.h>
#include <limits.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DD "fixtures/dd/gnu-dd-9.1_c_write_read.txt"
#define CDM "fixtures/cdm/kdiskmark-3.2.0_handwritten.txt"
/* dd's two runs: their IDs are the content's, the same in every store */
#define DD_WRITE "3110dc33"
#define DD_READ "98f15f3a"

typedef struct fixture {
    char *dir;
    char db[PATH_MAX + 16];
    char dd[PATH_MAX];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = bl_test_tmpdir();
    snprintf(f->db, sizeof f->db, "%s/s.db", f->dir);
    if (!realpath(DD, f->dd))
        return -1;
    if (bl_test_benchlogf(NULL, NULL, "import --db %s --label host=nas1 %s", f->db, DD) != 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    int rc = system(cmd);
    free(f->dir);
    free(f);
    return rc;
}

/* `benchlog --db F CMD` and `benchlog CMD --db F` give the same output, byte for byte. */
static void same_both_ways(const fixture *f, const char *cmd)
{
    char *before, *after;
    assert_int_equal(bl_test_benchlogf(&before, NULL, "--db %s %s", f->db, cmd), 0);
    assert_int_equal(bl_test_benchlogf(&after, NULL, "%s --db %s", cmd, f->db), 0);
    assert_true(strlen(before) > 0);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

static void test_global_db(void **state)
{
    fixture *f = *state;
    char *out, *err;
    same_both_ways(f, "list");
    same_both_ways(f, "export " DD_READ);
    same_both_ways(f, "report --csv");
    same_both_ways(f, "show " DD_READ);
    /* the figures themselves: dd read 67108864 bytes in 0.0146754 s */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s export %s", f->db, DD_READ), 0);
    assert_non_null(strstr(out, "\"io_bytes\":67108864"));
    assert_non_null(strstr(out, "\"runtime_s\":0.0146754"));
    free(out);
    /* in both places: the command's own wins, whatever $BENCHLOG_DB says */
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s/none.db list --db %s", f->dir, f->db),
                     0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "--db %s/none.db list", f->dir), 1);
    assert_non_null(strstr(err, "none.db: no store there"));
    free(err);
    /* the global one wins over $BENCHLOG_DB */
    setenv("BENCHLOG_DB", "/nonexistent/x.db", 1);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s list", f->db), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    unsetenv("BENCHLOG_DB");
    /* --db=FILE too */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db=%s list", f->db), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    /* the help says which wins */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --help"), 0);
    assert_non_null(strstr(out, "the command's own wins"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--help"), 0);
    assert_non_null(strstr(out, "Usage: benchlog [GLOBAL OPTIONS] COMMAND"));
    assert_non_null(strstr(out, "  -C DIR "));
    free(out);
}

static void test_dash_c(void **state)
{
    fixture *f = *state;
    char *out, *err;
    /* -C DIR: benchlog.db and relative paths are DIR's, as git -C reads them */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C %s import %s", f->dir, f->dd), 0);
    assert_non_null(strstr(out, "imported 2 records in 2 runs: " DD_WRITE " " DD_READ));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C %s list", f->dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C / -C %s --db s.db list host=nas1", f->dir),
                     0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-C%s list --db s.db", f->dir), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/benchlog.db", f->dir);
    assert_int_equal(remove(path), 0);
    /* a folder that is not there: a usage error, nothing done */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "-C %s/nowhere list", f->dir), 2);
    assert_non_null(strstr(err, "cannot change to"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "--bogus list"), 2);
    assert_non_null(strstr(err, "benchlog: unknown option '--bogus'"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "--db"), 2);
    free(err);
}

/* import's result on stdout, one line a file with its run IDs; diagnostics on stderr. */
static void test_import_stdout(void **state)
{
    fixture *f = *state;
    char *out, *err, path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/f", f->dir);
    /* `import ... > f` holds the run IDs */
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "%s --db %s/o.db import %s %s > %s 2>%s.err", bin, f->dir, DD, CDM,
             path, path);
    int st;
    free(bl_test_sh(cmd, &st));
    assert_int_equal(st, 0);
    strcat(path, ".err");
    err = bl_test_slurp(path);
    assert_string_equal(err, "");
    free(err);
    path[strlen(path) - 4] = 0;
    out = bl_test_slurp(path);
    assert_string_equal(out, DD ": imported 2 records in 2 runs: " DD_WRITE " " DD_READ "\n" CDM
                                ": imported 8 records in 1 run: 33b60c76\n");
    free(out);
    /* each ID is a run of the store: the CDM run holds its 8 records */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s/o.db export 33b60c76", f->dir), 0);
    assert_int_equal(bl_test_count_lines(out), 8);
    free(out);
    /* again: skipped, the stored runs said, on stdout too */
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s/o.db import %s", f->dir, DD), 0);
    assert_string_equal(out, DD ": already in the store (same content, runs " DD_WRITE " " DD_READ
                                "): skipped\n");
    assert_string_equal(err, "");
    free(out);
    free(err);
    /* --json: the same as JSON Lines */
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s/o.db import --json %s %s /dev/null",
                                       f->dir, DD, CDM),
                     1);
    assert_int_equal(bl_test_count_lines(out), 3);
    json_error_t je;
    json_t *o = json_loads(out, JSON_DISABLE_EOF_CHECK, &je);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "source")), DD);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "skipped");
    assert_int_equal(json_integer_value(json_object_get(o, "records")), 2);
    json_t *runs = json_object_get(o, "runs");
    assert_int_equal(json_array_size(runs), 2);
    assert_string_equal(json_string_value(json_array_get(runs, 0)), DD_WRITE);
    assert_string_equal(json_string_value(json_array_get(runs, 1)), DD_READ);
    json_decref(o);
    assert_non_null(strstr(out, "{\"source\":\"/dev/null\",\"status\":\"refused\",\"records\":0,"
                                "\"runs\":[]}\n"));
    assert_non_null(strstr(err, "/dev/null"));
    free(out);
    free(err);
    /* one record in one run: singular */
    char one[PATH_MAX + 32];
    snprintf(one, sizeof one, "%s/one.txt", f->dir);
    FILE *w = fopen(one, "w");
    assert_non_null(w);
    fputs("67108864 bytes (67 MB, 64 MiB) copied, 0.0146754 s, 4.6 GB/s\n", w);
    fclose(w);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s/o.db import %s", f->dir, one), 0);
    assert_non_null(strstr(out, ": imported 1 record in 1 run: "));
    free(out);
}

/* -q: errors only. A log of averaged windows warns (status 0); -q keeps it quiet. */
static void test_quiet(void **state)
{
    fixture *f = *state;
    char *out, *err;
    const char *log = "fixtures/fio/log-avg_clat.1.log";
    assert_int_equal(bl_test_benchlogf(&out, &err, "--db %s/q.db import %s", f->dir, log), 0);
    assert_non_null(strstr(err, "warning: fio log written with log_avg_msec"));
    assert_non_null(strstr(out, "imported "));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, &err, "-q --db %s/q2.db import %s", f->dir, log), 0);
    assert_string_equal(out, "");
    assert_string_equal(err, "");
    free(out);
    free(err);
    /* after the command too; errors stay */
    assert_int_equal(
        bl_test_benchlogf(&out, &err, "import --db %s/q3.db %s /dev/null -q", f->dir, log), 1);
    assert_string_equal(out, "");
    assert_null(strstr(err, "warning"));
    assert_non_null(strstr(err, "/dev/null: "));
    free(out);
    free(err);
    /* quiet keeps what the command is for: list's runs */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "-q --db %s/q2.db list", f->dir), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "log-avg_clat.1.log:1  fio  2 records"));
    free(out);
}

/* Runs benchlog with argv on a terminal (a pty); returns what it wrote there (caller
 * frees). no_color: $NO_COLOR set in its environment. */
static char *on_tty(char *const argv[], int no_color)
{
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    if (pid == 0) {
        const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
        if (no_color)
            setenv("NO_COLOR", "1", 1);
        else
            unsetenv("NO_COLOR");
        unsetenv("BENCHLOG_COLOR");
        setenv("TERM", "xterm", 1);
        execv(bin, argv);
        _exit(127);
    }
    size_t got = 0, cap = 1 << 16;
    char *seen = calloc(1, cap);
    ssize_t r;
    while (got + 1 < cap && (r = read(fd, seen + got, cap - 1 - got)) > 0)
        got += (size_t)r;
    int st;
    waitpid(pid, &st, 0);
    close(fd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return seen;
}

/* A set-up that doubles dd's rate over three repeats each: outside the 95% CI. */
static void two_hosts(const fixture *f, char *db, size_t n)
{
    snprintf(db, n, "%s/c.db", f->dir);
    static const char *const text[2] = {
        "67108864 bytes (67 MB, 64 MiB) copied, 0.50 s, 134 MB/s\n"
        "67108864 bytes (67 MB, 64 MiB) copied, 0.51 s, 132 MB/s\n"
        "67108864 bytes (67 MB, 64 MiB) copied, 0.49 s, 137 MB/s\n",
        "67108864 bytes (67 MB, 64 MiB) copied, 0.25 s, 268 MB/s\n"
        "67108864 bytes (67 MB, 64 MiB) copied, 0.26 s, 258 MB/s\n"
        "67108864 bytes (67 MB, 64 MiB) copied, 0.24 s, 280 MB/s\n"};
    for (int i = 0; i < 2; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/host%c.txt", f->dir, 'a' + i);
        FILE *w = fopen(path, "w");
        assert_non_null(w);
        fputs(text[i], w);
        fclose(w);
        assert_int_equal(
            bl_test_benchlogf(NULL, NULL, "--db %s import --label host=%c %s", db, 'a' + i, path),
            0);
    }
}

static void test_colour(void **state)
{
    fixture *f = *state;
    char db[PATH_MAX + 16], *out;
    two_hosts(f, db, sizeof db);
    /* forced: the faster side is better (green), the other way round worse (red) */
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "--color=always --db %s compare host=a host=b", db), 0);
    assert_non_null(strstr(out, "\033[32mseq-copy Q1T1 bw  134.3 MB/s"));
    assert_non_null(strstr(out, "+100.2%  yes\033[m\n"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s compare host=b host=a --color", db), 0);
    assert_non_null(strstr(out, "\033[31mseq-copy Q1T1 bw  268.7 MB/s"));
    assert_non_null(strstr(out, "-50.0%  yes\033[m\n"));
    free(out);
    /* a file or a pipe: plain, whatever the rest */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s compare host=b host=a", db), 0);
    assert_null(strchr(out, '\033'));
    assert_non_null(strstr(out, "\nseq-copy Q1T1 bw  268.7 MB/s"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--color=never --db %s list", db), 0);
    assert_null(strchr(out, '\033'));
    free(out);
    /* on a terminal: coloured; not with $NO_COLOR or --no-color; --color=always wins */
    char *list[] = {"benchlog", "--db", db, "list", "host=a", NULL};
    out = on_tty(list, 0);
    assert_non_null(strstr(out, "\033[33m"));
    assert_int_equal((int)(strstr(out, "\033[m") - strstr(out, "\033[33m")), 5 + 8); /* the ID */
    free(out);
    out = on_tty(list, 1);
    assert_null(strchr(out, '\033'));
    assert_non_null(strstr(out, "  dd  1 record  host=a"));
    free(out);
    char *never[] = {"benchlog", "--no-color", "--db", db, "list", NULL};
    out = on_tty(never, 0);
    assert_null(strchr(out, '\033'));
    free(out);
    char *always[] = {"benchlog", "--db",           db,  "compare", "host=a",
                      "host=b",   "--color=always", NULL};
    out = on_tty(always, 1);
    assert_non_null(strstr(out, "\033[32mseq-copy"));
    free(out);
    char *tty_compare[] = {"benchlog", "--db", db, "compare", "host=b", "host=a", NULL};
    out = on_tty(tty_compare, 0);
    assert_non_null(strstr(out, "\033[31mseq-copy"));
    free(out);
    /* a bad WHEN is a usage error */
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "--color=sometimes --db %s list", db), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_db),     cmocka_unit_test(test_dash_c),
        cmocka_unit_test(test_import_stdout), cmocka_unit_test(test_quiet),
        cmocka_unit_test(test_colour),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
