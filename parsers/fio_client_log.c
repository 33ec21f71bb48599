/* Per-host logs of fio's client mode: fio names them "<name as the server wrote it>.<host>"
 * (client.c, fio_client_handle_iolog), e.g. "job_clat.2.log.10.0.0.7" or
 * "job_bw.log.node7.example.com"; the host is what follows the last ".log." of the name. */
#include "../core/strbuf.h"
#include "driver.h"
#include "fio_client.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

char *bl_fio_client_log_host(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *host = NULL;
    for (const char *p = strstr(base, ".log."); p; p = strstr(p + 1, ".log."))
        host = p + 5;
    /* A host name holds no '/' and is not empty; "x.log.gz"-like endings are not hosts. */
    if (!host || !*host || strcmp(host, "gz") == 0 || strcmp(host, "fz") == 0)
        return NULL;
    return bl_xstrdup(host);
}

int bl_fio_client_read_log(const char *path, bl_parse_out *out)
{
    char *host = bl_fio_client_log_host(path);
    if (!host) {
        bl_out_error(out, 0, "not a per-host fio log: no \".log.<hostname>\" ending");
        return 2;
    }
    if (!bl_format_find("fio-log")) {
        bl_out_error(out, 0, "the fio-log format is not built in");
        free(host);
        return 2;
    }
    bl_label l = {.key = "host", .value = host};
    bl_parse_opts o = {.as = "fio-log", .n_labels = 1, .labels = &l};
    int rc = bl_parse_source(path, &o, out, NULL);
    free(host);
    return rc;
}

/* The record of host and op that the log feeds: the one whose job is the log's name, else
 * the only one of that host and direction; NULL when none or several. */
static bl_record *log_target(bl_records *recs, const char *host, const bl_record *lr)
{
    bl_record *only = NULL;
    int n = 0;
    const char *job = bl_record_label(lr, "job");
    for (size_t i = 0; i < recs->n; i++) {
        bl_record *r = recs->v[i];
        const char *h = bl_record_label(r, "host"), *j = bl_record_label(r, "job");
        if (!h || strcmp(h, host) != 0 || !r->op || !lr->op || strcmp(r->op, lr->op) != 0)
            continue;
        if (job && j && strcmp(job, j) == 0)
            return r;
        only = r;
        n++;
    }
    return n == 1 ? only : NULL;
}

static void move_series(bl_record *dst, bl_record *src)
{
    dst->series = bl_xrealloc(dst->series, (dst->n_series + src->n_series) * sizeof *dst->series);
    memcpy(dst->series + dst->n_series, src->series, src->n_series * sizeof *src->series);
    dst->n_series += src->n_series;
    free(src->series);
    src->series = NULL;
    src->n_series = 0;
}

static int is_log(const struct dirent *e)
{
    char *h = bl_fio_client_log_host(e->d_name);
    free(h);
    return h != NULL;
}

size_t bl_fio_client_attach_logs(const char *dir, bl_records *recs)
{
    struct dirent **names;
    int n = scandir(dir, &names, is_log, alphasort);
    size_t attached = 0;
    for (int i = 0; i < n; i++) {
        bl_strbuf path;
        bl_strbuf_init(&path);
        bl_strbuf_printf(&path, "%s/%s", dir, names[i]->d_name);
        char *host = bl_fio_client_log_host(path.s);
        bl_parse_out o;
        bl_out_init(&o, path.s);
        if (bl_fio_client_read_log(path.s, &o) != 2)
            for (size_t k = 0; k < o.recs.n; k++) {
                bl_record *lr = o.recs.v[k], *r = log_target(recs, host, lr);
                if (r && lr->n_series) {
                    attached += lr->n_series;
                    move_series(r, lr);
                }
            }
        bl_out_free(&o);
        free(host);
        bl_strbuf_free(&path);
        free(names[i]);
    }
    if (n > 0)
        free(names);
    return attached;
}
