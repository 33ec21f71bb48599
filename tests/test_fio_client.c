/* fio client/server mode: the fio-client format on real fio 3.33 outputs (fixtures/fio-client,
 * made by make-fixtures.sh there), bad input, per-host log names, and the report by host.
 * Live runs against fio servers are in test_fio_hosts.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/latency.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../parsers/fio_client.h"
#include "support/cluster.h"
#include "support/support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANDREAD "fio-client/randread-3hosts-3.33.json"
#define TWOJOBS "fio-client/two-jobs-3hosts-3.33.json"
#define NORMALJSON "fio-client/randread-3hosts-3.33-normal+json.txt"
#define SYNC "fio-client/sync-2hosts-3.33.json"

/* Three hosts, one job: figures as fio printed them, in model units. */
static void test_randread_hosts(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    assert_int_equal(bl_test_parse(bl_test_fixture(RANDREAD, path, sizeof path), NULL, &o), 0);
    assert_int_equal(o.recs.n, 4);
    const bl_record *h8 = bl_test_host_rec(&o, "127.0.0.1:8768", "randread", "read");
    const bl_record *h6 = bl_test_host_rec(&o, "127.0.0.1:8766", "randread", "read");
    const bl_record *h7 = bl_test_host_rec(&o, "127.0.0.1:8767", "randread", "read");
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "randread", "read");
    /* One run per host in the document's order, then the aggregate. */
    assert_int_equal(h8->run, 1);
    assert_int_equal(h6->run, 2);
    assert_int_equal(h7->run, 3);
    assert_int_equal(all->run, 4);
    assert_int_equal(h8->line, 22);
    assert_int_equal(all->line, 1318);
    assert_string_equal(h6->test, "rand-read");
    assert_int_equal(h6->bs, 4096);
    assert_string_equal(h6->ioengine, "psync");
    assert_string_equal(h6->tool_version, "3.33");
    /* 127.0.0.1:8766: "io_bytes" : 5517312, "bw_bytes" : 2362874, "iops" : 576.873662,
     * "runtime" : 2335, clat min 28472 max 511218748 mean 1731941.915367 p50 111104. */
    assert_int_equal(h6->io_bytes, 5517312);
    assert_double_equal(h6->bw_bytes_s, 2362874, 0);
    assert_double_equal(h6->iops, 576.873662, 1e-9);
    assert_double_equal(h6->runtime_s, 2.335, 1e-12);
    assert_double_equal(h6->clat_ns.min, 28472, 0);
    assert_double_equal(h6->clat_ns.max, 511218748, 0);
    assert_double_equal(h6->clat_ns.mean, 1731941.915367, 1e-6);
    assert_double_equal(h6->clat_ns.stdev, 25642798.615004, 1e-6);
    assert_double_equal(bl_test_pct(&h6->clat_ns, 50), 111104, 0);
    assert_double_equal(bl_test_pct(&h6->clat_ns, 99), 1220608, 0);
    assert_double_equal(h6->cpu_usr_pct, 0.299914, 1e-9);
    assert_int_equal(bl_lat_bin_total(&h6->clat_ns), 1347); /* clat "N" : 1347 */
    assert_false(h6->slat_ns.present);                      /* psync: "N" : 0 */
    assert_int_equal(h8->io_bytes, 5459968);
    assert_int_equal(h7->io_bytes, 4878336);
    assert_double_equal(bl_test_pct(&h7->clat_ns, 99), 3555328, 0);

    /* Each host's own percentiles follow from its bins by the same rule: the rule is fio's. */
    const bl_lat *hosts[] = {&h8->clat_ns, &h6->clat_ns, &h7->clat_ns};
    for (size_t h = 0; h < 3; h++)
        for (size_t i = 0; i < hosts[h]->n_pct; i++)
            assert_double_equal(hosts[h]->pct[i].value,
                                bl_test_summed_pct(&hosts[h], 1, hosts[h]->pct[i].pct), 0);

    /* The aggregate: sums, fio's rule for bw and iops (io over the longest runtime), and
     * fio's own "All clients" figures: io_bytes 15855616, bw_bytes 6755694 (integer),
     * iops 1649.339582, runtime 2347, clat mean 1813724.199948 stdev 26212799.77229. */
    assert_int_equal(all->io_bytes, h8->io_bytes + h6->io_bytes + h7->io_bytes);
    assert_int_equal(all->io_bytes, 15855616);
    assert_double_equal(all->runtime_s, 2.347, 1e-12);
    assert_double_equal(all->bw_bytes_s, 15855616 / 2.347, 1e-6);
    assert_double_equal(all->iops, 3871 / 2.347, 1e-9);
    assert_double_equal(all->clat_ns.mean, 1813724.199948, 1e-3);
    assert_double_equal(all->clat_ns.stdev, 26212799.77229, 1e-3);
    assert_double_equal(all->clat_ns.min, 28472, 0);
    assert_double_equal(all->clat_ns.max, 511218748, 0);
    assert_double_equal(all->cpu_usr_pct, 0.099644, 1e-6);
    assert_int_equal(bl_lat_bin_total(&all->clat_ns), 3871);
    /* Cluster percentiles from the summed bins: p50 110080 and p99 1499136 ns, where the
     * mean of the hosts' p99s would say 2015232 ns. */
    assert_double_equal(bl_test_pct(&all->clat_ns, 50), 110080, 0);
    assert_double_equal(bl_test_pct(&all->clat_ns, 99), 1499136, 0);
    assert_double_equal((1269760.0 + 1220608 + 3555328) / 3, 2015232, 0);
    assert_int_equal(bl_test_check_cluster_pcts(all, hosts, 3), 13); /* all but p80, p99.9+ */
    /* fio's All clients gives no percentiles and agrees on the rest. */
    assert_non_null(strstr(all->note, "sum of 3 host entries"));
    assert_non_null(strstr(all->note, "fio's All clients agrees (it gives no percentiles)"));
    bl_out_free(&o);
}

