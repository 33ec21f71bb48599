/* Copying runs between stores (push and pull): the runs a filter selects are found first,
 * then one walk of src's records in import order hands each import's selected records to
 * dst's import, so memory holds one import at a time. */
#include "store_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sel_run {
    char id[BL_RUN_ID_LEN + 1];
    int64_t import_id;
    bl_import_info *info; /* its import's, shared by the import's runs */
} sel_run;

typedef struct copy_ctx {
    bl_store *src, *dst;
    sel_run *runs;
    size_t n_runs, cap;
    int64_t import_id; /* of the records held */
    const bl_import_info *info;
    bl_records held;
    char first_run[BL_RUN_ID_LEN + 1];
    bl_copy_counts *counts;
    char *err;
    size_t errlen;
} copy_ctx;

static int by_id(const void *a, const void *b)
{
    return strcmp(((const sel_run *)a)->id, ((const sel_run *)b)->id);
}

static int select_run(void *ctx, const bl_run_info *ri)
{
    copy_ctx *c = ctx;
    void *p = c->runs;
    bl_grow(&p, &c->cap, c->n_runs + 1, sizeof *c->runs);
    c->runs = p;
    sel_run *r = &c->runs[c->n_runs++];
    snprintf(r->id, sizeof r->id, "%s", ri->id);
    r->import_id = ri->import_id;
    return 0;
}

/* The held import goes to dst under its content key. */
static int flush(copy_ctx *c)
{
    if (c->held.n == 0)
        return 0;
    const bl_import_info info = *c->info;
    int rc = 0;
    {
        bl_content_key key = {0};
        if (info.hash[0]) {
            snprintf(key.sha256, sizeof key.sha256, "%s", info.hash);
        } else {
            /* a measured run: no content, but one identity wherever it is copied to */
            char seed[128];
            int n = snprintf(seed, sizeof seed, "measured-import:%s:%s", c->first_run,
                             info.imported_at);
            bl_sha256_hex(seed, (size_t)n, key.sha256);
        }
        const char *source = c->held.v[0]->source ? c->held.v[0]->source : "";
        rc = bl_store_import(c->dst, source, &key, info.format, &c->held, NULL, c->err, c->errlen);
        if (rc == BL_IMPORT_DONE) {
            c->counts->imports++;
            c->counts->records += c->held.n;
        } else if (rc != BL_IMPORT_FAILED) {
            c->counts->present++;
            c->counts->other += rc == BL_IMPORT_DUPLICATE_OTHER;
            rc = 0;
        }
    }
    bl_records_free(&c->held);
    bl_records_init(&c->held);
    return rc == BL_IMPORT_FAILED ? -1 : rc;
}

static int take_record(void *ctx, bl_record *r, const char *run_id)
{
    copy_ctx *c = ctx;
    sel_run key;
    snprintf(key.id, sizeof key.id, "%s", run_id);
    const sel_run *sel = bsearch(&key, c->runs, c->n_runs, sizeof *c->runs, by_id);
    if (!sel) {
        bl_record_free(r);
        return 0;
    }
    if (c->held.n && sel->import_id != c->import_id && flush(c) != 0) {
        bl_record_free(r);
        return -1;
    }
    if (c->held.n == 0) {
        c->import_id = sel->import_id;
        c->info = sel->info;
        snprintf(c->first_run, sizeof c->first_run, "%s", run_id);
    }
    bl_records_push(&c->held, r);
    return 0;
}

int bl_store_copy(bl_store *src, bl_store *dst, const bl_filter *f, bl_copy_counts *counts,
                  char *err, size_t errlen)
{
    memset(counts, 0, sizeof *counts);
    copy_ctx c = {.src = src, .dst = dst, .counts = counts, .err = err, .errlen = errlen};
    bl_records_init(&c.held);
    int rc = bl_store_each_run(src, f, select_run, &c, err, errlen);
    /* the imports' keys are read before the walk of records: one connection, one query at
     * a time (runs come in import order, so an import's runs are neighbours here) */
    bl_import_info *infos = bl_xcalloc(c.n_runs ? c.n_runs : 1, sizeof *infos);
    size_t n_infos = 0;
    for (size_t i = 0; rc == 0 && i < c.n_runs; i++) {
        if (i > 0 && c.runs[i].import_id == c.runs[i - 1].import_id) {
            c.runs[i].info = c.runs[i - 1].info;
            continue;
        }
        c.runs[i].info = &infos[n_infos++];
        rc = src->ops->import_info(src, c.runs[i].import_id, c.runs[i].info, err, errlen);
    }
    if (rc == 0 && c.n_runs) {
        qsort(c.runs, c.n_runs, sizeof *c.runs, by_id);
        rc = bl_store_each(src, NULL, take_record, &c, err, errlen);
        if (rc == 0)
            rc = flush(&c);
    }
    bl_records_free(&c.held);
    free(c.runs);
    free(infos);
    return rc ? -1 : 0;
}
