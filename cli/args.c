#include "args.h"
#include "../core/strbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bl_labels_add(bl_labels *ls, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv) {
        fprintf(stderr, "benchlog: --label wants KEY=VALUE, not '%s'\n", kv);
        return -1;
    }
    ls->v = bl_xrealloc(ls->v, (ls->n + 1) * sizeof *ls->v);
    ls->v[ls->n++] = (bl_label){bl_xstrndup(kv, (size_t)(eq - kv)), bl_xstrdup(eq + 1)};
    return 0;
}

void bl_labels_free(bl_labels *ls)
{
    for (size_t i = 0; i < ls->n; i++) {
        free(ls->v[i].key);
        free(ls->v[i].value);
    }
    free(ls->v);
    ls->v = NULL;
    ls->n = 0;
}

int bl_filter_from_args(bl_filter *f, int argc, char **argv)
{
    char err[256];
    for (int i = 0; i < argc; i++) {
        if (bl_filter_add(f, argv[i], err, sizeof err) != 0) {
            fprintf(stderr, "benchlog: %s\n", err);
            return -1;
        }
    }
    return 0;
}

bl_store *bl_open_store(const char *db, int create)
{
    char err[512];
    bl_store *s =
        create ? bl_store_open(db, err, sizeof err) : bl_store_open_existing(db, err, sizeof err);
    if (!s)
        fprintf(stderr, "benchlog: %s\n", err);
    return s;
}

bl_store *bl_open_store_rw(const char *db)
{
    char err[512];
    bl_store *s = bl_store_open_existing_rw(db, err, sizeof err);
    if (!s)
        fprintf(stderr, "benchlog: %s\n", err);
    return s;
}

int bl_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "benchlog%s%s: ", *cmd ? " " : "", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'benchlog%s%s --help'.\n", *cmd ? " " : "", cmd);
    va_end(ap);
    return 2;
}