/* fdatasync after every write on two hosts: each host's sync latency as fio printed it, and
 * the cluster's from the summed bins (fio's "All clients" has a sync mean but no percentiles). */
static void test_sync_hosts(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    assert_int_equal(bl_test_parse(bl_test_fixture(SYNC, path, sizeof path), NULL, &o), 0);
    assert_int_equal(o.recs.n, 3);
    const bl_record *h6 = bl_test_host_rec(&o, "127.0.0.1:8766", "etcd", "write");
    const bl_record *h7 = bl_test_host_rec(&o, "127.0.0.1:8767", "etcd", "write");
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "etcd", "write");
    /* 8766: "sync" : {"lat_ns" : {"min" : 109753, "max" : 591780, "mean" : 172653.14902,
     * "N" : 255, 99.000000 : 325632}}; 8767: mean 181690.356863, N 255, max 1060366. */
    assert_double_equal(h6->sync_ns.min, 109753, 0);
    assert_double_equal(h6->sync_ns.max, 591780, 0);
    assert_double_equal(h6->sync_ns.mean, 172653.14902, 1e-6);
    assert_double_equal(bl_test_pct(&h6->sync_ns, 99), 325632, 0);
    assert_int_equal(bl_lat_bin_total(&h6->sync_ns), 255);
    assert_int_equal(bl_lat_bin_total(&h7->sync_ns), 255);
    assert_true(all->sync_ns.present);
    assert_int_equal(bl_lat_bin_total(&all->sync_ns), 510);
    assert_double_equal(all->sync_ns.min, 109753, 0);
    assert_double_equal(all->sync_ns.max, 1060366, 0);
    /* fio's own "All clients" mean: 177171.752941 */
    assert_double_equal(all->sync_ns.mean, (172653.14902 + 181690.356863) / 2, 1e-6);
    assert_double_equal(all->sync_ns.mean, 177171.752941, 1e-6);
    const bl_lat *hosts[] = {&h6->sync_ns, &h7->sync_ns};
    assert_true(all->sync_ns.n_pct == 17);
    for (size_t i = 0; i < all->sync_ns.n_pct; i++)
        assert_double_equal(all->sync_ns.pct[i].value,
                            bl_test_summed_pct(hosts, 2, all->sync_ns.pct[i].pct), 0);
    assert_non_null(strstr(all->note, "fio's All clients agrees"));
    assert_false(all->clat_ns.n_bins == 0); /* the writes' own latency is summed as before */
    bl_out_free(&o);
}

/* Two sections on three hosts: per-job aggregates; fio's All clients sums both jobs' reads
 * (kept as its own record) and only "mixed" wrote (compared with our write aggregate). */
