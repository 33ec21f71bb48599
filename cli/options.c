#include "options.h"
#include "args.h"
#include "global.h"
#include <stdio.h>
#include <string.h>

int bl_opt_label(void *labels, const char *arg, char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        snprintf(err, errlen, "--label wants KEY=VALUE, not '%s'", arg);
        return -1;
    }
    return bl_labels_add(labels, arg);
}

/* The option named by a long name or an unambiguous prefix of one; sets *ambiguous. */
static const bl_option *find_long(const bl_option *opts, const char *name, size_t len,
                                  int *ambiguous)
{
    const bl_option *prefix = NULL;
    int n_prefix = 0;
    *ambiguous = 0;
    for (const bl_option *o = opts; o->type != BL_OPT_END_; o++) {
        if (!o->long_name || strncmp(o->long_name, name, len) != 0)
            continue;
        if (o->long_name[len] == 0)
            return o;
        prefix = o;
        n_prefix++;
    }
    *ambiguous = n_prefix > 1;
    return n_prefix == 1 ? prefix : NULL;
}

static const bl_option *find_short(const bl_option *opts, char c)
{
    for (const bl_option *o = opts; o->type != BL_OPT_END_; o++)
        if (o->short_name == c)
            return o;
    return NULL;
}

static int usage(const bl_command_help *h, const char *fmt, const char *what, const char *more)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, what, more);
    bl_usage_error(h->name, "%s", msg);
    return BL_OPTS_USAGE;
}

/* Applies o with its argument (NULL for options that take none). */
static int apply(const bl_command_help *h, const bl_option *o, const char *shown, const char *arg)
{
    char err[384];
    switch (o->type) {
    case BL_OPT_BOOL_:
    case BL_OPT_SET_:
        *(int *)o->value = o->set;
        return 0;
    case BL_OPT_STRING_:
        *(const char **)o->value = arg;
        return 0;
    case BL_OPT_FN_:
    case BL_OPT_FN_OPT_:
        if (o->fn(o->value, arg, err, sizeof err) != 0)
            return usage(h, "%s%s", err, "");
        return 0;
    default:
        return usage(h, "unknown option '%s'%s", shown, "");
    }
}

/* Reads the option at argv[*i]; advances *i past its value when the value is separate. */
static int one_long(const bl_command_help *h, const bl_option *opts, int argc, char **argv, int *i)
{
    const char *name = argv[*i] + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    if (len == 4 && strncmp(name, "help", 4) == 0)
        return BL_OPTS_HELP;
    int ambiguous;
    const bl_option *o = find_long(opts, name, len, &ambiguous);
    if (!o && !ambiguous) /* --color, -q...: the global ones a command does not define */
        o = find_long(bl_global_after, name, len, &ambiguous);
    if (!o)
        return usage(h, ambiguous ? "option '%s' is ambiguous%s" : "unknown option '%s'%s",
                     argv[*i], "");
    if (!o->argh || o->type == BL_OPT_FN_OPT_) {
        if (eq && o->type != BL_OPT_FN_OPT_)
            return usage(h, "option '--%s' takes no value%s", o->long_name, "");
        if (eq)
            return apply(h, o, argv[*i], eq + 1);
        return apply(h, o, argv[*i], NULL);
    }
    if (eq)
        return apply(h, o, argv[*i], eq + 1);
    if (*i + 1 >= argc)
        return usage(h, "option '--%s' wants a value (%s)", o->long_name, o->argh);
    const char *shown = argv[*i];
    ++*i;
    return apply(h, o, shown, argv[*i]);
}

static int one_short(const bl_command_help *h, const bl_option *opts, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (a[1] == 'h' && a[2] == 0)
        return BL_OPTS_HELP;
    const bl_option *o = find_short(opts, a[1]);
    if (!o)
        o = find_short(bl_global_after, a[1]);
    if (!o)
        return usage(h, "unknown option '%s'%s", a, "");
    if (!o->argh) {
        if (a[2])
            return usage(h, "unknown option '%s'%s", a, "");
        return apply(h, o, a, NULL);
    }
    if (a[2])
        return apply(h, o, a, a + 2);
    if (*i + 1 >= argc)
        return usage(h, "option '-%c' wants a value (%s)", (char[]){a[1], 0}, o->argh);
    ++*i;
    return apply(h, o, a, argv[*i]);
}

