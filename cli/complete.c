/* benchlog __complete WORD...: the hidden helper the completion scripts (cmd_completion.c)
 * call at each TAB, as cobra's __complete: WORDs are the command line after "benchlog" up to
 * the word being completed (the last, maybe ""). Prints the candidates that start with it,
 * one a line, then ":N", N's bits telling the shell: 1 complete file names instead, 2 folder
 * names, 4 put no space after (a KEY= awaiting its value). Commands and options come from
 * main.c's table and each command's option table (options.h: BL_OPTS_LIST_ARG), run IDs,
 * label keys and values from the store, chart kinds, formats, metrics and suites from their
 * tables: nothing here is a second list to keep up to date. */
#include "../charts/chart.h"
#include "../compare/table.h"
#include "../core/store.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../runner/suites.h"
#include "commands.h"
#include "global.h"
#include "options.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { D_FILES = 1, D_DIRS = 2, D_NOSPACE = 4 };

typedef struct cands {
    const char *cur;
    size_t n;
    char **v;
    int directive;
} cands;

static void add(cands *c, const char *s)
{
    if (strncmp(s, c->cur, strlen(c->cur)) != 0)
        return;
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->v[i], s) == 0)
            return;
    c->v = bl_xrealloc(c->v, (c->n + 1) * sizeof *c->v);
    c->v[c->n++] = bl_xstrdup(s);
}

static void addf(cands *c, const char *prefix, const char *s)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s%s", prefix, s);
    add(c, sb.s);
    bl_strbuf_free(&sb);
}

static int command_index(const char *name)
{
    for (size_t i = 0; i < bl_command_count(); i++)
        if (strcmp(bl_command_name(i), name) == 0)
            return (int)i;
    return -1;
}

/* The command's option table as bl_options_list prints it: "LONG\tSHORT\tARGH" lines. */
static char *options_of(int cmd)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    if (!tmp)
        return bl_xstrdup("");
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    char *argv[] = {(char *)bl_command_name((size_t)cmd), BL_OPTS_LIST_ARG, NULL};
    bl_command_call((size_t)cmd, 2, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    long len = ftell(tmp);
    char *text = bl_xcalloc((size_t)(len > 0 ? len : 0) + 1, 1);
    rewind(tmp);
    if (len > 0 && fread(text, 1, (size_t)len, tmp) != (size_t)len)
        text[0] = 0;
    fclose(tmp);
    return text;
}

/* One line of the table: its three fields, "" where empty; returns the next line. */
static const char *table_row(const char *l, char lo[64], char sh[8], char argh[64])
{
    char *f[3] = {lo, sh, argh};
    size_t cap[3] = {64, 8, 64};
    for (int k = 0; k < 3; k++) {
        size_t len = strcspn(l, "\t\n");
        snprintf(f[k], cap[k], "%.*s", (int)len, l);
        l += len;
        if (*l == '\t')
            l++;
    }
    return l + (*l == '\n');
}

/* The ARGH of the option named by word ("--kind", "-o"), or NULL when it takes no value (or
 * only as --name=VALUE) or is not in the table; *name receives its long name. */
static const char *argh_of(const char *table, const char *word, char *name, size_t n)
{
    static char argh[64];
    for (const char *l = table; *l;) {
        char lo[64], sh[8];
        l = table_row(l, lo, sh, argh);
        int match = (word[1] == '-' && *lo && strcmp(word + 2, lo) == 0) ||
                    (word[1] != '-' && *sh && word[1] == sh[0] && word[2] == 0);
        if (!match)
            continue;
        snprintf(name, n, "%s", lo);
        return argh[0] && argh[0] != '=' ? argh : NULL;
    }
    return NULL;
}

typedef struct store_words {
    cands *c;
    int ids, keys;     /* run IDs, label keys as KEY= */
    const char *value; /* the values of this label key, as KEY=VALUE; NULL: none */
    const char *prefix;
} store_words;