static void test_two_jobs(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    assert_int_equal(bl_test_parse(bl_test_fixture(TWOJOBS, path, sizeof path), NULL, &o), 0);
    /* 3 hosts x (reader read, mixed read, mixed write) + 3 aggregates + fio's read sum. */
    assert_int_equal(o.recs.n, 13);
    assert_int_equal(bl_test_count(&o, "host", BL_FIO_ALL_CLIENTS), 4);
    const char *hosts[] = {"127.0.0.1:8768", "127.0.0.1:8766", "127.0.0.1:8767"};
    int64_t rd = 0, mr = 0, mw = 0;
    for (size_t h = 0; h < 3; h++) {
        const bl_record *r = bl_test_host_rec(&o, hosts[h], "reader", "read");
        assert_int_equal(r->run, (int64_t)h + 1);
        assert_int_equal(bl_test_host_rec(&o, hosts[h], "mixed", "write")->run, (int64_t)h + 1);
        assert_string_equal(bl_test_host_rec(&o, hosts[h], "mixed", "write")->test, "rand-write");
        rd += r->io_bytes;
        mr += bl_test_host_rec(&o, hosts[h], "mixed", "read")->io_bytes;
        mw += bl_test_host_rec(&o, hosts[h], "mixed", "write")->io_bytes;
    }
    /* fio printed: reader 18522112 + 18866176 + 19111936, mixed writes 8138752 + 8134656 +
     * 8228864, All clients read 112631808 and write 24502272. */
    assert_int_equal(rd, 18522112 + 18866176 + 19111936);
    assert_int_equal(mw, 24502272);
    assert_int_equal(bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "reader", "read")->io_bytes, rd);
    assert_int_equal(bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "mixed", "read")->io_bytes, mr);
    const bl_record *w = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "mixed", "write");
    assert_int_equal(w->io_bytes, mw);
    assert_int_equal(w->run, 4);
    assert_non_null(strstr(w->note, "fio's All clients agrees"));
    const bl_record *fio = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "All clients", "read");
    assert_int_equal(fio->io_bytes, 112631808);
    assert_int_equal(fio->io_bytes, rd + mr);
    assert_string_equal(fio->test, "rand-read"); /* both jobs read at random */
    assert_string_equal(fio->note, "fio's own sum over every job of every host");
    const bl_lat *mixed[3];
    for (size_t h = 0; h < 3; h++)
        mixed[h] = &bl_test_host_rec(&o, hosts[h], "mixed", "write")->clat_ns;
    bl_test_check_cluster_pcts(w, mixed, 3);
    bl_out_free(&o);
}

/* numjobs=2 on two hosts: without group_reporting each host gives two clone entries (each
 * ran alone: numjobs 1), with it one entry of numjobs 2; the aggregate holds both clones. */
static void test_numjobs(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    bl_test_parse(bl_test_fixture("fio-client/numjobs2-clones-2hosts-3.33.json", path, sizeof path),
                  NULL, &o);
    assert_int_equal(o.recs.n, 5);
    assert_int_equal(bl_test_count(&o, "host", "127.0.0.1:8766"), 2);
    const bl_record *c0 = bl_test_nth(&o, "host", "127.0.0.1:8766", 0);
    const bl_record *c1 = bl_test_nth(&o, "host", "127.0.0.1:8766", 1);
    assert_int_equal(c0->numjobs, 1);
    assert_int_equal(c0->run, c1->run); /* one run per host */
    assert_int_equal(c0->io_bytes + c1->io_bytes, 37138432 + 39645184);
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "rr", "read");
    assert_int_equal(all->numjobs, 2);
    assert_int_equal(all->io_bytes, 154861568); /* fio's All clients io_bytes */
    assert_non_null(strstr(all->note, "sum of 4 host entries"));
    assert_non_null(strstr(all->note, "fio's All clients agrees"));
    bl_out_free(&o);
    bl_test_parse(
        bl_test_fixture("fio-client/numjobs2-grouped-2hosts-3.33.json", path, sizeof path), NULL,
        &o);
    assert_int_equal(o.recs.n, 3);
    assert_int_equal(bl_test_host_rec(&o, "127.0.0.1:8767", "rr", "read")->numjobs, 2);
    assert_int_equal(bl_test_host_rec(&o, "127.0.0.1:8767", "rr", "read")->io_bytes, 102834176);
    assert_int_equal(bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "rr", "read")->io_bytes, 204824576);
    bl_out_free(&o);
}

