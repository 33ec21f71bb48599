/* The option layer every command uses, in the manner of git's parse-options: a command
 * declares a table of its options and bl_options_parse reads them wherever they stand
 * among the operands (filters, files, run IDs); `--` ends the options. The help text is
 * written from the same table, so adding an option to a command is one line in its table.
 *
 * Long options take --name VALUE or --name=VALUE and may be shortened while unambiguous;
 * short ones -o VALUE or -oVALUE. -h and --help are always there. */
#ifndef BL_OPTIONS_H
#define BL_OPTIONS_H

#include <stdio.h>

typedef enum bl_opt_type {
    BL_OPT_END_,
    BL_OPT_BOOL_,   /* *(int *)value = 1 */
    BL_OPT_SET_,    /* *(int *)value = set (one of several choices, last wins) */
    BL_OPT_STRING_, /* *(const char **)value = the argument */
    BL_OPT_FN_,     /* fn(value, argument): converts or collects, -1 with err on a bad one */
    BL_OPT_FN_OPT_, /* the same with an optional argument, given as --name=ARG only (NULL: none) */
} bl_opt_type;

typedef int (*bl_opt_fn)(void *value, const char *arg, char *err, size_t errlen);

typedef struct bl_option {
    bl_opt_type type;
    char short_name; /* 0: none */
    const char *long_name;
    void *value;
    const char *argh; /* the value's name in the help ("FILE"); NULL: takes no value */
    const char *help;
    int set;
    bl_opt_fn fn;
} bl_option;

#define BL_OPT_BOOL(s, l, v, h)                                                                    \
    {                                                                                              \
        BL_OPT_BOOL_, s, l, v, NULL, h, 1, NULL                                                    \
    }
#define BL_OPT_SET(s, l, v, n, h)                                                                  \
    {                                                                                              \
        BL_OPT_SET_, s, l, v, NULL, h, n, NULL                                                     \
    }
#define BL_OPT_STRING(s, l, v, a, h)                                                               \
    {                                                                                              \
        BL_OPT_STRING_, s, l, v, a, h, 0, NULL                                                     \
    }
#define BL_OPT_FN(s, l, v, a, h, f)                                                                \
    {                                                                                              \
        BL_OPT_FN_, s, l, v, a, h, 0, f                                                            \
    }
#define BL_OPT_FN_OPT(s, l, v, a, h, f)                                                            \
    {                                                                                              \
        BL_OPT_FN_OPT_, s, l, v, a, h, 0, f                                                        \
    }
#define BL_OPT_END()                                                                               \
    {                                                                                              \
        BL_OPT_END_, 0, NULL, NULL, NULL, NULL, 0, NULL                                            \
    }

/* The options most commands share. */
#define BL_OPT_DB(v)                                                                               \
    BL_OPT_STRING(0, "db", v, "FILE", "store (default $BENCHLOG_DB or ./benchlog.db)")
#define BL_OPT_LABEL(v)                                                                            \
    BL_OPT_FN(0, "label", v, "K=V", "add a label to every record (repeatable)", bl_opt_label)

/* --label K=V into a bl_labels (args.h). */
int bl_opt_label(void *labels, const char *arg, char *err, size_t errlen);

typedef struct bl_command_help {
    const char *name;       /* "report" */
    const char *usage;      /* "Usage: benchlog report [OPTIONS] [FILTER...]\n\nWhat it does.\n" */
    const char *after;      /* after the options: FILTER syntax, examples; may be NULL */
    void (*extra)(FILE *f); /* lists made at run time (formats, suites), before `after` */
    int keep_dashdash;      /* `--` is an operand that splits the others, not the end of options */
} bl_command_help;

enum { BL_OPTS_HELP = -1, BL_OPTS_USAGE = -2, BL_OPTS_LIST = -3 };

/* The hidden argument that makes bl_options print the command's option table instead, one
 * option a line: "LONG\tSHORT\tARGH" ("" where none; "=ARGH" when the value is optional,
 * --long=VALUE only), for `benchlog completion` and the completion helper. */
#define BL_OPTS_LIST_ARG "--list-options-for-completion"
/* Prints that table (and the global options a command takes after its name) to f. */
void bl_options_list(FILE *f, const bl_option *opts);

/* Reads argv[1..argc) (argv[0] is the command's name). Returns the number of operands,
 * moved in their order to argv[0..n); BL_OPTS_HELP when -h/--help was given (nothing
 * printed); BL_OPTS_USAGE when an option is unknown, lacks its value or its value is
 * refused (message printed to stderr as bl_usage_error does). */
int bl_options_parse(const bl_command_help *h, const bl_option *opts, int argc, char **argv);

/* "-o, --output FILE": an option as the help shows it. */
void bl_option_left(char *left, size_t n, const bl_option *o);

/* Prints usage, the option table, extra() and `after`, and a line on the global options. */
void bl_options_help(FILE *f, const bl_command_help *h, const bl_option *opts);

/* bl_options_parse for a command: returns the number of operands, or -1 with *status the
 * command's exit status (0 after printing the help or the option list to stdout, 2 after a
 * usage error). */
int bl_options(const bl_command_help *h, const bl_option *opts, int argc, char **argv, int *status);

#endif
