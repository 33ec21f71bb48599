/* The store's front: picks the backend by address (a postgresql:// or postgres:// URL is
 * PostgreSQL, anything else an SQLite file) and calls through its table of operations;
 * what is the same on every backend (collecting, the run heads) lives here. */
#include "fields.h"
#include "jsonl.h"
#include "store_int.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bl_store_default_path(void)
{
    const char *env = getenv("BENCHLOG_DB");
    return env && *env ? env : "benchlog.db";
}

int bl_store_is_url(const char *addr)
{
    return addr &&
           (strncmp(addr, "postgresql://", 13) == 0 || strncmp(addr, "postgres://", 11) == 0);
}

/* Drops "password=..." from a URL's query. */
static void drop_password_param(bl_strbuf *out, const char *query)
{
    const char *p = query;
    int first = 1;
    while (*p) {
        size_t n = strcspn(p, "&");
        if (!(n >= 9 && strncmp(p, "password=", 9) == 0)) {
            bl_strbuf_putc(out, first ? '?' : '&');
            bl_strbuf_putn(out, p, n);
            first = 0;
        }
        p += n;
        if (*p == '&')
            p++;
    }
}

void bl_store_addr_safe(const char *addr, char *buf, size_t n)
{
    if (!bl_store_is_url(addr)) {
        snprintf(buf, n, "%s", addr);
        return;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    const char *auth = strstr(addr, "://") + 3;
    size_t auth_len = strcspn(auth, "/?");
    bl_strbuf_putn(&sb, addr, (size_t)(auth - addr));
    const char *at = NULL;
    for (const char *p = auth; p < auth + auth_len; p++)
        if (*p == '@')
            at = p;
    const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    if (colon) { /* user:password@host: the user stays */
        bl_strbuf_putn(&sb, auth, (size_t)(colon - auth));
        bl_strbuf_putn(&sb, at, (size_t)(auth + auth_len - at));
    } else {
        bl_strbuf_putn(&sb, auth, auth_len);
    }
    const char *rest = auth + auth_len;
    const char *q = strchr(rest, '?');
    bl_strbuf_putn(&sb, rest, q ? (size_t)(q - rest) : strlen(rest));
    if (q)
        drop_password_param(&sb, q + 1);
    snprintf(buf, n, "%s", sb.s ? sb.s : "");
    bl_strbuf_free(&sb);
}

static bl_store *open_store(const char *addr, int mode, char *err, size_t errlen)
{
    if (!addr)
        addr = bl_store_default_path();
    return bl_store_is_url(addr) ? bl_store_pg_open(addr, mode, err, errlen)
                                 : bl_store_sqlite_open(addr, mode, err, errlen);
}

bl_store *bl_store_open(const char *path, char *err, size_t errlen)
{
    return open_store(path, BL_OPEN_CREATE | BL_OPEN_WRITE, err, errlen);
}

bl_store *bl_store_open_existing(const char *path, char *err, size_t errlen)
{
    return open_store(path, 0, err, errlen);
}

bl_store *bl_store_open_existing_rw(const char *path, char *err, size_t errlen)
{
    return open_store(path, BL_OPEN_WRITE, err, errlen);
}

void bl_store_close(bl_store *s)
{
    if (!s)
        return;
    s->ops->close(s);
    free(s->path);
    free(s);
}

const char *bl_store_name(const bl_store *s)
{
    return s->path;
}

int bl_store_has_legacy_keys(bl_store *s)
{
    return s->ops->has_legacy_keys(s);
}

int bl_store_batch_begin(bl_store *s, char *err, size_t errlen)
{
    if (s->batch)
        return 0;
    if (s->ops->batch(s, 0, err, errlen) != 0)
        return -1;
    s->batch = 1;
    s->batch_lost = 0;
    return 0;
}

int bl_store_batch_commit(bl_store *s, char *err, size_t errlen)
{
    if (!s->batch)
        return 0;
    int rc = 0;
    char ignored[256];
    if (s->batch_lost) {
        snprintf(err, errlen, "%s: the batch was rolled back by an earlier failure", s->path);
        s->ops->batch(s, 2, ignored, sizeof ignored);
        rc = -1;
    } else if (s->ops->batch(s, 1, err, errlen) != 0) {
        s->ops->batch(s, 2, ignored, sizeof ignored);
        rc = -1;
    }
    s->batch = s->batch_lost = s->busy = 0;
    return rc;
}

int bl_store_in_batch(const bl_store *s)
{
    return s->batch;
}

int bl_store_batch_busy(const bl_store *s)
{
    return s->busy;
}

static bl_import *import_new(bl_store *s, const char *source, const bl_content_key *key)
{
    bl_import *im = bl_xcalloc(1, sizeof *im);
    s->busy = 0;
    im->s = s;
    im->same = 1;
    bl_store_now_iso(im->when, sizeof im->when);
    bl_store_seed(&im->seed, source, key);
    return im;
}

static void import_free(bl_import *im)
{
    bl_strbuf_free(&im->seed);
    free(im);
}

bl_import *bl_store_import_begin(bl_store *s, const char *source, const bl_content_key *key,
                                 const char *format, char *err, size_t errlen)
{
    bl_import *im = import_new(s, source, key);
    if (s->ops->import_begin(im, source, key, format, err, errlen) == 0)
        return im;
    import_free(im);
    return NULL;
}

typedef struct dup_batch {
    bl_import *im;
    const bl_records *recs;
    size_t k;
} dup_batch;

/* A stored record of a duplicate against the k-th record given (NULL recs: counted only). */
static int dup_row(void *ctx, const char *json, size_t len, const char *run_id)
{
    (void)run_id;
    dup_batch *b = ctx;
    bl_import *im = b->im;
    if (im->same && b->recs) {
        bl_record *r = bl_record_from_json(json, len, NULL, 0);
        im->same = r && bl_store_has_labels(r, b->recs->v[b->k], im->differs, sizeof im->differs);
        bl_record_free(r);
    }
    b->k++;
    im->stored++;
    return 0;
}

int bl_import_add(bl_import *im, const bl_records *recs, char *err, size_t errlen)
{
    if (im->spoilt) {
        snprintf(err, errlen, "%s: the import failed before", im->s->path);
        return -1;
    }
    if (recs->n == 0)
        return 0;
    bl_store *s = im->s;
    int rc = 0;
    if (im->dup) { /* the stored records beside these, as many, in order */
        dup_batch b = {im, recs, 0};
        if (im->stored == im->n)
            rc = s->ops->stored_json(s, im->id, &im->after, (long)recs->n, dup_row, &b, err,
                                     errlen) < 0;
    } else {
        rc = s->ops->import_add(im, recs, err, errlen);
    }
    if (rc) {
        im->spoilt = 1;
        return -1;
    }
    im->n += recs->n;
    return 0;
}

size_t bl_import_count(const bl_import *im)
{
    return im->n;
}

/* A duplicate's verdict: as many records stored as given, and their labels. */
static int dup_verdict(bl_import *im, char *err, size_t errlen)
{
    dup_batch b = {im, NULL, 0};
    if (im->stored == im->n &&
        im->s->ops->stored_json(im->s, im->id, &im->after, -1, dup_row, &b, err, errlen) < 0)
        return BL_IMPORT_FAILED;
    if (im->stored != im->n) {
        snprintf(err, errlen, "%zu", im->stored);
        return BL_IMPORT_DUPLICATE_PART;
    }
    if (im->same)
        return BL_IMPORT_DUPLICATE;
    snprintf(err, errlen, "%s", im->differs);
    return BL_IMPORT_DUPLICATE_OTHER;
}

int bl_import_commit(bl_import *im, bl_strbuf *run_ids, char *err, size_t errlen)
{
    bl_store *s = im->s;
    if (im->spoilt) {
        snprintf(err, errlen, "%s: the import failed before", s->path);
        bl_import_rollback(im);
        return BL_IMPORT_FAILED;
    }
    int rc = im->dup ? dup_verdict(im, err, errlen) : BL_IMPORT_DONE;
    char end_err[256];
    if (s->ops->import_end(im, !im->dup && rc == BL_IMPORT_DONE, end_err, sizeof end_err) != 0) {
        snprintf(err, errlen, "%s", end_err);
        rc = BL_IMPORT_FAILED;
    }
    if (rc != BL_IMPORT_FAILED && run_ids)
        s->ops->run_ids(s, im->id, run_ids);
    import_free(im);
    return rc;
}

void bl_import_rollback(bl_import *im)
{
    if (!im)
        return;
    char err[256];
    im->s->ops->import_end(im, 0, err, sizeof err);
    import_free(im);
}

int bl_store_import(bl_store *s, const char *source, const bl_content_key *key, const char *format,
                    const bl_records *recs, bl_strbuf *run_ids, char *err, size_t errlen)
{
    bl_import *im = NULL;
    if (s->ops->import_once) { /* a duplicate it found is checked below as the steps' */
        im = import_new(s, source, key);
        int rc = s->ops->import_once(im, source, key, format, recs, run_ids, err, errlen);
        if (rc == 0 || rc < 0) {
            import_free(im);
            return rc == 0 ? BL_IMPORT_DONE : BL_IMPORT_FAILED;
        }
        if (rc == 2) {
            import_free(im);
            im = NULL;
        }
    }
    if (!im && !(im = bl_store_import_begin(s, source, key, format, err, errlen)))
        return BL_IMPORT_FAILED;
    if (bl_import_add(im, recs, err, errlen) != 0) {
        bl_import_rollback(im);
        return BL_IMPORT_FAILED;
    }
    return bl_import_commit(im, run_ids, err, errlen);
}

/* A job whose content the store holds: its records checked against the stored ones. */
static void job_dup(bl_store *s, bl_import_job *j)
{
    bl_import *im = import_new(s, j->source, j->key);
    im->id = j->dup_id;
    im->dup = 1;
    if (bl_import_add(im, j->recs, j->err, sizeof j->err) != 0) {
        bl_import_rollback(im);
        j->rc = BL_IMPORT_FAILED;
        return;
    }
    j->rc = bl_import_commit(im, &j->ids, j->err, sizeof j->err);
}

size_t bl_store_import_all(bl_store *s, bl_import_job *jobs, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t m = s->batch && s->ops->import_all ? s->ops->import_all(s, jobs + i, n - i) : 0;
        if (m == 0) {
            bl_import_job *j = &jobs[i];
            j->rc = bl_store_import(s, j->source, j->key, j->format, j->recs, &j->ids, j->err,
                                    sizeof j->err);
            j->busy = j->rc == BL_IMPORT_FAILED && s->busy;
            m = 1;
        }
        for (size_t k = i; k < i + m; k++) {
            if (jobs[k].dup_id)
                job_dup(s, &jobs[k]);
            if (jobs[k].busy)
                return k + 1;
        }
        i += m;
    }
    return n;
}