static char *slurp_fixture(const char *rel, size_t *len)
{
    char path[512];
    char *s = bl_test_slurp_n(bl_test_fixture(rel, path, sizeof path), len);
    assert_non_null(s);
    return s;
}

/* Text before and after the document (client mode's "hostname=" lines, prose, a second
 * message) does not matter; lines still point into the whole text. */
static void test_text_around(void **state)
{
    (void)state;
    size_t n;
    char *json = slurp_fixture(RANDREAD, &n);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_puts(&sb, "Our cluster run, pasted from the terminal:\n"
                        "hostname=node1, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33\n"
                        "<node1> randread: (g=0): rw=randread, bs=(R) 4096B-4096B\n");
    bl_strbuf_putn(&sb, json, n);
    bl_strbuf_puts(&sb, "\n<node1> fio: terminating on signal 2\nThat was all.\n");
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "pasted.txt", sb.s, sb.len, err, sizeof err), 0);
    bl_parse_out o;
    bl_out_init(&o, "pasted.txt");
    bl_parse_opts opts = {0};
    assert_int_equal(bl_parse_text(&t, &opts, &o), 0);
    assert_int_equal(bl_test_count(&o, NULL, NULL), 4);
    assert_int_equal(bl_test_host_rec(&o, "127.0.0.1:8768", "randread", "read")->line, 22 + 3);
    assert_int_equal(bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "randread", "read")->io_bytes,
                     15855616);
    bl_out_free(&o);
    bl_text_free(&t);

    /* fio --output-format=normal,json+ on stdout: the normal text first, then the JSON. */
    char path[512];
    assert_int_equal(
        bl_test_parse(bl_test_fixture(NORMALJSON, path, sizeof path), "fio-client", &o), 0);
    assert_int_equal(o.recs.n, 4);
    assert_int_equal(bl_test_count(&o, "host", BL_FIO_ALL_CLIENTS), 1);
    bl_out_free(&o);
    bl_strbuf_free(&sb);
    free(json);
}

/* Where fio's own "All clients" figures differ from ours, the note keeps them. Two hosts:
 * n1 timed 1000, 1000, 1000, 2000 ns, n2 2000 and 4000 ns (bins as JSON+ gives them). */
static void test_fio_all_differs(void **state)
{
    (void)state;
    const char *text =
        "{\"fio version\":\"fio-3.33\",\"client_stats\":[\n"
        "{\"jobname\":\"j\",\"hostname\":\"n1\",\"port\":8765,\"job "
        "options\":{\"rw\":\"randread\"},\n"
        " \"read\":{\"io_bytes\":16384,\"io_kbytes\":16,\"bw_bytes\":16384,\"iops\":4,\"runtime\":"
        "1000,"
        "\"total_ios\":4,\"clat_ns\":{\"min\":1000,\"max\":2000,\"mean\":1250,\"stddev\":500,"
        "\"N\":4,\"percentile\":{\"50.000000\":1000,\"99.000000\":2000},"
        "\"bins\":{\"1000\":3,\"2000\":1}}}},\n"
        "{\"jobname\":\"j\",\"hostname\":\"n2\",\"port\":8765,\"job "
        "options\":{\"rw\":\"randread\"},\n"
        " \"read\":{\"io_bytes\":8192,\"io_kbytes\":8,\"bw_bytes\":4096,\"iops\":1,\"runtime\":"
        "2000,"
        "\"total_ios\":2,\"clat_ns\":{\"min\":2000,\"max\":4000,\"mean\":3000,"
        "\"stddev\":1414.2135623730951,\"N\":2,\"percentile\":{\"50.000000\":2000,"
        "\"99.000000\":4000},\"bins\":{\"2000\":1,\"4000\":1}}}},\n"
        "{\"jobname\":\"All clients\",\"hostname\":\"n2\",\"port\":8765,\n"
        " \"read\":{\"io_bytes\":24576,\"io_kbytes\":24,\"bw_bytes\":12000,\"iops\":3,\"runtime\":"
        "2000,"
        "\"clat_ns\":{\"min\":1000,\"max\":4000,\"mean\":1833.333333,\"stddev\":1169.045194,"
        "\"N\":6,\"percentile\":{\"50.000000\":1000,\"99.000000\":2000}}}}]}\n";
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "diff.json", text, strlen(text), err, sizeof err), 0);
    bl_parse_out o;
    bl_out_init(&o, "diff.json");
    bl_parse_opts opts = {0};
    assert_int_equal(bl_parse_text(&t, &opts, &o), 0);
    assert_int_equal(o.recs.n, 3);
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "j", "read");
    assert_int_equal(all->line, 6);
    assert_int_equal(all->io_bytes, 24576);
    assert_double_equal(all->bw_bytes_s, 12288, 0); /* 24576 B over the longest 2 s */
    assert_double_equal(all->iops, 3, 0);
    assert_double_equal(all->clat_ns.mean, 11000.0 / 6, 1e-9);
    assert_double_equal(all->clat_ns.stdev, sqrt(6833333.333333333 / 5), 1e-6);
    assert_double_equal(bl_test_pct(&all->clat_ns, 50), 1000, 0);
    assert_double_equal(bl_test_pct(&all->clat_ns, 99), 4000, 0); /* 5.94 of 6 I/Os */
    assert_string_equal(all->note, "sum of 2 host entries: bw and iops over the longest runtime, "
                                   "percentiles from the summed latency bins; fio's All clients "
                                   "differs: bw 12000 B/s, clat p99 2000 ns");
    bl_out_free(&o);
    bl_text_free(&t);
}

