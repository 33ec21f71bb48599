/* benchlog parse / import: benchmark outputs to records, on stdout or into the store. */
#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../parsers/fio_log_merge.h"
#include "args.h"
#include "commands.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void formats_help(FILE *f)
{
    int width = 0;
    for (size_t i = 0; i < bl_format_count(); i++) {
        int n = (int)strlen(bl_format_at(i)->name);
        width = n > width ? n : width;
    }
    fprintf(f, "\nFORMAT (default auto: every format found in the text is read):\n");
    for (size_t i = 0; i < bl_format_count(); i++)
        fprintf(f, "  %-*s  %s\n", width, bl_format_at(i)->name, bl_format_at(i)->summary);
}

static int help(const char *cmd)
{
    if (strcmp(cmd, "parse") == 0)
        printf("Usage: benchlog parse [--as FORMAT] [--label K=V]... FILE...\n\n"
               "Prints the records found in each FILE as JSON Lines on stdout (no store).\n"
               "FILE - is standard input. Errors go to stderr as FILE:LINE: message.\n\n"
               "  --as FORMAT    read FILE as FORMAT instead of detecting it\n"
               "  --label K=V    add a label to every record (repeatable)\n"
               "  --patterns F   also read the formats of pattern file F (repeatable); the\n"
               "                 *.pat files of $XDG_CONFIG_HOME/benchlog/patterns are read too\n");
    else
        printf("Usage: benchlog import [--db FILE] [--as FORMAT] [--label K=V]... FILE...\n\n"
               "Parses each FILE into the store, one transaction per file. A file whose\n"
               "content is already in the store is skipped (said on stderr).\n\n"
               "  --db FILE      store (default $BENCHLOG_DB or ./benchlog.db)\n"
               "  --as FORMAT    read FILE as FORMAT instead of detecting it\n"
               "  --label K=V    add a label to every record (repeatable)\n"
               "  --patterns F   also read the formats of pattern file F (repeatable)\n");
    formats_help(stdout);
    printf("\nExample: benchlog import --label host=nas1 fio-randread.txt dd.log\n");
    return 0;
}

typedef struct parse_args {
    const char *db, *as;
    bl_labels labels;
    bl_patterns *patterns;
    int first_file;
} parse_args;

/* The user's folder of pattern files, then each --patterns file; errors as FILE:LINE. A
 * broken file in the folder is left out with its messages; a broken --patterns file stops
 * the command (status 2), since the user asked for it by name. */
static int load_patterns(parse_args *a, const char *file)
{
    bl_parse_out errs;
    bl_out_init(&errs, file ? file : "");
    int rc = 0;
    if (!a->patterns) {
        a->patterns = bl_patterns_new();
        char *dir = bl_patterns_user_dir();
        if (dir)
            bl_patterns_load_dir(a->patterns, dir, &errs);
        free(dir);
    }
    if (file)
        rc |= bl_patterns_load_file(a->patterns, file, &errs);
    bl_print_diags(&errs);
    bl_out_free(&errs);
    return rc;
}

static void free_args(parse_args *a)
{
    bl_labels_free(&a->labels);
    bl_patterns_free(a->patterns);
}

