/* benchlog parse / import: benchmark outputs to records, on stdout or into the store. */
#include "../core/escape.h"
#include "../core/jsonl.h"
#include "../core/strbuf.h"
#include "../core/when.h"
#include "../parsers/driver.h"
#include "../parsers/fio_log_merge.h"
#include "../parsers/fio_log_weight.h"
#include "args.h"
#include "colour.h"
#include "commands.h"
#include "global.h"
#include "options.h"
#include "say.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

static const char parse_usage[] =
    "Usage: benchlog parse [OPTIONS] FILE...\n\n"
    "Prints the records found in each FILE as JSON Lines on stdout (no store).\n"
    "FILE - is standard input. Errors go to stderr as FILE:LINE: message.\n";
static const char import_usage[] =
    "Usage: benchlog import [OPTIONS] FILE...\n\n"
    "Parses each FILE into the store, each file whole or not at all, and prints one line\n"
    "a file on stdout: what was imported and its run IDs, or that its content is\n"
    "already in the store (skipped) and its run IDs. Errors and warnings go to stderr;\n"
    "-q keeps the errors only.\n";
static const char after[] = "\nOptions may stand before, between or after the files.\n"
                            "Example: benchlog import --label host=nas1 fio-randread.txt dd.log\n";

typedef struct parse_args {
    const char *db, *as;
    bl_labels labels;
    bl_patterns *patterns;
    int n_files;
    int json;     /* import --json: its lines as JSON Lines */
    int has_when; /* --when given: the time of records whose text has none */
    time_t when;
} parse_args;

/* --when TIME */
static int opt_when(void *args, const char *v, char *err, size_t errlen)
{
    parse_args *a = args;
    if (bl_when_parse(v, &a->when) != 0) {
        snprintf(err, errlen,
                 "--when '%s': not a time (2026-12-02T12:28:07Z, 2026-12-02 12:28, 2026-12-02, "
                 "@SECONDS)",
                 v);
        return -1;
    }
    a->has_when = 1;
    return 0;
}

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

/* --patterns F: the file's mistakes are printed as FILE:LINE by load_patterns. */
static int opt_patterns(void *args, const char *file, char *err, size_t errlen)
{
    if (load_patterns(args, file) == 0)
        return 0;
    snprintf(err, errlen, "pattern file '%s' not usable (see above)", file);
    return -1;
}

static void free_args(parse_args *a)
{
    bl_labels_free(&a->labels);
    bl_patterns_free(a->patterns);
}

/* Reads the options; the files end in argv[0..a->n_files). Returns 0, or the exit status
 * plus one (1: help shown, exit 0). */
static int read_args(const char *cmd, int argc, char **argv, parse_args *a)
{
    int import = strcmp(cmd, "import") == 0;
    /* The store's options last: parse, which has no store, stops before them. */
    const bl_option opts[] = {
        BL_OPT_STRING(0, "as", &a->as, "FORMAT", "read FILE as FORMAT instead of detecting it"),
        BL_OPT_LABEL(&a->labels),
        BL_OPT_FN(0, "patterns", a, "F",
                  "also read the formats of pattern file F (repeatable); the *.pat files of "
                  "$XDG_CONFIG_HOME/benchlog/patterns are read too",
                  opt_patterns),
        BL_OPT_FN(0, "when", a, "TIME",
                  "when the runs ran, for files whose text does not say (default: the file's "
                  "modification time); UTC with Z, else local",
                  opt_when),
        BL_OPT_END(),
        BL_OPT_DB(&a->db),
        BL_OPT_BOOL(0, "json", &a->json,
                    "one JSON object a file on stdout: {\"source\", \"status\": imported,\n"
                    "skipped or refused, \"records\", \"runs\": [IDs]}"),
        BL_OPT_END(),
    };
    bl_option popts[sizeof opts / sizeof opts[0]];
    size_t n_opts = 0;
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (opts[i].type != BL_OPT_END_ || (i + 1 == sizeof opts / sizeof opts[0]) || !import)
            popts[n_opts++] = opts[i];
    const bl_command_help h = {cmd, import ? import_usage : parse_usage, after, formats_help, 0};
    memset(a, 0, sizeof *a);
    int rc, n = bl_options(&h, popts, argc, argv, &rc);
    if (n < 0)
        return rc + 1;
    if (!a->patterns && load_patterns(a, NULL) != 0)
        return 2 + 1;
    int known = a->as && bl_format_find(a->as);
    for (size_t i = 0; a->as && i < bl_patterns_count(a->patterns); i++)
        known |= strcmp(bl_patterns_format(a->patterns, i)->name, a->as) == 0;
    if (a->as && strcmp(a->as, "auto") != 0 && !known)
        return bl_usage_error(cmd, "unknown format '%s'", a->as) + 1;
    if (n == 0)
        return bl_usage_error(cmd, "no FILE given") + 1;
    a->n_files = n;
    return 0;
}

