#include "say.h"
#include "../core/escape.h"
#include "../core/store.h"
#include "../core/strbuf.h"
#include "global.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say_json(const char *source, const char *status, size_t n_records, const char *ids)
{
    json_t *o = json_object(), *runs = json_array();
    json_object_set_new(o, "source", json_string(source));
    json_object_set_new(o, "status", json_string(status));
    json_object_set_new(o, "records", json_integer((json_int_t)n_records));
    for (const char *p = ids; *p;) {
        size_t len = strcspn(p, " ");
        if (len)
            json_array_append_new(runs, json_stringn(p, len));
        p += len + (p[len] == ' ');
    }
    json_object_set_new(o, "runs", runs);
    char *line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    printf("%s\n", line);
    free(line);
    json_decref(o);
}

void bl_say_result(int json, const char *source, const char *status, size_t n_records,
                   const char *ids)
{
    if (!ids)
        ids = "";
    if (json) {
        say_json(source, status, n_records, ids);
        return;
    }
    if (bl_quiet() || strcmp(status, "refused") == 0)
        return;
    size_t n_runs = 0;
    for (const char *p = ids; *p; p++)
        n_runs += (p == ids || p[-1] == ' ') && *p != ' ';
    char *src = bl_esc_term_dup(source, BL_ESC_LINE); /* a file name may hold anything */
    if (strcmp(status, "skipped") == 0)
        printf("%s: already in the store (same content, run%s %s): skipped\n", src,
               n_runs == 1 ? "" : "s", ids);
    else
        printf("%s: %s %s in %s: %s\n", src, status, bl_count(n_records, "record").s,
               bl_count(n_runs, "run").s, ids);
    free(src);
}

void bl_note(const char *cmd, const char *fmt, ...)
{
    if (bl_quiet())
        return;
    fprintf(stderr, "benchlog %s: ", cmd);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void bl_say_store_progress(const char *path, const char *what, int64_t done, int64_t total)
{
    if (bl_quiet() || total < 20000)
        return;
    char safe[1024];
    bl_store_addr_safe(path ? path : bl_store_default_path(), safe, sizeof safe);
    char *shown = bl_esc_term_dup(safe, BL_ESC_LINE);
    if (isatty(fileno(stderr)))
        fprintf(stderr, "\rbenchlog: %s: %s: %" PRId64 " of %" PRId64 " records%s", shown, what,
                done, total, done == total ? "\n" : "");
    else if (done == 0)
        fprintf(stderr, "benchlog: %s: %s: %" PRId64 " records, once...\n", shown, what, total);
    else if (done == total)
        fprintf(stderr, "benchlog: %s: %s: done\n", shown, what);
    fflush(stderr);
    free(shown);
}

void bl_notes_print(const bl_diags *d)
{
    if (!bl_quiet())
        bl_diags_print(stderr, d);
}
