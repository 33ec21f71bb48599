/* Results of a phase -> records in the model's units, labelled like imported ones. */
#include "../core/strbuf.h"
#include "../core/version.h"
#include "exec.h"
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

typedef struct agg {
    bl_wstat st;
    double runtime, usr, sys;
    int numjobs;
    size_t ns;
    double *t, *bw[2], *iops[2];
} agg;

static void agg_add(agg *a, const bl_job_result *r)
{
    for (int d = 0; d < 2; d++) {
        a->st.ios[d] += r->st->ios[d];
        a->st.bytes[d] += r->st->bytes[d];
        bl_lat_acc_merge(&a->st.slat[d], &r->st->slat[d]);
        bl_lat_acc_merge(&a->st.clat[d], &r->st->clat[d]);
        bl_lat_acc_merge(&a->st.lat[d], &r->st->lat[d]);
    }
    for (int i = 0; i < BL_DEPTH_BUCKETS; i++)
        a->st.depth_map[i] += r->st->depth_map[i];
    bl_lat_acc_merge(&a->st.sync, &r->st->sync);
    a->st.has_slat |= r->st->has_slat;
    a->runtime = r->runtime_s > a->runtime ? r->runtime_s : a->runtime;
    a->usr += r->usr_s;
    a->sys += r->sys_s;
    a->numjobs += r->job.numjobs;
    /* Samples of jobs that ran together add up interval by interval. */
    if (!a->t) {
        a->ns = r->n_samples;
        a->t = bl_xcalloc(a->ns + 1, sizeof *a->t);
        memcpy(a->t, r->t, a->ns * sizeof *a->t);
        for (int d = 0; d < 2; d++) {
            a->bw[d] = bl_xcalloc(a->ns + 1, sizeof *a->bw[d]);
            a->iops[d] = bl_xcalloc(a->ns + 1, sizeof *a->iops[d]);
        }
    }
    if (r->n_samples < a->ns)
        a->ns = r->n_samples;
    for (size_t i = 0; i < a->ns; i++)
        for (int d = 0; d < 2; d++) {
            a->bw[d][i] += r->bw[d][i];
            a->iops[d][i] += r->iops[d][i];
        }
}

static void agg_free(agg *a)
{
    free(a->t);
    for (int d = 0; d < 2; d++) {
        free(a->bw[d]);
        free(a->iops[d]);
    }
}

static void add_labels(const bl_exec *ex, const bl_job_result *r, bl_record *rec)
{
    const bl_run_opts *o = ex->o;
    bl_record_set_label(rec, "job", r->job.name);
    if (r->job.description)
        bl_record_set_label(rec, "description", r->job.description);
    if (r->job.cdm_test)
        bl_record_set_label(rec, "cdm_test", r->job.cdm_test);
    if (o->suite)
        bl_record_set_label(rec, "suite", o->suite);
    const bl_target *t = r->target;
    /* A scratch file's name means nothing later: the folder it was made in does. */
    char *copy = bl_xstrdup(t->path), dir[4096];
    const char *where = t->scratch && realpath(dirname(copy), dir) ? dir : t->path;
    bl_record_set_label(rec, "target", where);
    free(copy);
    bl_record_set_label(rec, "fs", t->fstype ? t->fstype : "unknown");
    char model[256];
    bl_device_model(t->path, model, sizeof model);
    if (model[0])
        bl_record_set_label(rec, "device", model);
    struct utsname u;
    if (uname(&u) == 0) {
        bl_record_set_label(rec, "kernel", u.release);
        bl_record_set_label(rec, "host", u.nodename);
    }
    bl_record_set_label(rec, "date", ex->date);
    bl_record_set_str(&rec->when, ex->date); /* the run's start, UTC */
    bl_record_set_str(&rec->when_from, "run");
    if (r->job.direct && !r->direct)
        bl_record_set_label(rec, "direct_fallback", "O_DIRECT refused: buffered I/O");
    if (r->job.ss.on) {
        char b[64];
        bl_record_set_label(rec, "ss", bl_ss_name(&r->job.ss, b, sizeof b));
        bl_record_set_label(rec, "ss_attained", r->ss.attained ? "yes" : "no");
        if (r->ss.attained) {
            snprintf(b, sizeof b, "%.1f", r->ss.at_s);
            bl_record_set_label(rec, "ss_time_s", b);
        }
        if (r->ss.n == r->job.ss.dur_s) {
            snprintf(b, sizeof b, "%.4g", r->ss.criterion);
            bl_record_set_label(rec, "ss_criterion", b);
        }
    }
    if (r->job.nrfiles > 1) {
        char b[16];
        snprintf(b, sizeof b, "%d", r->job.nrfiles);
        bl_record_set_label(rec, "nrfiles", b);
    }
    if (r->job.fallocate != BL_FALLOC_NATIVE)
        bl_record_set_label(rec, "fallocate", bl_falloc_name(r->job.fallocate));
    if (r->job.dist) {
        char dn[48];
        bl_record_set_label(rec, "random_distribution",
                            bl_dist_name(r->job.dist, r->job.dist_param, dn, sizeof dn));
    }
    for (size_t i = 0; i < o->n_labels; i++)
        bl_record_set_label(rec, o->labels[i].key, o->labels[i].value);
}

