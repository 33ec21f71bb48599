#include "global.h"
#include "../core/strbuf.h"
#include "args.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int set_color(void *unused, const char *when, char *err, size_t errlen)
{
    (void)unused;
    if (!when)
        when = "always";
    if (strcmp(when, "always") && strcmp(when, "never") && strcmp(when, "auto")) {
        snprintf(err, errlen, "--color wants always, never or auto, not '%s'", when);
        return -1;
    }
    setenv("BENCHLOG_COLOR", when, 1);
    return 0;
}

static int set_no_color(void *unused, const char *arg, char *err, size_t errlen)
{
    (void)arg;
    return set_color(unused, "never", err, errlen);
}

static int set_quiet(void *unused, const char *arg, char *err, size_t errlen)
{
    (void)unused, (void)arg, (void)err, (void)errlen;
    setenv("BENCHLOG_QUIET", "1", 1);
    return 0;
}

static int set_db(void *unused, const char *db, char *err, size_t errlen)
{
    (void)unused;
    if (!*db) {
        snprintf(err, errlen, "--db wants a file name");
        return -1;
    }
    setenv("BENCHLOG_DB", db, 1);
    return 0;
}

static int set_dir(void *unused, const char *dir, char *err, size_t errlen)
{
    (void)unused;
    if (chdir(dir) == 0)
        return 0;
    snprintf(err, errlen, "cannot change to '%s': %s", dir, strerror(errno));
    return -1;
}

#define OPT_COLOR                                                                                  \
    BL_OPT_FN_OPT(0, "color", NULL, "WHEN",                                                        \
                  "colour: always, never or auto (default: on a terminal)", set_color)
#define OPT_NO_COLOR BL_OPT_FN(0, "no-color", NULL, NULL, "no colour (as $NO_COLOR)", set_no_color)
#define OPT_QUIET                                                                                  \
    BL_OPT_FN('q', "quiet", NULL, NULL,                                                            \
              "errors only: no warnings or notes, no confirmation lines", set_quiet)

const bl_option bl_global_after[] = {OPT_COLOR, OPT_NO_COLOR, OPT_QUIET, BL_OPT_END()};

const bl_option bl_global_before[] = {
    BL_OPT_FN(0, "db", NULL, "FILE", "the store, for the command ($BENCHLOG_DB)", set_db),
    BL_OPT_FN('C', NULL, NULL, "DIR", "run as if started in DIR (as git -C)", set_dir),
    OPT_COLOR,
    OPT_NO_COLOR,
    OPT_QUIET,
    BL_OPT_END(),
};

int bl_global_options(int argc, char **argv, int *status)
{
    /* The option layer reads every option up to the command's name: a copy of argv up to
     * the first operand, so that the command's own options are left to it. */
    int end = 1;
    for (; end < argc; end++) {
        const char *a = argv[end];
        if (a[0] != '-' || a[1] == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
            strcmp(a, "--version") == 0)
            break;
        /* an option's separate value is not the command */
        if ((strcmp(a, "--db") == 0 || strcmp(a, "-C") == 0) && end + 1 < argc)
            end++;
    }
    const bl_command_help h = {"", "", NULL, NULL, 0};
    char **copy = bl_xcalloc((size_t)end + 1, sizeof *copy);
    for (int i = 0; i < end; i++)
        copy[i] = argv[i];
    int n = bl_options_parse(&h, bl_global_before, end, copy);
    free(copy);
    if (n < 0) {
        *status = 2;
        return -1;
    }
    return end;
}

int bl_quiet(void)
{
    const char *q = getenv("BENCHLOG_QUIET");
    return q && *q && strcmp(q, "0") != 0;
}

int bl_color(FILE *f)
{
    const char *when = getenv("BENCHLOG_COLOR"), *no = getenv("NO_COLOR"), *term = getenv("TERM");
    if (when && strcmp(when, "always") == 0)
        return 1;
    if ((when && strcmp(when, "never") == 0) || (no && *no))
        return 0;
    return isatty(fileno(f)) && !(term && strcmp(term, "dumb") == 0);
}

void bl_global_help(FILE *f)
{
    fprintf(f, "\nGlobal options (before the command):\n");
    for (const bl_option *o = bl_global_before; o->type != BL_OPT_END_; o++) {
        char left[64];
        bl_option_left(left, sizeof left, o);
        fprintf(f, "  %-18s %s\n", left, o->help);
    }
}
