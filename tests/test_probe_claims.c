/* Detection never hands one tool's text to another: every fixture and corpus file goes to
 * every format's probe, and only the formats of the tool(s) that made it may claim it.
 * The folder says which tool made a file; a few files hold two tools' output and say so
 * in the table below. A new fixture folder without a rule fails the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/normalize.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Formats allowed to claim the files of a folder: names separated by spaces. */
typedef struct rule {
    const char *where; /* folder, or folder/file for a file of two tools */
    const char *allowed;
} rule;

static const rule rules[] = {
    /* fixtures/ */
    {"bonnie", "bonnie bonnie-csv bonnie-html"},
    {"cdm", "cdm"},
    {"dd", "dd"},
    {"fio", "fio fio-terse fio-json fio-log"},
    {"fio-client", "fio-client fio-json fio"},
    {"runner", "fio-json"},
    {"speed-table", "speed-table"},
    {"hdparm", "hdparm"},
    {"hdparm/hdparm-9.x_handwritten_beside_bonnie.txt", "hdparm bonnie"},
    {"iozone", "iozone"},
    {"sysbench", "sysbench"},
    {"diskspd", "diskspd"},
    /* ../shared/corpus */
    {"fio-json", "fio-json"},
    {"fio-log", "fio-log"},
    {"fio-normal", "fio"},
    {"fio-terse", "fio-terse fio"},
};

/* Folders that hold no tool output of their own (job files, fuzzing inputs, prose posts
 * that mix tools; blog posts have their own tests in test_blog.c), or output that only a
 * pattern file reads (test_patterns.c checks that no format of ours claims it). */
static const char *const skipped[] = {"fuzz", "jobs", "blog", "patterns"};

static const rule *rule_for(const char *dir, const char *file)
{
    char key[512];
    snprintf(key, sizeof key, "%s/%s", dir, file);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].where, key) == 0)
            return &rules[i];
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].where, dir) == 0)
            return &rules[i];
    return NULL;
}

static int allowed(const rule *r, const char *fmt)
{
    size_t n = strlen(fmt);
    for (const char *p = r->allowed; (p = strstr(p, fmt)); p += n)
        if ((p == r->allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

static int is_output_file(const char *name)
{
    static const char *const not_output[] = {".md", ".sh", ".fio", ".conf", ".pat"};
    if (name[0] == '.')
        return 0;
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof not_output / sizeof not_output[0]; i++) {
        size_t k = strlen(not_output[i]);
        if (n >= k && strcmp(name + n - k, not_output[i]) == 0)
            return 0;
    }
    return 1;
}

static int is_skipped(const char *dir)
{
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        if (strcmp(skipped[i], dir) == 0)
            return 1;
    return 0;
}

/* Probes one file; appends a line to bad for each wrong claim or a file nobody claims. */
static void check_file(const char *path, const char *dir, const char *file, bl_strbuf *bad,
                       size_t *checked)
{
    const rule *r = rule_for(dir, file);
    if (!r) {
        bl_strbuf_printf(bad, "%s: no rule for folder '%s'\n", path, dir);
        return;
    }
    char err[256];
    bl_text t;
    if (bl_text_load(&t, path, err, sizeof err) != 0) {
        bl_strbuf_printf(bad, "%s: %s\n", path, err);
        return;
    }
    if (t.len == 0) { /* an empty log (fio's slat log of psync): nothing to claim */
        bl_text_free(&t);
        return;
    }
    /* the driver probes the text as pasted and as normalised (quotes, comment marks gone):
     * both readings are held to the rule */
    bl_text norm;
    long *map = NULL;
    int has_norm = bl_text_normalize(&t, 0, &norm, &map, NULL);
    int mine = 0;
    for (size_t f = 0; f < bl_format_count(); f++) {
        const bl_format *fmt = bl_format_at(f);
        if (fmt->probe(&t) <= 0 && !(has_norm && fmt->probe(&norm) > 0))
            continue;
        if (allowed(r, fmt->name))
            mine = 1;
        else
            bl_strbuf_printf(bad, "%s: claimed by %s (allowed: %s)\n", path, fmt->name, r->allowed);
    }
    if (has_norm) {
        bl_text_free(&norm);
        free(map);
    }
    if (!mine)
        bl_strbuf_printf(bad, "%s: claimed by none of %s\n", path, r->allowed);
    bl_text_free(&t);
    (*checked)++;
}

static void check_tree(const char *root, bl_strbuf *bad, size_t *checked)
{
    DIR *d = opendir(root);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || is_skipped(e->d_name))
            continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", root, e->d_name);
        struct stat st;
        if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        DIR *fd = opendir(sub);
        assert_non_null(fd);
        struct dirent *f;
        while ((f = readdir(fd))) {
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
            if (!is_output_file(f->d_name) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            check_file(path, e->d_name, f->d_name, bad, checked);
        }
        closedir(fd);
    }
    closedir(d);
}

static void test_fixtures(void **state)
{
    (void)state;
    bl_strbuf bad;
    bl_strbuf_init(&bad);
    size_t checked = 0;
    check_tree("fixtures", &bad, &checked);
    if (bad.len)
        fail_msg("wrong claims:\n%s", bad.s);
    assert_true(checked >= 40);
    bl_strbuf_free(&bad);
}

static void test_corpus(void **state)
{
    (void)state;
    char *root = bl_test_corpus(".");
    if (!root)
        skip(); /* no corpus here: the claims are checked on it where it exists */
    bl_strbuf bad;
    bl_strbuf_init(&bad);
    size_t checked = 0;
    check_tree(root, &bad, &checked);
    if (bad.len)
        fail_msg("wrong claims:\n%s", bad.s);
    assert_true(checked >= 40);
    bl_strbuf_free(&bad);
    free(root);
}

/* Texts that look alike across tools, each with the one format that may claim it. */
static void test_lookalikes(void **state)
{
    (void)state;
    static const struct {
        const char *text, *only;
    } cases[] = {
        {" Timing buffered disk reads: 440 MB in  3.01 seconds = 146.42 MB/sec\n", "hdparm"},
        {"1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s\n", "dd"},
        {"           kB  reclen    write  rewrite    read    reread\n"
         "    1024000    1024   258830   270261   341979   344249\n",
         "iozone"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[128];
        bl_text t;
        assert_int_equal(
            bl_text_from_bytes(&t, "x", cases[i].text, strlen(cases[i].text), err, sizeof err), 0);
        for (size_t f = 0; f < bl_format_count(); f++) {
            const bl_format *fmt = bl_format_at(f);
            int claims = fmt->probe(&t) > 0;
            if (claims != (strcmp(fmt->name, cases[i].only) == 0))
                fail_msg("case %zu: %s %s it", i, fmt->name, claims ? "claims" : "does not claim");
        }
        bl_text_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_lookalikes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