/* "SOURCE:LINE: message" lines on stderr, painted p on a terminal. stderr writes each call
 * at once, two a line; so up to CHUNK lines go out in one write (a memory stream), a few
 * hundred lines held at a time however many there are. */
static void print_painted(const bl_diag *v, size_t n, bl_paint p)
{
    enum { CHUNK = 256 };
    int on = bl_color(stderr);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    for (size_t from = 0; from < n; from += CHUNK) {
        char *all = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&all, &len);
        FILE *to = m ? m : stderr;
        for (size_t i = from; i < n && i < from + CHUNK; i++) {
            bl_strbuf_reset(&sb);
            if (v[i].line > 0)
                bl_strbuf_printf(&sb, "%s:%ld: %s", v[i].source, v[i].line, v[i].msg);
            else
                bl_strbuf_printf(&sb, "%s: %s", v[i].source, v[i].msg);
            bl_paint_fputs(to, on, p, sb.s);
            fputc('\n', to);
        }
        if (m && fclose(m) == 0)
            fwrite(all, 1, len, stderr);
        free(all);
    }
    bl_strbuf_free(&sb);
}

/* The parse's errors, and its warnings unless -q (as bl_print_diags, painted). */
static void print_diags(const bl_parse_out *out)
{
    print_painted(out->diags, out->n_diags, BL_PAINT_ERROR);
    if (!bl_quiet())
        print_painted(out->warns, out->n_warns, BL_PAINT_FLAG);
}

/* Records whose text gives no time take --when, else the file's modification time (standard
 * input has none: the store gives those the time of the import). */
static void fill_when(bl_parse_out *out, const char *path, const parse_args *a)
{
    struct stat st;
    int has_mtime = -1;          /* stat'ed at the first record without a time */
    char when[BL_WHEN_LEN] = ""; /* formatted once: every record takes the same */
    for (size_t i = 0; i < out->recs.n; i++) {
        bl_record *r = out->recs.v[i];
        if (r->when)
            continue;
        if (has_mtime < 0)
            has_mtime = !a->has_when && strcmp(path, "-") != 0 && stat(path, &st) == 0;
        if (!a->has_when && !has_mtime)
            continue;
        if (!when[0])
            bl_when_format(a->has_when ? a->when : st.st_mtime, when);
        bl_record_set_str(&r->when, when);
        bl_record_set_str(&r->when_from, a->has_when ? "given" : "file");
    }
}

/* What a file's batches are handed with: records of a big file read in pieces come in
 * batches while it is parsed (driver.h); the key is known before the first. */
typedef struct {
    const char *path;
    const parse_args *a;
    const bl_content_key *key;
    void *ctx; /* the command's */
} file_ctx;

/* parse: the records of a big file read in pieces are printed piece by piece. */
static void print_batch(void *ctx, bl_parse_out *out)
{
    const file_ctx *c = ctx;
    fill_when(out, c->path, c->a);
    bl_records_write_jsonl(out->recs.v, out->recs.n, stdout);
}

/* Parses one file; returns its status (0/1) and fills out (diagnostics not printed yet).
 * batch (may be NULL): given the records of a file read in pieces as they come. */
