/* benchlog: dispatch to the commands of SPEC.md, global --help and --version. */
#include "../charts/chart.h"
#include "../core/store.h"
#include "../core/version.h"
#include "commands.h"
#include "global.h"
#include "say.h"
#include <locale.h>
#include <stdio.h>
#include <string.h>

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"parse", cmd_parse, "print the records of benchmark outputs as JSON Lines"},
    {"import", cmd_import, "parse benchmark outputs into the store"},
    {"run", cmd_run, "run a benchmark with benchlog's own engine and store it"},
    {"list", cmd_list, "list the runs in the store, their IDs first"},
    {"show", cmd_show, "one run: source, labels, every record with all its figures"},
    {"relabel", cmd_relabel, "set or remove labels of stored runs (one transaction)"},
    {"delete", cmd_delete, "remove runs from the store (asks on a terminal)"},
    {"export", cmd_export, "write stored records as JSON Lines or CSV"},
    {"report", cmd_report, "comparison table (text, Markdown, CSV, HTML)"},
    {"chart", cmd_chart, "chart as PNG, SVG or PDF; kinds:" BL_CHART_KIND_NAMES},
    {"xlsx", cmd_xlsx, "Excel workbook: summary, runs, latency, sources, charts"},
    {"compare", cmd_compare, "two set-ups test by test: change in %, outside the 95% CI?"},
    {"completion", cmd_completion, "shell completion script: benchlog completion bash|zsh"},
    {"history", cmd_history, "each set-up's results over time, change points found"},
    {"check", cmd_check, "exit 1 when the newest runs are a significant regression"},
    {"push", cmd_push, "copy runs to another store (file or postgresql:// URL)"},
    {"pull", cmd_pull, "copy runs from another store into this one"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "Usage: benchlog [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
               "Reads storage benchmark results (fio, bonnie++, dd, CrystalDiskMark, also\n"
               "pasted in blog posts), runs benchmarks, and compares them.\n\nCommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "  %-10s %s\n", "help", "help on a command: benchlog help COMMAND");
    bl_global_help(f);
    fprintf(f, "\nThe store is benchlog.db in the current folder, $BENCHLOG_DB, or --db FILE\n"
               "(before the command or after it; after it wins). Results go to stdout,\n"
               "diagnostics to stderr.\n"
               "Exit status: 0 done, 1 the input held errors (good records kept), 2 usage.\n"
               "Run 'benchlog COMMAND --help' for a command's options; man benchlog.\n");
}

size_t bl_command_count(void)
{
    return N_COMMANDS;
}

const char *bl_command_name(size_t i)
{
    return commands[i].name;
}

int bl_command_call(size_t i, int argc, char **argv)
{
    return commands[i].fn(argc, argv);
}

static const command *find(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int cmd_not_built(const char *command, const char *what)
{
    fprintf(stderr, "benchlog %s: not available yet: the %s stage is not built in this version\n",
            command, what);
    return 2;
}

int main(int argc, char **argv)
{
    /* Character classes for width computations only: numbers are always read and printed
     * in the C locale, whatever the user's LC_NUMERIC. */
    setlocale(LC_CTYPE, "");
    bl_store_register_progress(bl_say_store_progress);
    int status, first = bl_global_options(argc, argv, &status);
    if (first < 0)
        return status;
    argc -= first - 1;
    argv += first - 1; /* argv[1] is the command's name */
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("benchlog %s\n", BENCHLOG_VERSION);
        return 0;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "__complete") == 0) /* hidden: what the completion scripts call */
        return cmd_complete(argc - 1, argv + 1);
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        const command *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "benchlog: no command '%s'; see 'benchlog --help'\n", argv[2]);
            return 2;
        }
        char *help_argv[] = {argv[2], "--help", NULL};
        return c->fn(2, help_argv);
    }
    const command *c = find(name);
    if (!c) {
        fprintf(stderr, "benchlog: no command '%s'; see 'benchlog --help'\n", name);
        return 2;
    }
    return c->fn(argc - 1, argv + 1);
}
