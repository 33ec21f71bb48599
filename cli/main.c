/* benchlog: dispatch to the commands of SPEC.md, global --help and --version. */
#include "../charts/chart.h"
#include "../core/store.h"
#include "../core/version.h"
#include "commands.h"
#include "global.h"
#include "say.h"
#include <locale.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* A big parse keeps every record until its document ends (fio's numjobs totals need them
 * all): a heap grown a 4 KiB page fault at a time was a fifth of the CPU of a 100 MB fio JSON,
 * faults being dear in a VM (issue 26). So glibc's heap is grown by 64 MiB at a time, those
 * pages asked to be huge, as GLIBC_TUNABLES=glibc.malloc.hugetlb=1 does; pages never touched
 * cost nothing. The first growth is made here (a block too big for the top, from the heap, not
 * mmap); blocks from 128 KiB on are mmap'ed as before (glibc's first threshold, kept fixed
 * now that the pad is set). Another allocator (ASan, valgrind) leaves the break alone: then nothing
 * is asked. Only for parse and import: other commands stream in bounded memory, where whole huge
 * pages of a fragmented heap only raised the peak RSS (xlsx by a quarter). */
static void heap_in_huge_pages(void)
{
    enum { PAD = 64 << 20, HUGE = 2 << 20, MMAP_MIN = 128 << 10 /* glibc's default */ };
    char *before = sbrk(0);
    mallopt(M_TOP_PAD, PAD);
    mallopt(M_MMAP_THRESHOLD, PAD / 2);
    void *volatile grow = malloc(PAD / 4); /* (volatile: a malloc freed unused is elided) */
    free(grow);
    mallopt(M_MMAP_THRESHOLD, MMAP_MIN);
    char *top = sbrk(0);
    uintptr_t lo = ((uintptr_t)before + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    if (before != (char *)-1 && top - before >= PAD / 2 && lo < (uintptr_t)top)
        madvise((void *)lo, (uintptr_t)top - lo, MADV_HUGEPAGE);
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
    if (c->fn == cmd_parse || c->fn == cmd_import)
        heap_in_huge_pages();
    return c->fn(argc - 1, argv + 1);
}