static int from_run(void *ctx, const bl_run_info *ri)
{
    store_words *w = ctx;
    if (w->ids)
        add(w->c, ri->id);
    for (size_t i = 0; i <= ri->n_labels; i++) {
        const char *k = i < ri->n_labels ? ri->labels[i].key : "tool";
        const char *v = i < ri->n_labels ? ri->labels[i].value : ri->head->tool;
        if (!v)
            continue;
        if (w->keys)
            addf(w->c, k, "=");
        if (w->value && (!*w->value || strcmp(w->value, k) == 0)) {
            bl_strbuf sb;
            bl_strbuf_init(&sb);
            bl_strbuf_printf(&sb, "%s%s%s%s", w->prefix, *w->value ? k : "", *w->value ? "=" : "",
                             v);
            add(w->c, sb.s);
            bl_strbuf_free(&sb);
        }
    }
    return 0;
}

static void store_walk(store_words *w, const char *db)
{
    char err[512];
    bl_store *s = bl_store_open_existing(db, err, sizeof err);
    if (!s)
        return;
    bl_filter f = {0};
    bl_store_each_run(s, &f, from_run, w, err, sizeof err);
    bl_filter_free(&f);
    bl_store_close(s);
}

/* The value of option `name` (ARGH argh) of a command. */
static void option_value(cands *c, const char *name, const char *argh, const char *db,
                         const char *prefix)
{
    static const char *const repeats[] = {"mean", "median", "best", "all"};
    static const char *const colour[] = {"always", "never", "auto"};
    if (strcmp(name, "kind") == 0) {
        for (int k = 0; k < BL_CHART_N_KINDS; k++)
            addf(c, prefix, bl_chart_kind_name((bl_chart_kind)k));
    } else if (strcmp(name, "as") == 0) {
        addf(c, prefix, "auto");
        for (size_t i = 0; i < bl_format_count(); i++)
            addf(c, prefix, bl_format_at(i)->name);
    } else if (strcmp(name, "metric") == 0) {
        for (int m = 0; m < BL_M_COUNT; m++)
            addf(c, prefix, bl_metric_name((bl_metric)m));
    } else if (strcmp(name, "repeats") == 0) {
        for (size_t i = 0; i < sizeof repeats / sizeof *repeats; i++)
            addf(c, prefix, repeats[i]);
    } else if (strcmp(name, "color") == 0) {
        for (size_t i = 0; i < sizeof colour / sizeof *colour; i++)
            addf(c, prefix, colour[i]);
    } else if (strcmp(name, "suite") == 0) {
        for (size_t i = 0; i < bl_suite_count(); i++)
            addf(c, prefix, bl_suite_at(i)->name);
    } else if (strcmp(name, "by") == 0 || strcmp(name, "unset") == 0) {
        cands keys = {"", 0, NULL, 0};
        store_words w = {&keys, 0, 1, NULL, ""}; /* as KEY=: the "=" dropped below */
        store_walk(&w, db);
        for (size_t i = 0; i < keys.n; i++) {
            keys.v[i][strlen(keys.v[i]) - 1] = 0;
            addf(c, prefix, keys.v[i]);
            free(keys.v[i]);
        }
        free(keys.v);
    } else if (strcmp(name, "baseline") == 0) {
        store_words w = {c, 0, 0, "", prefix};
        store_walk(&w, db);
    } else if (strstr(argh, "DIR")) {
        c->directive |= D_DIRS;
    } else if (strstr(argh, "FILE") || strcmp(argh, "F") == 0 || strcmp(argh, "PATH") == 0) {
        c->directive |= D_FILES;
    }
}

/* An operand: files for the commands that read them, else run IDs and FILTER terms. */
static void operand(cands *c, const char *cmd, const char *db)
{
    if (!strcmp(cmd, "parse") || !strcmp(cmd, "import") || !strcmp(cmd, "run")) {
        c->directive |= D_FILES;
        return;
    }
    const char *eq = strchr(c->cur, '=');
    if (eq) {
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - c->cur), c->cur);
        store_words w = {c, 0, 0, key, ""};
        store_walk(&w, db);
        return;
    }
    store_words w = {c, 1, 1, NULL, ""};
    store_walk(&w, db);
    size_t keys = 0; /* KEY= waits for its value: no space after it, when it is all there is */
    for (size_t i = 0; i < c->n; i++)
        keys += c->v[i][strlen(c->v[i]) - 1] == '=';
    if (c->n && keys == c->n)
        c->directive |= D_NOSPACE;
}