void bl_options_list(FILE *f, const bl_option *opts)
{
    for (int pass = 0; pass < 2; pass++)
        for (const bl_option *o = pass ? bl_global_after : opts; o->type != BL_OPT_END_; o++)
            fprintf(f, "%s\t%s\t%s%s\n", o->long_name ? o->long_name : "",
                    o->short_name ? (char[]){o->short_name, 0} : "",
                    o->type == BL_OPT_FN_OPT_ ? "=" : "", o->argh ? o->argh : "");
    fputs("help\th\t\n", f);
}

int bl_options_parse(const bl_command_help *h, const bl_option *opts, int argc, char **argv)
{
    int n = 0, only_operands = 0;
    if (argc == 2 && strcmp(argv[1], BL_OPTS_LIST_ARG) == 0)
        return BL_OPTS_LIST;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_operands || a[0] != '-' || a[1] == 0) {
            argv[n++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            /* A command splitting its operands at `--` reads options on both sides. */
            if (h->keep_dashdash)
                argv[n++] = argv[i];
            else
                only_operands = 1;
            continue;
        }
        int rc =
            a[1] == '-' ? one_long(h, opts, argc, argv, &i) : one_short(h, opts, argc, argv, &i);
        if (rc < 0)
            return rc;
    }
    return n;
}

static int opt_width(const bl_option *o)
{
    int w = o->short_name ? 4 : 0;
    w += 2 + (int)strlen(o->long_name ? o->long_name : "");
    if (o->argh)
        w += (o->type == BL_OPT_FN_OPT_ ? 3 : 1) + (int)strlen(o->argh);
    return w;
}

/* "-o, --output FILE", "--color[=WHEN]" */
void bl_option_left(char *left, size_t n, const bl_option *o)
{
    int opt = o->type == BL_OPT_FN_OPT_;
    snprintf(left, n, "%s%s%s%s%s%s%s", o->short_name ? (char[]){'-', o->short_name, 0} : "",
             o->short_name && o->long_name ? ", " : "", o->long_name ? "--" : "",
             o->long_name ? o->long_name : "", o->argh ? (opt ? "[=" : " ") : "",
             o->argh ? o->argh : "", opt ? "]" : "");
}

void bl_options_help(FILE *f, const bl_command_help *h, const bl_option *opts)
{
    fputs(h->usage, f);
    int width = 10;
    for (const bl_option *o = opts; o->type != BL_OPT_END_; o++)
        width = opt_width(o) > width ? opt_width(o) : width;
    fputs("\nOptions:\n", f);
    for (const bl_option *o = opts; o->type != BL_OPT_END_; o++) {
        char left[128];
        bl_option_left(left, sizeof left, o);
        fprintf(f, "  %-*s  ", width, left);
        /* A help of several lines goes on in the same column. */
        for (const char *c = o->help; *c; c++)
            if (*c == '\n')
                fprintf(f, "\n  %-*s  ", width, "");
            else
                fputc(*c, f);
        fputc('\n', f);
    }
    fprintf(f, "  %-*s  %s\n", width, "-h, --help", "this help");
    if (h->extra)
        h->extra(f);
    if (h->after)
        fprintf(f, "\n%s", h->after);
    fprintf(f, "\nGlobal options go before the command (benchlog --help): --db FILE, -C DIR,\n"
               "--color[=WHEN], --no-color, -q; the last three are taken after it too. An option\n"
               "given both before and after the command: the command's own wins.\n");
}

int bl_options(const bl_command_help *h, const bl_option *opts, int argc, char **argv, int *status)
{
    int n = bl_options_parse(h, opts, argc, argv);
    if (n >= 0)
        return n;
    if (n == BL_OPTS_HELP)
        bl_options_help(stdout, h, opts);
    if (n == BL_OPTS_LIST)
        bl_options_list(stdout, opts);
    *status = n == BL_OPTS_HELP || n == BL_OPTS_LIST ? 0 : 2;
    return -1;
}