/* fio 2.x units (io_bytes and bw in KiB, latencies in usec) with unified_rw_reporting's
 * "mixed" direction, as fio 2.x client mode writes them. */
static void test_fio2_mixed(void **state)
{
    (void)state;
    const char *text =
        "{\"fio version\":\"fio-2.6\",\"global options\":{\"unified_rw_reporting\":\"1\"},\n"
        " \"client_stats\":[\n"
        "  {\"jobname\":\"m\",\"hostname\":\"a\",\"port\":8765,\"job "
        "options\":{\"rw\":\"randrw\"},\n"
        "   \"mixed\":{\"io_bytes\":1000,\"bw\":100,\"iops\":25,\"runtime\":10000,"
        "\"total_ios\":250,\"lat\":{\"min\":10,\"max\":900,\"mean\":40.5,\"stddev\":3}}},\n"
        "  {\"jobname\":\"m\",\"hostname\":\"b\",\"port\":8765,\"job "
        "options\":{\"rw\":\"randrw\"},\n"
        "   \"mixed\":{\"io_bytes\":3000,\"bw\":300,\"iops\":75,\"runtime\":10000,"
        "\"total_ios\":750,\"lat\":{\"min\":5,\"max\":100,\"mean\":20.5,\"stddev\":1}}}]}\n";
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "mixed.json", text, strlen(text), err, sizeof err), 0);
    bl_parse_out o;
    bl_out_init(&o, "mixed.json");
    bl_parse_opts opts = {0};
    assert_int_equal(bl_parse_text(&t, &opts, &o), 0);
    assert_int_equal(o.recs.n, 3);
    const bl_record *a = bl_test_nth(&o, "host", "a", 0);
    assert_null(a->op);
    assert_string_equal(bl_record_label(a, "ddir"), "mixed");
    assert_int_equal(a->io_bytes, 1000 * 1024);
    assert_double_equal(a->bw_bytes_s, 100 * 1024, 0);
    assert_double_equal(a->lat_ns.mean, 40500, 0);
    assert_double_equal(a->lat_ns.max, 900000, 0);
    const bl_record *all = bl_test_nth(&o, "host", BL_FIO_ALL_CLIENTS, 0);
    assert_string_equal(bl_record_label(all, "ddir"), "mixed");
    assert_int_equal(all->io_bytes, 4000 * 1024);
    assert_double_equal(all->iops, 100, 1e-12); /* 1000 I/Os over 10 s */
    /* No "N" in fio 2.x: each host's I/O count weighs its mean, 250 x 40.5 and 750 x 20.5 us. */
    assert_double_equal(all->lat_ns.mean, 25500, 1e-9);
    assert_double_equal(all->lat_ns.min, 5000, 0);
    assert_double_equal(all->lat_ns.max, 900000, 0);
    assert_false(all->slat_ns.present);
    bl_out_free(&o);
    bl_text_free(&t);

    /* A client run where no server started: fio's message, then an empty client_stats. */
    const char *empty = "<node-a> error: failed to setup shm segment\n\n"
                        "{ \"fio version\" : \"fio-3.33\", \"global options\" : {}, "
                        "\"client_stats\" : [], \"disk_util\" : [] }\n";
    assert_int_equal(bl_text_from_bytes(&t, "empty.json", empty, strlen(empty), err, sizeof err),
                     0);
    bl_out_init(&o, "empty.json");
    assert_int_equal(bl_parse_text(&t, &opts, &o), 1);
    assert_int_equal(o.recs.n, 0);
    assert_int_equal(o.n_diags, 1);
    assert_int_equal(o.diags[0].line, 3);
    assert_non_null(strstr(o.diags[0].msg, "\"client_stats\" is empty"));
    bl_out_free(&o);
    bl_text_free(&t);
}

