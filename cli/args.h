/* Option handling shared by the commands: --db, --label K=V, FILTER terms, help text. */
#ifndef BL_ARGS_H
#define BL_ARGS_H

#include "../core/filter.h"
#include "../core/record.h"
#include "../core/store.h"

typedef struct bl_labels {
    size_t n;
    bl_label *v;
} bl_labels;

/* Adds "K=V"; returns -1 (message printed) when it is not of that form. */
int bl_labels_add(bl_labels *ls, const char *kv);
void bl_labels_free(bl_labels *ls);

/* Adds each of argv[0..argc) as a FILTER term; returns -1 (message printed) on a bad one. */
int bl_filter_from_args(bl_filter *f, int argc, char **argv);

/* Opens --db or the default store; prints the error and returns NULL on failure. A store
 * that does not exist is created only when `create` is set (commands that write). */
bl_store *bl_open_store(const char *db, int create);
/* Opens an existing store to change it (relabel, delete): checked sound before any write. */
bl_store *bl_open_store_rw(const char *db);

/* For a usage error: prints "benchlog CMD: MESSAGE" and a hint to stderr, returns 2. */
int bl_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