static void fill_samples(const agg *a, int d, bl_record *rec)
{
    bl_samples_from(a->bw[d], a->ns, &rec->bw_samples);
    bl_samples_from(a->iops[d], a->ns, &rec->iops_samples);
    /* One series at a time: adding a series may move the ones before it. */
    bl_series *bw = bl_record_add_series(rec, "bw", "bytes/s");
    for (size_t i = 0; i < a->ns; i++)
        bl_series_push(bw, a->t[i], a->bw[d][i]);
    bl_series *io = bl_record_add_series(rec, "iops", "IO/s");
    for (size_t i = 0; i < a->ns; i++)
        bl_series_push(io, a->t[i], a->iops[d][i]);
}

/* fio's "IO depths" line: every bucket, in percent of submissions. */
static void fill_depths(const agg *a, bl_record *rec)
{
    uint64_t total = 0;
    for (int i = 0; i < BL_DEPTH_BUCKETS; i++)
        total += a->st.depth_map[i];
    if (total == 0)
        return;
    for (int i = 0; i < BL_DEPTH_BUCKETS; i++)
        bl_dist_add(&rec->iodepth_dist, (double)(1u << i), i == BL_DEPTH_BUCKETS - 1,
                    (double)a->st.depth_map[i] * 100.0 / (double)total);
}

