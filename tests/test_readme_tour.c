/* The README's "A tour" is a test: every command of its first code block runs, in order, in a
 * new folder holding fixtures/ and the two blog posts it names (from BENCHLOG_CORPUS; skipped
 * without it), and prints what the README shows. Whitespace aside: the README wraps long lines.
 * "..." stands for text left out (lines, or the end of a line); an ISO time stamp stands for any.
 * A command shown without output must succeed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct step {
    char *cmd;
    bl_strbuf want; /* the lines shown below it */
} step;

/* The commands of the tour's code block, with what each should print. */
static size_t tour(const char *readme, step **out)
{
    const char *p = strstr(readme, "\n## A tour\n");
    assert_non_null(p);
    p = strstr(p, "\n```\n");
    assert_non_null(p);
    p += 5;
    const char *end = strstr(p, "\n```\n");
    assert_non_null(end);
    size_t n = 0, cap = 0;
    step *s = NULL;
    while (p < end) {
        const char *eol = strchr(p, '\n');
        size_t len = (size_t)(eol - p);
        if (len > 2 && strncmp(p, "$ ", 2) == 0) {
            bl_grow((void **)&s, &cap, n + 1, sizeof *s);
            s[n].cmd = bl_xstrndup(p + 2, len - 2);
            bl_strbuf_init(&s[n].want);
            bl_strbuf_puts(&s[n].want, "");
            n++;
        } else if (n) {
            bl_strbuf_putn(&s[n - 1].want, p, len);
            bl_strbuf_putc(&s[n - 1].want, '\n');
        }
        p = eol + 1;
    }
    *out = s;
    return n;
}

static int stamp_at(const char *s)
{
    static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
    for (size_t i = 0; form[i]; i++)
        if (form[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != form[i])
            return 0;
    return 1;
}

/* s without whitespace, each time stamp as "@". */
static char *squeeze(const char *s)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "");
    while (*s) {
        if (stamp_at(s)) {
            bl_strbuf_putc(&sb, '@');
            s += 20;
        } else {
            if (!isspace((unsigned char)*s))
                bl_strbuf_putc(&sb, *s);
            s++;
        }
    }
    return bl_strbuf_take(&sb);
}

/* Whether s matches pattern p in which "..." stands for any text; the classic wildcard walk
 * that backs up to the last wildcard only, so linear in practice. */
static int matches(const char *p, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (strncmp(p, "...", 3) == 0) {
            while (strncmp(p, "...", 3) == 0)
                p += 3;
            star = p;
            resume = s;
        } else if (*p && *p == *s) {
            p++;
            s++;
        } else if (star) {
            p = star;
            s = ++resume;
        } else {
            return 0;
        }
    }
    while (strncmp(p, "...", 3) == 0)
        p += 3;
    return *p == '\0';
}

static void test_matcher(void **state)
{
    (void)state;
    assert_true(matches("a...c", "abbbc"));
    assert_true(matches("a...", "abc"));
    assert_true(matches("...c", "abc"));
    assert_true(matches("x,...,y", "x,...,y"));
    assert_false(matches("a...c", "abcd"));
    assert_false(matches("abc", "ab"));
    assert_false(matches("ab", "abc"));
    char *a = squeeze("run  2 (imported 2026-12-04T18:04:09Z)\n  x"),
         *b = squeeze("run 2 (imported\n 2027-01-31T00:00:00Z) x");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* A folder holding the files the tour names, and bin/benchlog. NULL without the corpus. */
static char *stage(void)
{
    char *blog1 = bl_test_corpus("blog/001_8562a4b6946fb1ec.txt");
    char *blog4 = bl_test_corpus("blog/004_8160137f383e9f6d.txt");
    if (!blog1 || !blog4) {
        free(blog1);
        free(blog4);
        return NULL;
    }
    char *dir = bl_test_tmpdir(), cwd[PATH_MAX], bin[PATH_MAX];
    const char *b = getenv("BENCHLOG_BIN");
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_non_null(realpath(b ? b : "build/benchlog", bin));
    int st;
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(
        &cmd,
        "mkdir %s/bin && ln -s '%s' %s/bin/benchlog && ln -s '%s/fixtures' %s/fixtures "
        "&& ln -s '%s' %s/old-blog-post.txt && ln -s '%s' %s/blog-004.txt",
        dir, bin, dir, cwd, dir, blog1, dir, blog4, dir);
    free(bl_test_sh(cmd.s, &st));
    assert_int_equal(st, 0);
    bl_strbuf_free(&cmd);
    free(blog1);
    free(blog4);
    return dir;
}

static void test_tour(void **state)
{
    (void)state;
    char *readme = bl_test_slurp("README.md");
    assert_non_null(readme);
    char *dir = stage();
    if (!dir) {
        free(readme);
        skip();
    }
    step *steps;
    size_t n = tour(readme, &steps);
    assert_true(n >= 40);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/step.sh", dir);
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%s\n", steps[i].cmd);
        fclose(f);
        bl_strbuf cmd;
        bl_strbuf_init(&cmd);
        bl_strbuf_printf(&cmd,
                         "cd %s && env -u BENCHLOG_DB PATH=\"%s/bin:$PATH\" COLUMNS=120 TZ=UTC "
                         "sh step.sh </dev/null 2>&1",
                         dir, dir);
        int st;
        char *got = bl_test_sh(cmd.s, &st);
        bl_strbuf_free(&cmd);
        char *w = squeeze(steps[i].want.s), *g = squeeze(got);
        int ok = *w ? matches(w, g) : st == 0;
        if (!ok) {
            failed++;
            printf("README tour: $ %s\n--- the README shows:\n%s--- it printed (status %d):\n%s\n",
                   steps[i].cmd, steps[i].want.s, st, got);
        }
        free(w);
        free(g);
        free(got);
    }
    for (size_t i = 0; i < n; i++) {
        free(steps[i].cmd);
        bl_strbuf_free(&steps[i].want);
    }
    free(steps);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
    free(dir);
    free(readme);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matcher),
        cmocka_unit_test(test_tour),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
