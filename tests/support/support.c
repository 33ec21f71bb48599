#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support.h"
#include "../../core/strbuf.h"
#include "../../parsers/driver.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *bl_test_corpus(const char *rel)
{
    const char *root = getenv("BENCHLOG_CORPUS");
    if (!root || !*root) {
        printf("[  SKIP    ] no corpus: BENCHLOG_CORPUS is not set (%s)\n", rel);
        return NULL;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/%s", root, rel);
    struct stat st;
    if (stat(sb.s, &st) != 0) {
        printf("[  SKIP    ] corpus file absent: %s\n", sb.s);
        bl_strbuf_free(&sb);
        return NULL;
    }
    return bl_strbuf_take(&sb);
}

char *bl_test_slurp_n(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "");
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        bl_strbuf_putn(&sb, buf, n);
    fclose(f);
    if (len)
        *len = sb.len;
    return bl_strbuf_take(&sb);
}

char *bl_test_slurp(const char *path)
{
    return bl_test_slurp_n(path, NULL);
}

char *bl_test_sh(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p) {
        if (status)
            *status = -1;
        return bl_xstrdup("");
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "");
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        bl_strbuf_putn(&sb, buf, n);
    int st = pclose(p);
    if (status)
        *status = st;
    return bl_strbuf_take(&sb);
}

int bl_test_have(const char *program)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "command -v '%s' >/dev/null 2>&1", program);
    int ok = system(sb.s) == 0;
    bl_strbuf_free(&sb);
    return ok;
}

const char *bl_test_fixture(const char *rel, char *buf, size_t n)
{
    snprintf(buf, n, "fixtures/%s", rel);
    return buf;
}

/* The folders this program made, removed when it exits (only by the process that made them:
 * a forked child's exit must not take its parent's files away). Test-support state, like a
 * fixture's. */
static struct {
    char **dirs;
    size_t n;
    pid_t owner;
} made;

static void remove_made_dirs(void)
{
    if (getpid() != made.owner || made.n == 0)
        return;
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_puts(&cmd, "rm -rf");
    for (size_t i = 0; i < made.n; i++) {
        bl_strbuf_printf(&cmd, " '%s'", made.dirs[i]);
        free(made.dirs[i]);
    }
    if (system(cmd.s) != 0)
        fprintf(stderr, "could not remove the test's folders: %s\n", cmd.s);
    bl_strbuf_free(&cmd);
    free(made.dirs);
    made.dirs = NULL;
    made.n = 0;
}

/* A folder of one command's output, removed by the caller. */
static char *private_tmpdir(void)
{
    char tmpl[] = "/tmp/benchlog-test-XXXXXX";
    if (!mkdtemp(tmpl))
        abort();
    return bl_xstrdup(tmpl);
}

char *bl_test_tmpdir(void)
{
    char *dir = private_tmpdir();
    if (made.owner != getpid()) {
        made.owner = getpid();
        made.n = 0;
        made.dirs = NULL;
        atexit(remove_made_dirs);
    }
    made.dirs = bl_xrealloc(made.dirs, (made.n + 1) * sizeof *made.dirs);
    made.dirs[made.n++] = bl_xstrdup(dir);
    return dir;
}

/* A file's text, "" when it cannot be read (a command that wrote nothing). */
static char *slurp(const char *path)
{
    char *s = bl_test_slurp(path);
    return s ? s : bl_xstrdup("");
}

int bl_test_benchlogf(char **out, char **err, const char *fmt, ...)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    int rc = bl_test_benchlog(sb.s, out, err);
    bl_strbuf_free(&sb);
    return rc;
}

size_t bl_test_count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int bl_test_benchlog(const char *args, char **out, char **err)
{
    const char *bin = getenv("BENCHLOG_BIN");
    if (!bin)
        bin = "build/benchlog";
    char *dir = private_tmpdir();
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    /* Under `make valgrind` the program itself runs under valgrind too; a leak fails it. */
    if (getenv("BENCHLOG_VALGRIND"))
        bl_strbuf_puts(&cmd, "valgrind -q --suppressions=tests/valgrind.supp --leak-check=full "
                             "--errors-for-leak-kinds=definite,indirect "
                             "--error-exitcode=99 ");
    bl_strbuf_printf(&cmd, "%s </dev/null %s >%s/out 2>%s/err", bin, args, dir, dir);
    int st = system(cmd.s);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    bl_strbuf_reset(&cmd);
    bl_strbuf_printf(&cmd, "%s/out", dir);
    if (out)
        *out = slurp(cmd.s);
    unlink(cmd.s);
    bl_strbuf_reset(&cmd);
    bl_strbuf_printf(&cmd, "%s/err", dir);
    if (err)
        *err = slurp(cmd.s);
    unlink(cmd.s);
    rmdir(dir);
    bl_strbuf_free(&cmd);
    free(dir);
    return rc;
}