int bl_store_each(bl_store *s, const bl_filter *f, bl_record_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    return s->ops->each(s, f, fn, NULL, ctx, err, errlen);
}

int bl_store_fold(bl_store *s, const bl_filter *f, bl_fold_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    return s->ops->fold ? s->ops->fold(s, f, fn, ctx, err, errlen) : 1;
}

int bl_store_each_json(bl_store *s, const bl_filter *f, bl_json_fn fn, void *ctx, char *err,
                       size_t errlen)
{
    return s->ops->each(s, f, NULL, fn, ctx, err, errlen);
}

int bl_store_each_run(bl_store *s, const bl_filter *f, bl_run_fn fn, void *ctx, char *err,
                      size_t errlen)
{
    return s->ops->each_run(s, f, fn, ctx, err, errlen);
}

int bl_store_relabel(bl_store *s, const bl_filter *f, const bl_label *set, size_t n_set,
                     char *const *unset, size_t n_unset, size_t *n_runs, size_t *n_records,
                     char *err, size_t errlen)
{
    return s->ops->relabel(s, f, set, n_set, unset, n_unset, n_runs, n_records, err, errlen);
}

int bl_store_delete(bl_store *s, const bl_filter *f, size_t *n_runs, size_t *n_records, char *err,
                    size_t errlen)
{
    return s->ops->del(s, f, n_runs, n_records, err, errlen);
}

