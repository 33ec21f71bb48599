/* bench/report.sh's store: N records in R runs of several hosts, as the parsers make them
 * (fio jobs with clat percentiles, bonnie++ block writes and seeks, CrystalDiskMark cells),
 * figures drawn from a fixed-seed generator so every run of the bench is the same.
 *
 *   gen_store DB RECORDS RUNS [many]
 * many: each run its own source file (as a store of many dd files): a shape per run and kind,
 * thousands of shapes, where the default makes 20 hosts' 8 kinds. */
#include "../core/store.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 88172645463325252ULL;

static double jitter(double v, double rel) /* v ± rel, xorshift64 */
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return v * (1 + rel * ((double)(seed % 2001) / 1000.0 - 1));
}

static const struct {
    const char *tool, *test, *op;
    long bs, q, t;
    double mbps, iops, lat_us;
} kinds[] = {
    {"fio", "seq-read", "read", 1048576, 8, 1, 1800, 1716, 4600},
    {"fio", "seq-write", "write", 1048576, 8, 1, 1500, 1430, 5500},
    {"fio", "rand-read", "read", 4096, 32, 1, 420, 102539, 310},
    {"fio", "rand-write", "write", 4096, 32, 1, 260, 63476, 500},
    {"fio", "rand-read", "read", 4096, 1, 1, 55, 13427, 74},
    {"fio", "rand-write", "write", 4096, 1, 1, 120, 29296, 33},
    {"bonnie++", "seq-write-block", "write", 8192, -1, -1, 310, 0, 0},
    {"bonnie++", "rand-seeks", "meta", -1, -1, -1, 0, 0, 0},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static bl_record *make(size_t k, long run, long line, const char *host, long file)
{
    bl_record *r = bl_record_new();
    char src[64];
    if (file >= 0)
        snprintf(src, sizeof src, "bench/%s-%ld.txt", host, file);
    else
        snprintf(src, sizeof src, "bench/%s.txt", host);
    bl_record_set_str(&r->source, src);
    r->line = line;
    r->run = run;
    bl_record_set_str(&r->tool, kinds[k].tool);
    bl_record_set_str(&r->tool_version, strcmp(kinds[k].tool, "fio") ? "1.98" : "3.33");
    bl_record_set_label(r, "host", host);
    bl_record_set_label(r, "section", "nightly");
    bl_record_set_str(&r->test, kinds[k].test);
    bl_record_set_str(&r->op, kinds[k].op);
    bl_record_set_str(&r->pattern, strncmp(kinds[k].test, "rand", 4) ? "seq" : "rand");
    r->bs = kinds[k].bs;
    r->iodepth = kinds[k].q;
    r->numjobs = kinds[k].t;
    if (kinds[k].mbps > 0)
        r->bw_bytes_s = jitter(kinds[k].mbps * 1e6, 0.1);
    if (kinds[k].iops > 0)
        r->iops = jitter(kinds[k].iops, 0.1);
    if (kinds[k].lat_us > 0) {
        double m = jitter(kinds[k].lat_us * 1e3, 0.1);
        r->clat_ns.mean = m;
        static const double pct[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                     80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
        for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++)
            bl_lat_add_pct(&r->clat_ns, pct[i], m * (0.5 + pct[i] / 100) * (pct[i] > 99 ? 3 : 1));
    }
    if (strcmp(kinds[k].test, "rand-seeks") == 0) {
        bl_record_set_str(&r->metric, "seeks");
        bl_record_set_str(&r->unit, "ops/s");
        r->value = jitter(950, 0.1);
    }
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && strcmp(argv[4], "many") == 0)) {
        fprintf(stderr, "usage: gen_store DB RECORDS RUNS [many]\n");
        return 2;
    }
    long n = atol(argv[2]), runs = atol(argv[3]), per = (n + runs - 1) / runs, done = 0;
    char err[512];
    bl_store *s = bl_store_open(argv[1], err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (long run = 0; run < runs && done < n; run++) {
        char host[32];
        snprintf(host, sizeof host, "nas%02ld", run % 20);
        bl_records rs;
        bl_records_init(&rs);
        for (long i = 0; i < per && done < n; i++, done++)
            bl_records_push(
                &rs, make((size_t)i % N_KINDS, run / 20 + 1, 10 + i, host, argc == 5 ? run : -1));
        if (bl_store_import(s, rs.v[0]->source, NULL, "bench", &rs, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        bl_records_free(&rs);
    }
    bl_store_close(s);
    printf("%ld records in %ld runs\n", done, runs);
    return 0;
}
