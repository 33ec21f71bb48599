/* Shell completion (cli/cmd_completion.c, cli/complete.c): the bash script that
 * `benchlog completion bash` prints, run in bash with COMP_WORDS/COMP_CWORD set as bash
 * sets them, completes commands, option values (chart kinds, --metric names) and label
 * values and run IDs of a test store; the zsh script the same through zsh when it is there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../charts/chart.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DD "fixtures/dd/gnu-dd-9.1_c_write_read.txt"
#define CDM "fixtures/cdm/kdiskmark-3.2.0_handwritten.txt"

typedef struct fixture {
    char *dir;
    char bin[PATH_MAX];
} fixture;

static int write_file(const fixture *f, const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    FILE *w = fopen(path, "w");
    if (!w)
        return -1;
    fputs(text, w);
    return fclose(w);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = bl_test_tmpdir();
    if (!realpath(getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog", f->bin))
        return -1;
    char *out = NULL;
    if (bl_test_benchlogf(NULL, NULL, "--db %s/s.db import --label host=nas1 %s", f->dir, DD) ||
        bl_test_benchlogf(NULL, NULL, "--db %s/s.db import --label host=nas2 %s", f->dir, CDM) ||
        bl_test_benchlogf(&out, NULL, "completion bash") || !strstr(out, "complete -F _benchlog"))
        return -1;
    if (write_file(f, "benchlog.bash", out) != 0)
        return -1;
    free(out);
    if (bl_test_benchlogf(&out, NULL, "completion zsh") || write_file(f, "_benchlog", out) != 0)
        return -1;
    free(out);
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

/* COMPREPLY, one a line, after the bash function ran on words (a bash array's elements, the
 * last the word under the cursor), in the store's folder. */
static char *bash_complete(const fixture *f, const char *words)
{
    char script[PATH_MAX + 512];
    snprintf(script, sizeof script,
             "source ./benchlog.bash\n"
             "COMP_WORDS=(%s %s)\n"
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
             "_benchlog\n"
             "[ ${#COMPREPLY[@]} -eq 0 ] || printf '%%s\\n' \"${COMPREPLY[@]}\"\n",
             f->bin, words);
    assert_int_equal(write_file(f, "run.sh", script), 0);
    char cmd[PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "cd %s && BENCHLOG_DB=s.db bash --norc --noprofile run.sh", f->dir);
    int st;
    char *out = bl_test_sh(cmd, &st);
    assert_int_equal(st, 0);
    return out;
}

static void test_commands(void **state)
{
    fixture *f = *state;
    char *out = bash_complete(f, "re");
    assert_string_equal(out, "relabel\nreport\n");
    free(out);
    out = bash_complete(f, "c");
    assert_string_equal(out, "chart\ncompare\ncompletion\n");
    free(out);
    /* after global options too */
    out = bash_complete(f, "--db s.db -q ex");
    assert_string_equal(out, "export\n");
    free(out);
    out = bash_complete(f, "--no");
    assert_string_equal(out, "--no-color\n");
    free(out);
    /* a command's options, from its option table */
    out = bash_complete(f, "import --j");
    assert_string_equal(out, "--json\n");
    free(out);
}

static void test_option_values(void **state)
{
    fixture *f = *state;
    /* every chart kind, as chart.h names them */
    char *out = bash_complete(f, "chart --kind ''");
    bl_strbuf want;
    bl_strbuf_init(&want);
    for (int k = 0; k < BL_CHART_N_KINDS; k++)
        bl_strbuf_printf(&want, "%s\n", bl_chart_kind_name((bl_chart_kind)k));
    assert_string_equal(out, want.s);
    assert_non_null(strstr(out, "bar\n"));
    bl_strbuf_free(&want);
    free(out);
    out = bash_complete(f, "report --metric p");
    assert_string_equal(out, "p50\np99\np99.9\n");
    free(out);
    out = bash_complete(f, "import --as fio-j");
    assert_string_equal(out, "fio-json\n");
    free(out);
    /* --by: the store's label keys */
    out = bash_complete(f, "report --by h");
    assert_string_equal(out, "host\n");
    free(out);
    /* --color=WHEN, split at '=' as bash does */
    out = bash_complete(f, "list --color = n");
    assert_string_equal(out, "never\n");
    free(out);
}

static void test_store_words(void **state)
{
    fixture *f = *state;
    /* the word as typed, and as bash splits it at '=' (COMP_WORDBREAKS) */
    char *out = bash_complete(f, "report host=");
    assert_string_equal(out, "host=nas1\nhost=nas2\n");
    free(out);
    out = bash_complete(f, "report host = ''");
    assert_string_equal(out, "nas1\nnas2\n");
    free(out);
    out = bash_complete(f, "report host =");
    assert_string_equal(out, "=nas1\n=nas2\n");
    free(out);
    out = bash_complete(f, "report tool=K");
    assert_string_equal(out, "tool=KDiskMark\n");
    free(out);
    /* run IDs: the dd runs' are their content's */
    out = bash_complete(f, "show 311");
    assert_string_equal(out, "3110dc33\n");
    free(out);
    out = bash_complete(f, "list ho");
    assert_string_equal(out, "host=\n");
    free(out);
    /* the store named by --db, before or after the command */
    out = bash_complete(f, "--db nowhere.db report host=");
    assert_string_equal(out, "");
    free(out);
    out = bash_complete(f, "report --db s.db host=nas");
    assert_string_equal(out, "host=nas1\nhost=nas2\n");
    free(out);
    /* files where a command reads files */
    out = bash_complete(f, "import benchlog.b");
    assert_string_equal(out, "benchlog.bash\n");
    free(out);
}

static void test_helper_and_zsh(void **state)
{
    fixture *f = *state;
    char *out;
    /* the helper's own answer: candidates, then the directive (4: no space after KEY=) */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--db %s/s.db __complete list h", f->dir), 0);
    assert_string_equal(out, "host=\n:4\n");
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "__complete import ''"), 0);
    assert_string_equal(out, ":1\n");
    free(out);
    /* the hidden helper is not a command of the help */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "--help"), 0);
    assert_null(strstr(out, "__complete"));
    assert_non_null(strstr(out, "  completion "));
    free(out);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "completion fish"), 2);
    if (!bl_test_have("zsh"))
        bl_skip_because("zsh is not installed: its script is not run");
    char script[PATH_MAX + 512], cmd[PATH_MAX + 128];
    snprintf(script, sizeof script,
             "source ./_benchlog 2>/dev/null\n"
             "compadd() { local a; for a in \"$@\"; do [[ $a == -* || -z $a ]] || print -r -- $a; "
             "done }\n"
             "words=(%s report host=)\n"
             "CURRENT=3\n"
             "_benchlog\n",
             f->bin);
    assert_int_equal(write_file(f, "run.zsh", script), 0);
    snprintf(cmd, sizeof cmd, "cd %s && BENCHLOG_DB=s.db zsh -f run.zsh", f->dir);
    int st;
    out = bl_test_sh(cmd, &st);
    assert_int_equal(st, 0);
    assert_string_equal(out, "host=nas1\nhost=nas2\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_option_values),
        cmocka_unit_test(test_store_words),
        cmocka_unit_test(test_helper_and_zsh),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