static int read_args(const char *cmd, int argc, char **argv, parse_args *a)
{
    static const struct option opts[] = {
        {"db", required_argument, 0, 'd'},    {"as", required_argument, 0, 'a'},
        {"label", required_argument, 0, 'l'}, {"patterns", required_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            a->db = optarg;
            break;
        case 'a':
            a->as = optarg;
            break;
        case 'l':
            if (bl_labels_add(&a->labels, optarg) != 0)
                return 2;
            break;
        case 'p':
            if (load_patterns(a, optarg) != 0)
                return 2;
            break;
        case 'h':
            return -1;
        default:
            return bl_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!a->patterns && load_patterns(a, NULL) != 0)
        return 2;
    int known = a->as && bl_format_find(a->as);
    for (size_t i = 0; a->as && i < bl_patterns_count(a->patterns); i++)
        known |= strcmp(bl_patterns_format(a->patterns, i)->name, a->as) == 0;
    if (a->as && strcmp(a->as, "auto") != 0 && !known)
        return bl_usage_error(cmd, "unknown format '%s'", a->as);
    if (optind >= argc)
        return bl_usage_error(cmd, "no FILE given");
    a->first_file = optind;
    return 0;
}

/* Parses one file; returns its status (0/1) and fills out. */
static int parse_one(const char *path, const parse_args *a, bl_parse_out *out, char hash[33])
{
    bl_parse_opts opts = {
        .as = a->as, .n_labels = a->labels.n, .labels = a->labels.v, .patterns = a->patterns};
    bl_out_init(out, strcmp(path, "-") == 0 ? "<stdin>" : path);
    int rc = bl_parse_source(path, &opts, out, hash);
    bl_print_diags(out);
    return rc;
}

int cmd_parse(int argc, char **argv)
{
    parse_args a;
    int rc = read_args("parse", argc, argv, &a);
    if (rc) {
        free_args(&a);
        return rc < 0 ? help("parse") : rc;
    }
    int status = 0;
    bl_records logs; /* fio-log records, for the logs of numjobs=N jobs given together */
    bl_records_init(&logs);
    for (int i = a.first_file; i < argc; i++) {
        bl_parse_out out;
        if (parse_one(argv[i], &a, &out, NULL) != 0)
            status = 1;
        for (size_t k = 0; k < out.recs.n; k++) {
            bl_record_write_jsonl(out.recs.v[k], stdout);
            if (bl_record_label(out.recs.v[k], "jobnum") && out.recs.v[k]->n_series)
                bl_records_push(&logs, bl_record_clone(out.recs.v[k]));
        }
        bl_out_free(&out);
    }
    bl_records merged;
    bl_records_init(&merged);
    bl_fio_logs_merge(&logs, &merged);
    for (size_t k = 0; k < merged.n; k++)
        bl_record_write_jsonl(merged.v[k], stdout);
    bl_records_free(&merged);
    bl_records_free(&logs);
    free_args(&a);
    if (fflush(stdout) != 0)
        status = 1;
    return status;
}

static size_t count_runs(const bl_records *rs)
{
    size_t n = 0;
    int64_t last = -2;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->v[i]->run != last)
            n++, last = rs->v[i]->run;
    return n;
}

static int import_one(bl_store *s, const char *path, const parse_args *a)
{
    bl_parse_out out;
    char hash[33] = "";
    int status = parse_one(path, a, &out, hash);
    char err[512];
    if (out.recs.n == 0) {
        bl_out_free(&out);
        return 1;
    }
    int rc =
        bl_store_import(s, out.source, hash, a->as ? a->as : "auto", &out.recs, err, sizeof err);
    if (rc == BL_IMPORT_DUPLICATE)
        fprintf(stderr, "%s: already in the store (same content): skipped\n", out.source);
    else if (rc == BL_IMPORT_FAILED) {
        fprintf(stderr, "%s: import failed, store unchanged: %s\n", out.source, err);
        status = 1;
    } else
        fprintf(stderr, "%s: imported %zu records in %zu runs\n", out.source, out.recs.n,
                count_runs(&out.recs));
    bl_out_free(&out);
    return status;
}

int cmd_import(int argc, char **argv)
{
    parse_args a;
    int rc = read_args("import", argc, argv, &a);
    if (rc) {
        free_args(&a);
        return rc < 0 ? help("import") : rc;
    }
    bl_store *s = bl_open_store(a.db, 1);
    if (!s) {
        free_args(&a);
        return 1;
    }
    int status = 0;
    for (int i = a.first_file; i < argc; i++)
        if (import_one(s, argv[i], &a) != 0)
            status = 1;
    bl_store_close(s);
    free_args(&a);
    return status;
}