static void options(cands *c, const char *table)
{
    for (const char *l = table; *l;) {
        char lo[64], sh[8], argh[64];
        l = table_row(l, lo, sh, argh);
        if (*lo)
            addf(c, "--", lo);
    }
}

static void global_options(cands *c)
{
    for (const bl_option *o = bl_global_before; o->type != BL_OPT_END_; o++) {
        if (o->long_name)
            addf(c, "--", o->long_name);
        if (o->short_name)
            addf(c, "-", (char[]){o->short_name, 0});
    }
    add(c, "--help");
    add(c, "--version");
}

/* The words before the current one: the command's index (-1: none yet) and the store named
 * by a --db among them; global --db and -C act as they will when the command runs. */
static int walk(int argc, char **argv, const char **db)
{
    int cmd = -1;
    for (int i = 0; i < argc - 1; i++) {
        const char *w = argv[i];
        int has_value = i + 1 < argc - 1;
        if (cmd < 0 && strcmp(w, "-C") == 0 && has_value) {
            if (chdir(argv[++i]) != 0)
                return -1;
        } else if (strcmp(w, "--db") == 0 && has_value) {
            *db = argv[++i];
        } else if (strncmp(w, "--db=", 5) == 0) {
            *db = w + 5;
        } else if (cmd < 0 && w[0] != '-') {
            cmd = i;
        }
    }
    return cmd;
}

int cmd_complete(int argc, char **argv)
{
    /* argv[0] is "__complete"; the words follow */
    argc--, argv++;
    cands c = {argc ? argv[argc - 1] : "", 0, NULL, 0};
    const char *db = NULL;
    int at = argc ? walk(argc, argv, &db) : -1;
    const char *prev = argc >= 2 ? argv[argc - 2] : "";
    const char *name = at >= 0 ? argv[at] : NULL;
    int cmd = name ? command_index(name) : -1;
    char long_name[64];
    if (!name) {
        if (strcmp(prev, "--db") == 0)
            c.directive |= D_FILES;
        else if (strcmp(prev, "-C") == 0)
            c.directive |= D_DIRS;
        else if (strncmp(c.cur, "--color=", 8) == 0)
            option_value(&c, "color", "WHEN", db, "--color=");
        else if (c.cur[0] == '-')
            global_options(&c);
        else {
            for (size_t i = 0; i < bl_command_count(); i++)
                add(&c, bl_command_name(i));
            add(&c, "help");
        }
    } else if (strcmp(name, "help") == 0) {
        for (size_t i = 0; i < bl_command_count(); i++)
            add(&c, bl_command_name(i));
    } else if (strcmp(name, "completion") == 0) {
        add(&c, "bash");
        add(&c, "zsh");
    } else if (cmd >= 0) {
        char *table = options_of(cmd);
        const char *argh = prev[0] == '-' && at < argc - 2 && !strchr(prev, '=')
                               ? argh_of(table, prev, long_name, sizeof long_name)
                               : NULL;
        const char *eq = strchr(c.cur, '=');
        if (argh) {
            option_value(&c, long_name, argh, db, "");
        } else if (c.cur[0] == '-' && c.cur[1] == '-' && eq) {
            char opt[80], prefix[96];
            snprintf(opt, sizeof opt, "%.*s", (int)(eq - c.cur), c.cur);
            snprintf(prefix, sizeof prefix, "%s=", opt);
            const char *a = argh_of(table, opt, long_name, sizeof long_name);
            if (a || strcmp(opt, "--color") == 0)
                option_value(&c, a ? long_name : "color", a ? a : "WHEN", db, prefix);
        } else if (c.cur[0] == '-') {
            options(&c, table);
        } else {
            operand(&c, name, db);
        }
        free(table);
    }
    for (size_t i = 0; i < c.n; i++) {
        printf("%s\n", c.v[i]);
        free(c.v[i]);
    }
    free(c.v);
    printf(":%d\n", c.directive);
    return 0;
}