static int keep_record(void *ctx, bl_record *r, const char *run_id)
{
    (void)run_id;
    bl_records_push(ctx, r);
    return 0;
}

int bl_store_query(bl_store *s, const bl_filter *f, bl_records *out, char *err, size_t errlen)
{
    return bl_store_each(s, f, keep_record, out, err, errlen);
}

void bl_run_head_fill(bl_record *head, const bl_record *r)
{
    for (size_t i = 0; i < bl_n_fields; i++) {
        const bl_field *f = &bl_fields[i];
        if (!(f->flags & BL_FF_RUN))
            continue;
        if (f->kind == BL_FK_STR)
            bl_record_set_str(BL_FIELD(head, f, char *), *BL_CFIELD(r, f, char *));
        else if (f->kind == BL_FK_INT)
            *BL_FIELD(head, f, int64_t) = *BL_CFIELD(r, f, int64_t);
        else if (f->kind == BL_FK_NUM)
            *BL_FIELD(head, f, double) = *BL_CFIELD(r, f, double);
    }
}

void bl_run_info_clear(bl_run_info *ri)
{
    bl_record_free(ri->head);
    free(ri->imported_at);
    for (size_t i = 0; i < ri->n_labels; i++) {
        free(ri->labels[i].key);
        free(ri->labels[i].value);
    }
    free(ri->labels);
    memset(ri, 0, sizeof *ri);
}