static int parse_one(const char *path, const parse_args *a, bl_parse_out *out, bl_content_key *hash,
                     bl_batch_fn batch, void *ctx)
{
    bl_parse_opts opts = {
        .as = a->as, .n_labels = a->labels.n, .labels = a->labels.v, .patterns = a->patterns};
    bl_out_init(out, strcmp(path, "-") == 0 ? "<stdin>" : path);
    file_ctx fc = {path, a, hash, ctx};
    int rc = bl_parse_source_each(path, &opts, out, hash, batch, &fc);
    fill_when(out, path, a);
    return rc;
}

/* The files of one command line. A file is handed to the command's on_file as soon as it is
 * parsed and then freed, so memory does not grow with the number of files; only fio logs
 * wait (held), since averaged latency logs are weighted by the IOPS logs given with them and
 * numjobs=N logs merge: they are handed over at the end, in their order, and kept for the
 * command's merge. */
typedef struct {
    bl_parse_out *outs;
    bl_content_key *keys;
    size_t n;
} held_logs;

typedef int (*file_fn)(bl_parse_out *out, bl_content_key *key, int status, void *ctx);
/* Called before a file is read (may be NULL). */
typedef void (*before_fn)(const char *path, void *ctx);

static int holds_logs(const bl_parse_out *out)
{
    for (size_t k = 0; k < out->recs.n; k++) {
        const bl_record *r = out->recs.v[k];
        if (bl_record_label(r, "log_windows") || (bl_record_label(r, "jobnum") && r->n_series))
            return 1;
    }
    return 0;
}

/* Returns the OR of on_file's statuses. want_keys: compute content keys (FNV too when
 * legacy). batch: the command's way with the batches of a file read in pieces (ctx its). */
static int each_file(char **files, int n, const parse_args *a, int want_keys, int legacy,
                     bl_batch_fn batch, before_fn before, file_fn on_file, void *ctx,
                     held_logs *held)
{
    int status = 0, *held_status = bl_xcalloc((size_t)n + 1, sizeof *held_status);
    held->outs = bl_xcalloc((size_t)n + 1, sizeof *held->outs);
    held->keys = bl_xcalloc((size_t)n + 1, sizeof *held->keys);
    held->n = 0;
    for (int i = 0; i < n; i++) {
        bl_parse_out out;
        bl_content_key key = {.want_fnv = legacy};
        if (before)
            before(files[i], ctx);
        int st = parse_one(files[i], a, &out, want_keys ? &key : NULL, batch, ctx);
        if (holds_logs(&out)) {
            held_status[held->n] = st;
            held->keys[held->n] = key;
            held->outs[held->n++] = out;
            continue;
        }
        status |= on_file(&out, &key, st, ctx);
        bl_out_free(&out);
    }
    bl_fio_logs_weight(held->outs, held->n);
    for (size_t i = 0; i < held->n; i++)
        status |= on_file(&held->outs[i], &held->keys[i], held_status[i], ctx);
    free(held_status);
    return status;
}

static void held_free(held_logs *held)
{
    for (size_t i = 0; i < held->n; i++)
        bl_out_free(&held->outs[i]);
    free(held->outs);
    free(held->keys);
}

static int print_file(bl_parse_out *out, bl_content_key *key, int status, void *ctx)
{
    (void)key;
    (void)ctx;
    print_diags(out);
    bl_records_write_jsonl(out->recs.v, out->recs.n, stdout);
    return status;
}