/* fio-json leaves client documents to us: it reads "jobs" arrays only. */
static void test_fio_json_leaves_it(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    bl_test_parse(bl_test_fixture(RANDREAD, path, sizeof path), "fio-json", &o);
    assert_int_equal(o.recs.n, 0);
    bl_out_free(&o);
}

/* A broken entry and a truncated second document: messages with lines, good records kept. */
static void test_bad_input(void **state)
{
    (void)state;
    const char *text =
        "{\"fio version\":\"fio-3.33\",\n"
        " \"client_stats\":[\n"
        "  {\"jobname\":\"a\",\"hostname\":\"n1\",\"port\":8765,\"job "
        "options\":{\"rw\":\"read\"},\n"
        "   \"read\":{\"io_bytes\":4096,\"io_kbytes\":4,\"bw_bytes\":4096,\"iops\":1,"
        "\"runtime\":1000}},\n"
        "  42,\n"
        "  {\"jobname\":\"a\",\"hostname\":\"n2\",\"port\":8765,\"job "
        "options\":{\"rw\":\"read\"},\n"
        "   \"read\":{\"io_bytes\":8192,\"io_kbytes\":8,\"bw_bytes\":4096,\"iops\":1,"
        "\"runtime\":2000}}]}\n"
        "later:\n"
        "{\"fio version\":\"fio-3.33\",\n"
        " \"client_stats\":[{\"jobname\":\"b\",\n";
    bl_text t;
    char err[128];
    assert_int_equal(bl_text_from_bytes(&t, "bad.json", text, strlen(text), err, sizeof err), 0);
    bl_parse_out o;
    bl_out_init(&o, "bad.json");
    bl_parse_opts opts = {.as = "fio-client"};
    assert_int_equal(bl_parse_text(&t, &opts, &o), 1);
    assert_int_equal(o.n_diags, 2);
    assert_int_equal(o.diags[0].line, 3); /* the entry after line 3's "jobname" is not one */
    assert_non_null(strstr(o.diags[0].msg, "client_stats[1]"));
    assert_int_equal(o.diags[1].line, 10); /* where the text ends */
    assert_non_null(strstr(o.diags[1].msg, "fio client JSON"));
    assert_int_equal(o.recs.n, 3);
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "a", "read");
    assert_int_equal(all->io_bytes, 12288);
    assert_double_equal(all->bw_bytes_s, 12288 / 2.0, 0); /* over the longest runtime, 2 s */
    assert_int_equal(bl_test_host_rec(&o, "n2", "a", "read")->io_bytes, 8192);
    assert_non_null(strstr(all->note, "sum of 2 host entries"));
    bl_out_free(&o);
    bl_text_free(&t);
}

static void test_log_host(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"work/lg_bw.1.log.127.0.0.1", "127.0.0.1"},
        {"job_clat.2.log.node7.example.com", "node7.example.com"},
        {"x_lat.log.localhost", "localhost"},
        {"/a.log.b/lg_bw.1.log", NULL}, /* the folder's ".log." is not the file's */
        {"lg_bw.1.log", NULL},
        {"lg_bw.1.log.", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *h = bl_fio_client_log_host(cases[i][0]);
        if (cases[i][1])
            assert_string_equal(h, cases[i][1]);
        else
            assert_null(h);
        free(h);
    }
    bl_parse_out o;
    bl_out_init(&o, "lg_bw.1.log");
    assert_int_equal(bl_fio_client_read_log("lg_bw.1.log", &o), 2);
    assert_int_equal(o.n_diags, 1);
    bl_out_free(&o);
}

/* `benchlog report --by host` over an import of the fixture: one column per host and the
 * "all clients" column beside them; and the percentile chart by host. */