void bl_run_info_keep_labels(bl_run_info *ri, bl_label_get_fn get, const void *src)
{
    size_t k = 0;
    for (size_t i = 0; i < ri->n_labels; i++) {
        const char *v = get(src, ri->labels[i].key);
        if (v && strcmp(v, ri->labels[i].value) == 0) {
            ri->labels[k++] = ri->labels[i];
        } else {
            free(ri->labels[i].key);
            free(ri->labels[i].value);
        }
    }
    ri->n_labels = k;
}

const char *bl_json_label(const void *labels, const char *key)
{
    return json_string_value(json_object_get(labels, key));
}

void bl_import_info_set(bl_import_info *info, const char *hash, const char *format,
                        const char *imported_at)
{
    snprintf(info->hash, sizeof info->hash, "%s", hash ? hash : "");
    snprintf(info->format, sizeof info->format, "%s", format ? format : "");
    snprintf(info->imported_at, sizeof info->imported_at, "%s", imported_at ? imported_at : "");
}

int bl_store_relabel_json(const char *json, size_t len, const bl_label *set, size_t n_set,
                          char *const *unset, size_t n_unset, bl_strbuf *out)
{
    bl_record *r = bl_record_from_json(json, len, NULL, 0);
    if (!r)
        return -1;
    bl_store_edit_labels(r, set, n_set, unset, n_unset);
    bl_strbuf_reset(out);
    bl_record_to_json(r, out);
    bl_record_free(r);
    return 0;
}

typedef struct runs_acc {
    bl_run_info *v;
    size_t n, cap;
} runs_acc;

static int keep_run(void *ctx, const bl_run_info *ri)
{
    runs_acc *acc = ctx;
    void *p = acc->v;
    bl_grow(&p, &acc->cap, acc->n + 1, sizeof *acc->v);
    acc->v = p;
    bl_run_info *c = &acc->v[acc->n++];
    *c = *ri;
    c->head = bl_record_clone(ri->head);
    c->imported_at = bl_xstrdup(ri->imported_at);
    c->labels = bl_xcalloc(ri->n_labels ? ri->n_labels : 1, sizeof *c->labels);
    for (size_t i = 0; i < ri->n_labels; i++)
        c->labels[i] = (bl_label){bl_xstrdup(ri->labels[i].key), bl_xstrdup(ri->labels[i].value)};
    return 0;
}

int bl_store_runs(bl_store *s, const bl_filter *f, bl_run_info **runs, size_t *n, char *err,
                  size_t errlen)
{
    runs_acc acc = {0};
    int rc = bl_store_each_run(s, f, keep_run, &acc, err, errlen);
    *runs = acc.v;
    *n = acc.n;
    return rc;
}

void bl_run_infos_free(bl_run_info *runs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        bl_run_info_clear(&runs[i]);
    free(runs);
}