int cmd_parse(int argc, char **argv)
{
    parse_args a;
    int rc = read_args("parse", argc, argv, &a);
    if (rc) {
        free_args(&a);
        return rc - 1;
    }
    held_logs held;
    int status = each_file(argv, a.n_files, &a, 0, 0, print_batch, NULL, print_file, NULL, &held);
    bl_records logs; /* fio-log records, for the logs of numjobs=N jobs given together */
    bl_records_init(&logs);
    for (size_t i = 0; i < held.n; i++)
        for (size_t k = 0; k < held.outs[i].recs.n; k++)
            if (bl_record_label(held.outs[i].recs.v[k], "jobnum") &&
                held.outs[i].recs.v[k]->n_series)
                bl_records_push(&logs, bl_record_clone(held.outs[i].recs.v[k]));
    held_free(&held);
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

/* A file's line on stdout, its result (say.h); "refused": nothing stored, errors on stderr. */
static void said(const parse_args *a, const char *source, const char *status, size_t n_records,
                 const char *ids)
{
    bl_say_result(a->json, source, status, n_records, ids);
}

/* A file's import told: its line on stdout, or why not on stderr; returns its status
 * (0/1). rc is bl_store_import's, n the records read, ids the runs', err the store's. */
static int tell_import(const parse_args *a, const char *source, int rc, size_t n, const char *ids,
                       const char *err, int status)
{
    char *src = bl_esc_term_dup(source, BL_ESC_LINE); /* a file name may hold anything */
    if (rc == BL_IMPORT_DUPLICATE) {
        said(a, source, "skipped", n, ids);
    } else if (rc == BL_IMPORT_DUPLICATE_OTHER && a->labels.n == 0) {
        /* No --label asked for: the records read now carry labels the stored ones lack, from
         * the files given beside it (an IOPS log that weights a latency log) or a relabel
         * since. relabel cannot store figures read differently; a new import can. */
        fprintf(stderr,
                "%s: already in the store (same content, runs %s) but read differently now: "
                "%s. Files given beside it (a fio IOPS log beside its latency log) or a "
                "relabel since change what is read; to store it as read now: benchlog delete "
                "--yes %s, then import again\n",
                src, ids, err, ids);
        status = 1;
    } else if (rc == BL_IMPORT_DUPLICATE_OTHER) {
        /* The labels asked for are not what the store holds: say how to get them. */
        fprintf(stderr,
                "%s: already in the store (same content, runs %s) with other labels; use "
                "relabel: benchlog relabel %s",
                src, ids, ids);
        for (size_t i = 0; i < a->labels.n; i++)
            fprintf(stderr, " '%s=%s'", a->labels.v[i].key, a->labels.v[i].value);
        fputc('\n', stderr);
        status = 1;
    } else if (rc == BL_IMPORT_DUPLICATE_PART) {
        fprintf(stderr,
                "%s: already in the store (same content, runs %s), which holds %s of the %zu "
                "records read now; to import it again: benchlog delete --yes %s\n",
                src, ids, err, n, ids);
        status = 1;
    } else if (rc == BL_IMPORT_FAILED) {
        fprintf(stderr, "%s: import failed, store unchanged: %s\n", src, err);
        status = 1;
    } else {
        said(a, source, "imported", n, ids);
    }
    if (rc != BL_IMPORT_DONE && rc != BL_IMPORT_DUPLICATE)
        said(a, source, "refused", 0, ids);
    free(src);
    return status;
}

/* import: files go into the store in batches, many files a transaction (store.h's
 * bl_store_batch_begin), each file a savepoint of its own: all or nothing, and one that
 * fails is undone alone. What is told of a file waits until its batch committed (pending),
 * so nothing is said imported that a failed commit or a kill could still take back. A batch
 * commits after BATCH_FILES files, BATCH_BYTES of text or BATCH_NS of time, before a file
 * that may take long to read (standard input, a big file: its own batch), and at the end.
 * A file read in pieces is stored as it is read, its batches added to one import begun by
 * the first; a failure ends it there (rolled back, the rest of the file only parsed) and
 * the file is refused whole. */
enum { BATCH_FILES = 500, BATCH_BYTES = 8 << 20, BIG_FILE = 1 << 20 };
/* Parsed records waiting to be stored: past this many they go to the store at once (still
 * told at the commit), so a batch of files rich in records holds no more than one of them
 * would (test_bounded: 30 files of 4,000 records). */
enum { QUEUE_RECORDS = 1024 };
#define BATCH_NS 250000000LL

/* A file's verdict waiting for its batch's commit: its messages (diags), bl_store_import's
 * rc (TOLD_EMPTY: no records; QUEUED: not stored yet, its records and key held), the
 * records read, the run IDs, the store's err. */
enum { TOLD_EMPTY = 100, QUEUED = 101 };
typedef struct {
    bl_parse_out diags; /* no records */
    int rc, status;
    size_t n;
    char *ids;
    char err[512];
    bl_records recs; /* QUEUED: what goes to the store, with its key */
    bl_content_key key;
    int keyed, retried; /* retried: once after a busy batch's commit */
} pending;

typedef struct {
    bl_store *s;
    const parse_args *a;
    bl_import *im; /* the file's import under way (read in pieces) */
    int failed;    /* it failed: err says why */
    char err[512];
    pending *pend; /* told at the batch's commit */
    size_t n_pend, cap_pend;
    size_t bytes;          /* text read into the open batch */
    size_t queued;         /* records of the QUEUED files */
    struct timespec since; /* the open batch's start */
    int status;            /* the OR of the statuses told */
} import_ctx;

static long long ns_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - t->tv_sec) * 1000000000LL + (now.tv_nsec - t->tv_nsec);
}