static bl_record *make_record(const bl_exec *ex, const bl_job_result *r, const agg *a, int d)
{
    const bl_job *j = &r->job;
    bl_record *rec = bl_record_new();
    bl_record_set_str(&rec->source, ex->o->source ? ex->o->source : "benchlog run");
    rec->line = j->line > 0 ? j->line : -1;
    rec->run = 1;
    bl_record_set_str(&rec->tool, "benchlog");
    bl_record_set_str(&rec->tool_version, BENCHLOG_VERSION);
    add_labels(ex, r, rec);
    bl_record_set_str(&rec->test, bl_job_test_name(j, (bl_dir)d));
    bl_record_set_str(&rec->op, d == BL_DIR_READ ? "read" : j->is_trim ? "trim" : "write");
    bl_record_set_str(&rec->pattern, j->random ? "rand" : "seq");
    rec->bs = (int64_t)j->bs;
    rec->iodepth = j->iodepth;
    rec->numjobs = a->numjobs;
    bl_record_set_str(&rec->ioengine, j->engine->name);
    rec->direct = r->direct ? BL_TRUE : BL_FALSE;
    /* nrfiles: the files' sizes together, as fio's size= is the job's total */
    uint64_t avail = r->target->size > j->offset ? r->target->size - j->offset : 0;
    uint64_t fsize = j->size / (uint64_t)j->nrfiles;
    rec->size_bytes = (int64_t)((fsize && fsize < avail ? fsize : avail) * (uint64_t)j->nrfiles);
    rec->io_bytes = (int64_t)a->st.bytes[d];
    rec->runtime_s = a->runtime;
    if (a->runtime > 0) {
        rec->bw_bytes_s = (double)a->st.bytes[d] / a->runtime;
        rec->iops = (double)a->st.ios[d] / a->runtime;
        double cpu_time = a->runtime * a->numjobs;
        rec->cpu_usr_pct = a->usr / cpu_time * 100;
        rec->cpu_sys_pct = a->sys / cpu_time * 100;
    }
    if (a->st.has_slat)
        bl_lat_acc_to_record(&a->st.slat[d], &rec->slat_ns);
    bl_lat_acc_to_record(&a->st.clat[d], &rec->clat_ns);
    bl_lat_acc_to_record(&a->st.lat[d], &rec->lat_ns);
    if (d == BL_DIR_WRITE)
        bl_lat_acc_to_record(&a->st.sync, &rec->sync_ns);
    fill_samples(a, d, rec);
    fill_depths(a, rec);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (j->iodepth_asked > 1)
        bl_strbuf_printf(&sb, "iodepth=%d asked; the %s engine ran one I/O at a time",
                         j->iodepth_asked, j->engine->name);
    if (d == BL_DIR_WRITE && j->verify && j->do_verify)
        bl_strbuf_printf(&sb, "%sverify=%s: %llu blocks read back after the writes, all good",
                         sb.len ? "; " : "", bl_verify_name(j->verify),
                         (unsigned long long)r->verified);
    if (sb.len)
        rec->note = bl_strbuf_take(&sb);
    else
        bl_strbuf_free(&sb);
    return rec;
}

void bl_results_to_records(const bl_exec *ex, bl_job_result *res, size_t n, bool group,
                           bl_records *out)
{
    for (size_t k = 0; k < n;) {
        size_t end = group ? n : k + 1;
        agg *a = bl_xcalloc(1, sizeof *a);
        for (size_t i = k; i < end; i++)
            agg_add(a, &res[i]);
        for (int d = 0; d < 2; d++) {
            bool used = d == BL_DIR_READ ? res[k].job.is_read : res[k].job.is_write;
            if (res[k].job.verify_only) /* no workload: only the read-back, printed */
                continue;
            if (used || a->st.ios[d] > 0)
                bl_records_push(out, make_record(ex, &res[k], a, d));
        }
        agg_free(a);
        free(a);
        k = end;
    }
}

static double p99_of(const bl_lat *l)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == 99)
            return l->pct[i].value;
    return 0;
}

void bl_print_summary(const bl_exec *ex, const bl_record *r, const char *suffix)
{
    FILE *f = ex->o->msg ? ex->o->msg : stderr;
    const char *name = bl_record_label(r, "cdm_test");
    /* lat (submission + completion) is what CrystalDiskMark shows beside MB/s and IOPS. */
    const bl_lat *l = r->lat_ns.present && bl_present(r->lat_ns.mean) ? &r->lat_ns : &r->clat_ns;
    fprintf(f, "%-14s %-10s %5s: %10.2f MB/s %11.1f IOPS  %s mean %9.1f us  clat p99 %9.1f us",
            name ? name : bl_record_label(r, "job"), r->test, r->op, r->bw_bytes_s / 1e6, r->iops,
            l == &r->lat_ns ? "lat" : "clat", bl_present(l->mean) ? l->mean / 1000 : 0,
            p99_of(&r->clat_ns) / 1000);
    /* The figure the etcd disk check is about. */
    if (r->sync_ns.present)
        fprintf(f, "  sync p99 %9.1f us", p99_of(&r->sync_ns) / 1000);
    fprintf(f, "%s\n", suffix ? suffix : "");
}
