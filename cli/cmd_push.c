/* benchlog push --to STORE [FILTER...] and pull --from STORE [FILTER...]: the runs `list
 * FILTER` shows in one store, copied into another (SQLite or PostgreSQL, either way); a
 * source the target already holds is skipped (core/store.h: bl_store_copy). A laptop
 * imports offline and pushes to the team's store later. */
#include "../core/store.h"
#include "args.h"
#include "commands.h"
#include "options.h"
#include <stdio.h>
#include <string.h>

static const char push_usage[] =
    "Usage: benchlog push --to STORE [OPTIONS] [FILTER...]\n\n"
    "Copies the runs 'benchlog list FILTER' shows (all without FILTER) from the store\n"
    "(--db) to STORE: an SQLite file or a postgresql:// URL. Sources STORE already holds\n"
    "are skipped, so pushing again copies only what is new; labels go with the records.\n";
static const char pull_usage[] =
    "Usage: benchlog pull --from STORE [OPTIONS] [FILTER...]\n\n"
    "Copies the runs 'benchlog list FILTER' shows in STORE (an SQLite file or a\n"
    "postgresql:// URL) into the store (--db). Sources already there are skipped.\n";
static const char after[] =
    "A postgresql:// URL takes libpq's ways for passwords and TLS (~/.pgpass, PGSERVICE,\n"
    "sslmode=...); messages never show a password.\n\n"
    "Example: benchlog push --to postgresql://lab@db.example/bench host=srv1\n";

static int copy_cmd(const char *name, const char *src_addr, const char *dst_addr, int n,
                    char **argv)
{
    char a[512], b[512];
    bl_store_addr_safe(src_addr ? src_addr : bl_store_default_path(), a, sizeof a);
    bl_store_addr_safe(dst_addr ? dst_addr : bl_store_default_path(), b, sizeof b);
    if (strcmp(a, b) == 0) {
        fprintf(stderr, "benchlog %s: %s is the store itself\n", name, a);
        return 2;
    }
    bl_filter f = {0};
    if (bl_filter_from_args(&f, n, argv) != 0)
        return 2;
    bl_store *src = bl_open_store(src_addr, 0);
    bl_store *dst = src ? bl_open_store(dst_addr, 1) : NULL;
    int rc = 1;
    if (dst) {
        char err[512];
        bl_copy_counts c;
        if (bl_store_copy(src, dst, &f, &c, err, sizeof err) != 0) {
            fprintf(stderr, "benchlog %s: %s\n", name, err);
        } else {
            rc = 0;
        }
        printf("%s: %s copied (%s), %zu already in %s", name, bl_count(c.imports, "source").s,
               bl_count(c.records, "record").s, c.present, bl_store_name(dst));
        if (c.other)
            printf(" (%zu of them with other labels there, left as they are)", c.other);
        printf("\n");
    }
    bl_store_close(src);
    bl_store_close(dst);
    bl_filter_free(&f);
    return rc;
}

int cmd_push(int argc, char **argv)
{
    const char *db = NULL, *to = NULL;
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_STRING(0, "to", &to, "STORE", "the store to copy to (file or postgresql:// URL)"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"push", push_usage, after, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if (!to)
        return bl_usage_error("push", "--to STORE is required");
    return copy_cmd("push", db, to, n, argv);
}

int cmd_pull(int argc, char **argv)
{
    const char *db = NULL, *from = NULL;
    const bl_option opts[] = {
        BL_OPT_DB(&db),
        BL_OPT_STRING(0, "from", &from, "STORE",
                      "the store to copy from (file or postgresql:// URL)"),
        BL_OPT_END(),
    };
    static const bl_command_help h = {"pull", pull_usage, after, NULL, 0};
    int rc, n = bl_options(&h, opts, argc, argv, &rc);
    if (n < 0)
        return rc;
    if (!from)
        return bl_usage_error("pull", "--from STORE is required");
    return copy_cmd("pull", from, db, n, argv);
}