/* A batch open for the next import (when one cannot be opened, each file is a transaction
 * of its own, told at once all the same). */
static void open_batch(import_ctx *c)
{
    char err[512];
    if (bl_store_in_batch(c->s) || bl_store_batch_begin(c->s, err, sizeof err) != 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    c->bytes = 0;
}

/* Commits the open batch and tells its files before `upto` (none of them queued); a failed
 * commit stored none of them. The files from upto on move to the front. */
static void commit_tell(import_ctx *c, size_t upto)
{
    char err[512] = "";
    int lost = bl_store_batch_commit(c->s, err, sizeof err) != 0;
    for (size_t i = 0; i < upto; i++) {
        pending *p = &c->pend[i];
        if (lost && (p->rc == BL_IMPORT_DONE || p->rc == BL_IMPORT_DUPLICATE)) {
            p->rc = BL_IMPORT_FAILED;
            snprintf(p->err, sizeof p->err, "%s", err);
        }
        print_diags(&p->diags);
        if (p->rc == TOLD_EMPTY) {
            said(c->a, p->diags.source, "refused", 0, "");
            c->status |= 1;
        } else {
            c->status |= tell_import(c->a, p->diags.source, p->rc, p->n, p->ids, p->err, p->status);
        }
        bl_out_free(&p->diags);
        free(p->ids);
    }
    if (upto < c->n_pend) /* c->pend may be null when nothing is pending */
        memmove(c->pend, c->pend + upto, (c->n_pend - upto) * sizeof *c->pend);
    c->n_pend -= upto;
}

/* The queued files stored, all at once (bl_store_import_all), in the open batch. One that
 * failed only because another writer's batch waits on this one (PostgreSQL: a deadlock on a
 * content key) has what came before it committed and told, and is imported again in a new
 * batch: the other writer then goes on, and this one sees what it stored. */
static void store_queued(import_ctx *c)
{
    for (;;) {
        size_t *at = bl_xcalloc(c->n_pend + 1, sizeof *at), n = 0;
        for (size_t i = 0; i < c->n_pend; i++)
            if (c->pend[i].rc == QUEUED)
                at[n++] = i;
        bl_import_job *jobs = bl_xcalloc(n + 1, sizeof *jobs);
        const char *format = c->a->as ? c->a->as : "auto";
        for (size_t k = 0; k < n; k++) {
            pending *p = &c->pend[at[k]];
            jobs[k] = (bl_import_job){.source = p->diags.source,
                                      .key = p->keyed ? &p->key : NULL,
                                      .format = format,
                                      .recs = &p->recs};
            bl_strbuf_init(&jobs[k].ids);
        }
        size_t done = n ? bl_store_import_all(c->s, jobs, n) : 0;
        size_t again = SIZE_MAX; /* the pending file imported again after a commit */
        for (size_t k = 0; k < done; k++) {
            pending *p = &c->pend[at[k]];
            if (jobs[k].busy && !p->retried) {
                p->retried = 1;
                again = at[k];
                continue;
            }
            p->rc = jobs[k].rc;
            free(p->ids);
            p->ids = bl_xstrdup(jobs[k].ids.s ? jobs[k].ids.s : "");
            snprintf(p->err, sizeof p->err, "%s", jobs[k].err);
            bl_records_free(&p->recs);
        }
        for (size_t k = 0; k < n; k++)
            bl_strbuf_free(&jobs[k].ids);
        free(jobs);
        free(at);
        if (done == n && again == SIZE_MAX) {
            c->queued = 0;
            return;
        }
        if (again != SIZE_MAX) {
            commit_tell(c, again);
            open_batch(c);
        }
    }
}

/* Stores what is queued, commits the open batch and tells its files. */
static void flush(import_ctx *c)
{
    store_queued(c);
    commit_tell(c, c->n_pend);
}

/* A file's verdict kept for its batch's commit (QUEUED: to be stored; its records move out
 * of out, or are copied from fio logs held for import_merged); its messages move out of out. */
static void defer(import_ctx *c, bl_parse_out *out, int rc, size_t n, const char *ids,
                  const char *err, int status, const bl_content_key *key)
{
    void *v = c->pend;
    bl_grow(&v, &c->cap_pend, c->n_pend + 1, sizeof *c->pend);
    c->pend = v;
    pending *p = &c->pend[c->n_pend++];
    memset(p, 0, sizeof *p);
    bl_out_init(&p->diags, out->source);
    p->diags.diags = out->diags, p->diags.n_diags = out->n_diags;
    p->diags.cap_diags = out->cap_diags;
    p->diags.warns = out->warns, p->diags.n_warns = out->n_warns;
    p->diags.cap_warns = out->cap_warns;
    out->diags = out->warns = NULL;
    out->n_diags = out->cap_diags = out->n_warns = out->cap_warns = 0;
    p->rc = rc, p->n = n, p->status = status;
    p->ids = bl_xstrdup(ids ? ids : "");
    snprintf(p->err, sizeof p->err, "%s", err ? err : "");
    bl_records_init(&p->recs);
    if (rc == QUEUED && holds_logs(out)) { /* still read by import_merged: copied */
        for (size_t i = 0; i < out->recs.n; i++)
            bl_records_push(&p->recs, bl_record_clone(out->recs.v[i]));
    } else if (rc == QUEUED) {
        p->recs = out->recs;
        bl_records_init(&out->recs);
    }
    if (rc == QUEUED) {
        p->keyed = key != NULL;
        if (key)
            p->key = *key;
        c->queued += p->recs.n;
    }
    if (!bl_store_in_batch(c->s) || c->n_pend >= BATCH_FILES || c->bytes >= BATCH_BYTES ||
        ns_since(&c->since) >= BATCH_NS)
        flush(c);
    else if (c->queued >= QUEUE_RECORDS)
        store_queued(c);
}

/* Before a file is read: one that may take long (standard input, a big file) finds what
 * came before it committed and told. */
static void before_file(const char *path, void *ctx)
{
    import_ctx *c = ctx;
    struct stat st;
    int known = strcmp(path, "-") != 0 && stat(path, &st) == 0;
    if (known && S_ISREG(st.st_mode))
        c->bytes += (size_t)st.st_size;
    if (c->n_pend && (!known || !S_ISREG(st.st_mode) || st.st_size >= BIG_FILE))
        flush(c);
}

/* Queues one parsed file (out, with its content key and its parse status) for the store:
 * stored with the others of its batch, told when the batch commits. */
static void import_one(import_ctx *c, bl_parse_out *out, const bl_content_key *key, int status)
{
    if (out->recs.n == 0) {
        defer(c, out, TOLD_EMPTY, 0, "", "", status, NULL);
        return;
    }
    open_batch(c);
    defer(c, out, QUEUED, out->recs.n, "", "", status, key);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Merged records by their logs and direction: the same whatever the order of the files. */
static int cmp_merged(const void *a, const void *b)
{
    const bl_record *x = *(bl_record *const *)a, *y = *(bl_record *const *)b;
    int c = strcmp(bl_record_label(x, "log"), bl_record_label(y, "log"));
    return c ? c : strcmp(x->op ? x->op : "", y->op ? y->op : "");
}

/* The merged records of numjobs=N logs given together (as parse prints them), stored as an
 * import of their own: its content key is that of its member files' keys, in any order, so
 * importing the same logs again finds it. */
static void import_merged(import_ctx *c, bl_parse_out *outs, const bl_content_key *keys, int n)
{
    bl_records logs, merged;
    bl_records_init(&logs);
    bl_records_init(&merged);
    char **shas = bl_xcalloc((size_t)n + 1, sizeof *shas);
    size_t n_shas = 0;
    for (int i = 0; i < n; i++) {
        int member = 0;
        for (size_t k = 0; k < outs[i].recs.n; k++)
            if (bl_record_label(outs[i].recs.v[k], "jobnum") && outs[i].recs.v[k]->n_series) {
                bl_records_push(&logs, bl_record_clone(outs[i].recs.v[k]));
                member = 1;
            }
        if (member)
            shas[n_shas++] = (char *)keys[i].sha256;
    }
    bl_fio_logs_merge(&logs, &merged);
    if (merged.n) {
        qsort(shas, n_shas, sizeof *shas, cmp_str);
        qsort(merged.v, merged.n, sizeof *merged.v, cmp_merged);
        bl_strbuf text;
        bl_strbuf_init(&text);
        bl_strbuf_puts(&text, "merged fio logs");
        for (size_t i = 0; i < n_shas; i++)
            bl_strbuf_printf(&text, "\n%s", shas[i]);
        bl_content_key key = {0};
        bl_content_key_of(text.s, text.len, &key);
        bl_strbuf_free(&text);
        bl_parse_out out;
        bl_out_init(&out, "merged numjobs logs");
        for (size_t k = 0; k < merged.n; k++)
            bl_records_push(&out.recs, bl_record_clone(merged.v[k]));
        import_one(c, &out, &key, 0);
        bl_out_free(&out);
    }
    free(shas);
    bl_records_free(&merged);
    bl_records_free(&logs);
}

/* The first piece of a file read in pieces: what came before it is committed (the file is
 * a batch of its own), then its import begins. */
static void import_batch(void *ctx, bl_parse_out *out)
{
    const file_ctx *fc = ctx;
    import_ctx *c = fc->ctx;
    if (c->failed)
        return;
    fill_when(out, fc->path, fc->a);
    if (!c->im) {
        flush(c);
        open_batch(c);
        c->im = bl_store_import_begin(c->s, out->source, fc->key, c->a->as ? c->a->as : "auto",
                                      c->err, sizeof c->err);
    }
    if (c->im && bl_import_add(c->im, &out->recs, c->err, sizeof c->err) == 0)
        return;
    bl_import_rollback(c->im);
    c->im = NULL;
    c->failed = 1;
}

/* The end of a file whose batches went to the store: what is left in out added, then the
 * import committed, and its batch with it. */
static void import_pieces(import_ctx *c, bl_parse_out *out, int status)
{
    bl_strbuf ids;
    bl_strbuf_init(&ids);
    size_t n = 0;
    int rc = BL_IMPORT_FAILED;
    if (!c->failed && bl_import_add(c->im, &out->recs, c->err, sizeof c->err) != 0)
        bl_import_rollback(c->im);
    else if (!c->failed)
        n = bl_import_count(c->im), rc = bl_import_commit(c->im, &ids, c->err, sizeof c->err);
    defer(c, out, rc, n, ids.s, c->err, status, NULL);
    flush(c);
    bl_strbuf_free(&ids);
    c->im = NULL;
    c->failed = 0;
}

static int import_file(bl_parse_out *out, bl_content_key *key, int status, void *ctx)
{
    import_ctx *c = ctx;
    if (c->im || c->failed)
        import_pieces(c, out, status);
    else
        import_one(c, out, key, status);
    return 0; /* told at the batch's commit, into c->status */
}

int cmd_import(int argc, char **argv)
{
    parse_args a;
    int rc = read_args("import", argc, argv, &a);
    if (rc) {
        free_args(&a);
        return rc - 1;
    }
    bl_store *s = bl_open_store(a.db, 1);
    if (!s) {
        free_args(&a);
        return 1;
    }
    /* Old stores hold FNV keys: their content is recognised while any is left. */
    int legacy = bl_store_has_legacy_keys(s);
    import_ctx ctx = {.s = s, .a = &a};
    held_logs held;
    int status = each_file(argv, a.n_files, &a, 1, legacy, import_batch, before_file, import_file,
                           &ctx, &held);
    import_merged(&ctx, held.outs, held.keys, (int)held.n);
    flush(&ctx);
    status |= ctx.status;
    free(ctx.pend);
    held_free(&held);
    bl_store_close(s);
    free_args(&a);
    if (fflush(stdout) != 0)
        status = 1;
    return status;
}