int bl_test_parse(const char *path, const char *as, bl_parse_out *out)
{
    bl_parse_opts opts = {.as = as};
    bl_out_init(out, path);
    return bl_parse_source(path, &opts, out, NULL);
}

int bl_test_parse_text(const char *name, const char *text, const char *as, bl_parse_out *out)
{
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, name, text, strlen(text), err, sizeof err), 0);
    bl_out_init(out, name);
    bl_parse_opts opts = {.as = as};
    int rc = bl_parse_text(&t, &opts, out);
    bl_text_free(&t);
    return rc;
}

static int matches(const bl_record *r, const char *key, const char *value)
{
    if (!key)
        return 1;
    const char *v = bl_record_label(r, key);
    return v && value && strcmp(v, value) == 0;
}

size_t bl_test_count(const bl_parse_out *o, const char *key, const char *value)
{
    size_t n = 0;
    for (size_t i = 0; i < o->recs.n; i++)
        n += matches(o->recs.v[i], key, value);
    return n;
}

const bl_record *bl_test_nth(const bl_parse_out *o, const char *key, const char *value, size_t i)
{
    for (size_t k = 0; k < o->recs.n; k++)
        if (matches(o->recs.v[k], key, value) && i-- == 0)
            return o->recs.v[k];
    return NULL;
}

int bl_test_close(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b) + 1e-12;
}

void bl_test_assert_near(double actual, double expected, double eps, const char *what,
                         const char *file, int line)
{
    if (fabs(actual - expected) <= eps || (isnan(actual) && isnan(expected)))
        return;
    print_error("%s:%d: %s is %.17g, expected %.17g (within %g)\n", file, line, what, actual,
                expected, eps);
    _fail(file, line);
}

#if defined(__SANITIZE_ADDRESS__)
#define BL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BL_ASAN 1
#endif
#endif
#ifndef BL_ASAN
#define BL_ASAN 0
#endif

int bl_test_under_asan(void)
{
    return BL_ASAN;
}

int bl_test_memory_measurable(void)
{
    return !BL_ASAN && !getenv("BENCHLOG_VALGRIND");
}

long bl_test_peak_kib_of(const char *cmd, int *status)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    assert_int_equal(wait4(pid, &st, 0, &ru), pid);
    if (status)
        *status = st;
    else
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return ru.ru_maxrss;
}

int bl_test_sqlite_exec(const char *db, const char *sql)
{
    sqlite3 *h = NULL;
    char *msg = NULL;
    int rc = sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fprintf(stderr, "%s: %s\n", db, msg ? msg : sqlite3_errmsg(h));
    sqlite3_free(msg);
    sqlite3_close(h);
    return rc == SQLITE_OK ? 0 : -1;
}

int bl_test_store_v5(const char *db, const char *db5)
{
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&cmd, "cp '%s' '%s'", db, db5);
    int rc = system(cmd.s) == 0 ? 0 : -1;
    bl_strbuf_free(&cmd);
    if (rc != 0)
        return -1;
    return bl_test_sqlite_exec(db5, "DROP INDEX records_lean; "
                                    "ALTER TABLE records DROP COLUMN when_at; "
                                    "PRAGMA user_version = 5;");
}

int bl_test_store_v4(const char *db, const char *db4)
{
    if (bl_test_store_v5(db, db4) != 0)
        return -1;
    return bl_test_sqlite_exec(db4, "DROP INDEX records_fold; DROP TABLE shapes; "
                                    "ALTER TABLE records DROP COLUMN shape_id; "
                                    "ALTER TABLE records DROP COLUMN f_bw; "
                                    "ALTER TABLE records DROP COLUMN f_iops; "
                                    "ALTER TABLE records DROP COLUMN f_lat; "
                                    "ALTER TABLE records DROP COLUMN f_p50; "
                                    "ALTER TABLE records DROP COLUMN f_p99; "
                                    "ALTER TABLE records DROP COLUMN f_p999; "
                                    "ALTER TABLE records DROP COLUMN f_value; "
                                    "ALTER TABLE records DROP COLUMN f_cpu; "
                                    "ALTER TABLE records DROP COLUMN f_flags; "
                                    "PRAGMA user_version = 4;");
}

int bl_test_import_all(const char *bin, const char *db)
{
    char *corpus = bl_test_corpus(".");
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&cmd,
                     "find fixtures %s -type f ! -name 'README*' -print0 | sort -z | "
                     "xargs -0 %s import -q --db %s >/dev/null 2>&1; echo done",
                     corpus ? corpus : "", bin, db);
    free(bl_test_sh(cmd.s, NULL));
    bl_strbuf_free(&cmd);
    int with_corpus = corpus != NULL;
    free(corpus);
    return with_corpus;
}