static void test_report_by_host(void **state)
{
    (void)state;
    char path[512], *out = NULL, *err = NULL, cmd[1400];
    char *dir = bl_test_tmpdir();
    snprintf(cmd, sizeof cmd, "import --db %s/r.db %s", dir,
             bl_test_fixture(RANDREAD, path, sizeof path));
    assert_int_equal(bl_test_benchlog(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "report --db %s/r.db --by host --csv", dir);
    assert_int_equal(bl_test_benchlog(cmd, &out, &err), 0);
    char *nl = strchr(out, '\n');
    assert_non_null(nl);
    *nl = '\0';
    const char *cols[] = {"127.0.0.1:8768 MB/s", "127.0.0.1:8766 MB/s", "127.0.0.1:8767 MB/s",
                          "all clients MB/s"};
    const char *prev = out;
    for (size_t i = 0; i < 4; i++) { /* side by side, hosts first */
        const char *at = strstr(out, cols[i]);
        assert_non_null(at);
        assert_true(at >= prev);
        prev = at;
    }
    /* rand-read row: 2.362874 MB/s for :8766, 6.75569493 MB/s (15855616 B / 2.347 s) for all. */
    assert_non_null(strstr(nl + 1, "rand-read,4096,"));
    assert_non_null(strstr(nl + 1, ",2.362874,"));
    assert_non_null(strstr(nl + 1, ",6.75569493,"));
    free(out);
    free(err);
    /* The hosts' spread as a chart: each host's percentile curve and the cluster's. */
    snprintf(cmd, sizeof cmd, "chart --db %s/r.db --kind percentiles --by host -o %s/spread.png",
             dir, dir);
    assert_int_equal(bl_test_benchlog(cmd, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/spread.png", dir);
    FILE *f = fopen(path, "rb");
    unsigned char sig[8] = {0};
    assert_non_null(f);
    assert_int_equal(fread(sig, 1, 8, f), 8);
    fclose(f);
    assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
    free(dir);
}

/* The normal text of fio --client: "<vm>" above a job block names its server; a block
 * without one says so in note; "All clients" gets host "all clients" and its jobs' test. */
static void test_normal_text_hosts(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    bl_out_init(&o, NORMALJSON);
    assert_int_equal(bl_test_parse(bl_test_fixture(NORMALJSON, path, sizeof path), "fio", &o), 0);
    assert_int_equal(o.recs.n, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(o.recs.v[i]->test, "rand-read");
        assert_int_equal(o.recs.v[i]->bs, 4096);
    }
    /* line 11 under "<vm> ": "read: IOPS=8941, BW=34.9MiB/s" */
    assert_int_equal(o.recs.v[0]->line, 11);
    assert_string_equal(bl_record_label(o.recs.v[0], "host"), "vm");
    assert_double_equal(o.recs.v[0]->iops, 8941, 0);
    assert_string_equal(bl_record_label(o.recs.v[1], "host"), "vm");
    assert_double_equal(o.recs.v[1]->iops, 8846, 0);
    /* line 67 follows the Disk stats of the block before: no <host> line */
    assert_int_equal(o.recs.v[2]->line, 67);
    assert_null(bl_record_label(o.recs.v[2], "host"));
    assert_non_null(strstr(o.recs.v[2]->note, "not known"));
    assert_string_equal(bl_record_label(o.recs.v[3], "host"), "all clients");
    assert_string_equal(bl_record_label(o.recs.v[3], "job"), "All clients");
    assert_double_equal(o.recs.v[3]->iops, 26900, 0);
    bl_out_free(&o);
}

int main(void)
{
    const struct CMUnitTest fixtures[] = {
        cmocka_unit_test(test_randread_hosts),  cmocka_unit_test(test_two_jobs),
        cmocka_unit_test(test_sync_hosts),      cmocka_unit_test(test_numjobs),
        cmocka_unit_test(test_text_around),     cmocka_unit_test(test_fio_json_leaves_it),
        cmocka_unit_test(test_bad_input),       cmocka_unit_test(test_log_host),
        cmocka_unit_test(test_fio_all_differs), cmocka_unit_test(test_fio2_mixed),
        cmocka_unit_test(test_report_by_host),  cmocka_unit_test(test_normal_text_hosts),
    };
    return cmocka_run_group_tests_name("fio-client fixtures", fixtures, NULL, NULL);
}
