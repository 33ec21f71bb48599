/* fio client/server mode: the fio-client format on real fio 3.33 outputs (fixtures/fio-client,
 * made by make-fixtures.sh there), per-host logs, and live runs of bl_run_fio_hosts against
 * fio servers this program starts on 127.0.0.1 (only the loopback address) and stops by
 * their own pids in the group teardown, whatever the tests did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/latency.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../parsers/fio_client.h"
#include "../runner/fio_hosts.h"
#include "support/support.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RANDREAD "fio-client/randread-3hosts-3.33.json"
#define TWOJOBS "fio-client/two-jobs-3hosts-3.33.json"
#define NORMALJSON "fio-client/randread-3hosts-3.33-normal+json.txt"

static const bl_record *host_rec(const bl_parse_out *o, const char *host, const char *job,
                                 const char *op)
{
    for (size_t i = 0; i < o->recs.n; i++) {
        const bl_record *r = o->recs.v[i];
        const char *h = bl_record_label(r, "host"), *j = bl_record_label(r, "job");
        if (h && j && strcmp(h, host) == 0 && strcmp(j, job) == 0 && strcmp(r->op, op) == 0)
            return r;
    }
    fail_msg("no record host=%s job=%s op=%s", host, job, op);
    return NULL;
}

static double pct_of(const bl_lat *l, double p)
{
    for (size_t i = 0; i < l->n_pct; i++)
        if (l->pct[i].pct == p)
            return l->pct[i].value;
    return BL_ABSENT;
}

static int cmp_bin(const void *a, const void *b)
{
    const bl_bin *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* The test's own cluster percentile, independent of core/latency: every host's bins in one
 * sorted array, walked until the running count reaches p% of the total (fio's rule). */
static double summed_pct(const bl_lat *const *hosts, size_t n, double p)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        total += hosts[i]->n_bins;
    bl_bin *all = calloc(total, sizeof *all);
    uint64_t count = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < hosts[i]->n_bins; j++) {
            all[k++] = hosts[i]->bins[j];
            count += hosts[i]->bins[j].count;
        }
    qsort(all, total, sizeof *all, cmp_bin);
    double v = BL_ABSENT, need = p / 100.0 * (double)count;
    uint64_t run = 0;
    for (size_t i = 0; i < total; i++)
        if ((double)(run += all[i].count) >= need) {
            v = all[i].value;
            break;
        }
    free(all);
    return v;
}

/* Checks an aggregate's clat percentiles against the hosts' summed bins, and returns how
 * many of them differ from the mean of the hosts' own percentiles. */
static int check_cluster_pcts(const bl_record *agg, const bl_lat *const *hosts, size_t n)
{
    int differ = 0;
    assert_int_equal(agg->clat_ns.n_pct, 17);
    for (size_t i = 0; i < agg->clat_ns.n_pct; i++) {
        double p = agg->clat_ns.pct[i].pct;
        assert_double_equal(agg->clat_ns.pct[i].value, summed_pct(hosts, n, p), 0);
        double mean = 0;
        for (size_t h = 0; h < n; h++)
            mean += pct_of(hosts[h], p) / (double)n;
        differ += fabs(mean - agg->clat_ns.pct[i].value) > 0.5;
    }
    return differ;
}

/* Three hosts, one job: figures as fio printed them, in model units. */
static void test_randread_hosts(void **state)
{
    (void)state;
    char path[512];
    bl_parse_out o;
    assert_int_equal(bl_test_parse(bl_test_fixture(RANDREAD, path, sizeof path), NULL, &o), 0);
    assert_int_equal(o.recs.n, 4);
    const bl_record *h8 = host_rec(&o, "127.0.0.1:8768", "randread", "read");
    const bl_record *h6 = host_rec(&o, "127.0.0.1:8766", "randread", "read");
    const bl_record *h7 = host_rec(&o, "127.0.0.1:8767", "randread", "read");
    const bl_record *all = host_rec(&o, BL_FIO_ALL_CLIENTS, "randread", "read");
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
    assert_double_equal(pct_of(&h6->clat_ns, 50), 111104, 0);
    assert_double_equal(pct_of(&h6->clat_ns, 99), 1220608, 0);
    assert_double_equal(h6->cpu_usr_pct, 0.299914, 1e-9);
    assert_int_equal(bl_lat_bin_total(&h6->clat_ns), 1347); /* clat "N" : 1347 */
    assert_false(h6->slat_ns.present);                      /* psync: "N" : 0 */
    assert_int_equal(h8->io_bytes, 5459968);
    assert_int_equal(h7->io_bytes, 4878336);
    assert_double_equal(pct_of(&h7->clat_ns, 99), 3555328, 0);

    /* Each host's own percentiles follow from its bins by the same rule: the rule is fio's. */
    const bl_lat *hosts[] = {&h8->clat_ns, &h6->clat_ns, &h7->clat_ns};
    for (size_t h = 0; h < 3; h++)
        for (size_t i = 0; i < hosts[h]->n_pct; i++)
            assert_double_equal(hosts[h]->pct[i].value,
                                summed_pct(&hosts[h], 1, hosts[h]->pct[i].pct), 0);

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
    assert_double_equal(pct_of(&all->clat_ns, 50), 110080, 0);
    assert_double_equal(pct_of(&all->clat_ns, 99), 1499136, 0);
    assert_double_equal((1269760.0 + 1220608 + 3555328) / 3, 2015232, 0);
    assert_int_equal(check_cluster_pcts(all, hosts, 3), 13); /* all but p80, p99.9+ */
    /* fio's All clients gives no percentiles and agrees on the rest. */
    assert_non_null(strstr(all->note, "sum of 3 host entries"));
    assert_non_null(strstr(all->note, "fio's All clients agrees (it gives no percentiles)"));
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
        const bl_record *r = host_rec(&o, hosts[h], "reader", "read");
        assert_int_equal(r->run, (int64_t)h + 1);
        assert_int_equal(host_rec(&o, hosts[h], "mixed", "write")->run, (int64_t)h + 1);
        assert_string_equal(host_rec(&o, hosts[h], "mixed", "write")->test, "rand-write");
        rd += r->io_bytes;
        mr += host_rec(&o, hosts[h], "mixed", "read")->io_bytes;
        mw += host_rec(&o, hosts[h], "mixed", "write")->io_bytes;
    }
    /* fio printed: reader 18522112 + 18866176 + 19111936, mixed writes 8138752 + 8134656 +
     * 8228864, All clients read 112631808 and write 24502272. */
    assert_int_equal(rd, 18522112 + 18866176 + 19111936);
    assert_int_equal(mw, 24502272);
    assert_int_equal(host_rec(&o, BL_FIO_ALL_CLIENTS, "reader", "read")->io_bytes, rd);
    assert_int_equal(host_rec(&o, BL_FIO_ALL_CLIENTS, "mixed", "read")->io_bytes, mr);
    const bl_record *w = host_rec(&o, BL_FIO_ALL_CLIENTS, "mixed", "write");
    assert_int_equal(w->io_bytes, mw);
    assert_int_equal(w->run, 4);
    assert_non_null(strstr(w->note, "fio's All clients agrees"));
    const bl_record *fio = host_rec(&o, BL_FIO_ALL_CLIENTS, "All clients", "read");
    assert_int_equal(fio->io_bytes, 112631808);
    assert_int_equal(fio->io_bytes, rd + mr);
    assert_string_equal(fio->test, "rand-read"); /* both jobs read at random */
    assert_string_equal(fio->note, "fio's own sum over every job of every host");
    const bl_lat *mixed[3];
    for (size_t h = 0; h < 3; h++)
        mixed[h] = &host_rec(&o, hosts[h], "mixed", "write")->clat_ns;
    check_cluster_pcts(w, mixed, 3);
    bl_out_free(&o);
}

static char *slurp_fixture(const char *rel, size_t *len)
{
    char path[512];
    FILE *f = fopen(bl_test_fixture(rel, path, sizeof path), "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *s = malloc(*len + 1);
    assert_int_equal(fread(s, 1, *len, f), *len);
    s[*len] = '\0';
    fclose(f);
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
    assert_int_equal(host_rec(&o, "127.0.0.1:8768", "randread", "read")->line, 22 + 3);
    assert_int_equal(host_rec(&o, BL_FIO_ALL_CLIENTS, "randread", "read")->io_bytes, 15855616);
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
    const bl_record *all = host_rec(&o, BL_FIO_ALL_CLIENTS, "a", "read");
    assert_int_equal(all->io_bytes, 12288);
    assert_double_equal(all->bw_bytes_s, 12288 / 2.0, 0); /* over the longest runtime, 2 s */
    assert_int_equal(host_rec(&o, "n2", "a", "read")->io_bytes, 8192);
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
 * "all clients" column beside them. */
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
    free(dir);
}

/* Live runs: fio servers on 127.0.0.1, each in its own folder, stopped by pid. */
#define NSRV 3
typedef struct servers {
    char *dir;
    pid_t pid[NSRV];
    int port[NSRV];
} servers;

static int can_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void stop_server(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    for (int i = 0; i < 50; i++) { /* 5 s, then for sure */
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        nap_ms(100);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* fio --server=ip:127.0.0.1,PORT in dir; its pid once it listens, or -1. */
static pid_t start_server(const char *dir, int port)
{
    if (can_connect(port))
        return -1; /* someone else's */
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive this test program */
        int fd = open("/dev/null", O_RDWR);
        if (chdir(dir) != 0 || fd < 0)
            _exit(127);
        dup2(fd, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        char arg[64];
        snprintf(arg, sizeof arg, "--server=ip:127.0.0.1,%d", port);
        execlp("fio", "fio", arg, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; pid > 0 && i < 50; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return -1; /* could not listen */
        if (can_connect(port))
            return pid;
        nap_ms(100);
    }
    stop_server(pid);
    return -1;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static int servers_down(void **state)
{
    servers *s = *state;
    if (!s)
        return 0;
    for (int i = 0; i < NSRV; i++)
        stop_server(s->pid[i]);
    nftw(s->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    free(s->dir);
    free(s);
    return 0;
}

static int servers_up(void **state)
{
    *state = NULL;
    if (system("fio --version >/dev/null 2>&1") != 0)
        return 0; /* the tests skip */
    servers *s = calloc(1, sizeof *s);
    s->dir = bl_test_tmpdir();
    /* 8766-8768, or the next free block of three. */
    for (int base = 8766; base < 8766 + 100; base += 10) {
        int ok = 1;
        for (int i = 0; i < NSRV && ok; i++) {
            char d[600];
            snprintf(d, sizeof d, "%s/srv%d", s->dir, base + i);
            mkdir(d, 0755);
            s->port[i] = base + i;
            ok = (s->pid[i] = start_server(d, base + i)) > 0;
        }
        if (ok) {
            *state = s;
            return 0;
        }
        for (int i = 0; i < NSRV; i++)
            stop_server(s->pid[i]), s->pid[i] = 0;
    }
    *state = s;
    return 0; /* no servers: each test skips */
}

static servers *live(void **state)
{
    servers *s = *state;
    if (!s || s->pid[0] <= 0)
        skip();
    return s;
}

static char *write_file(const char *dir, const char *name, const char *text)
{
    char *p = NULL;
    assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static const char job_text[] = "[global]\nioengine=psync\nbs=4k\nsize=8m\ntime_based\n"
                               "runtime=1\n[rr]\nrw=randread\n";

static void test_live_three_hosts(void **state)
{
    servers *s = live(state);
    char hl[256], err[512];
    snprintf(hl, sizeof hl, "ip:127.0.0.1,%d\nip:127.0.0.1,%d\nip:127.0.0.1,%d\n", s->port[0],
             s->port[1], s->port[2]);
    char *hosts = write_file(s->dir, "hosts3.list", hl);
    char *job = write_file(s->dir, "rr.fio", job_text);
    char *work = NULL;
    assert_true(asprintf(&work, "%s/work3", s->dir) > 0);
    bl_records recs;
    bl_records_init(&recs);
    int rc = bl_run_fio_hosts(hosts, job, NULL, work, &recs, err, sizeof err);
    if (rc)
        fail_msg("bl_run_fio_hosts: %d %s", rc, err);
    assert_int_equal(recs.n, 4);
    bl_parse_out o = {.recs = recs}; /* to use host_rec */
    const bl_lat *lat[NSRV];
    int64_t io = 0;
    double longest = 0, ios = 0;
    for (int i = 0; i < NSRV; i++) {
        char host[64], data[700];
        snprintf(host, sizeof host, "127.0.0.1:%d", s->port[i]);
        const bl_record *r = host_rec(&o, host, "rr", "read");
        assert_string_equal(r->test, "rand-read");
        assert_int_equal(r->bs, 4096);
        assert_true(r->io_bytes >= 4096 && r->io_bytes % 4096 == 0);
        /* fio's bw_bytes is io_bytes * 1000 / runtime_ms, in whole bytes. */
        assert_double_equal(r->bw_bytes_s, floor(r->io_bytes / r->runtime_s), 1);
        assert_true(r->clat_ns.n_bins > 0 && r->clat_ns.n_pct == 17);
        assert_int_equal(bl_lat_bin_total(&r->clat_ns) * 4096, r->io_bytes);
        lat[i] = &r->clat_ns;
        io += r->io_bytes;
        ios += (double)bl_lat_bin_total(&r->clat_ns);
        longest = fmax(longest, r->runtime_s);
        /* Each server did its I/O in its own folder: fio laid out its 8 MiB file there. */
        struct stat st;
        snprintf(data, sizeof data, "%s/srv%d/rr.0.0", s->dir, s->port[i]);
        assert_int_equal(stat(data, &st), 0);
        assert_int_equal(st.st_size, 8 << 20);
    }
    const bl_record *all = host_rec(&o, BL_FIO_ALL_CLIENTS, "rr", "read");
    assert_int_equal(all->io_bytes, io);
    assert_double_equal(all->runtime_s, longest, 0);
    assert_double_equal(all->bw_bytes_s, io / longest, 1e-6);
    assert_double_equal(all->iops, ios / longest, 1e-6);
    assert_int_equal(all->run, 4);
    int differ = check_cluster_pcts(all, lat, NSRV);
    print_message("live: %lld bytes over %.3f s on 3 hosts; %d of 17 cluster percentiles differ "
                  "from the hosts' mean\n",
                  (long long)io, longest, differ);
    assert_non_null(strstr(all->note, "fio's All clients agrees"));
    /* The work folder keeps fio's JSON; the records name it. */
    assert_non_null(strstr(all->source, "work3/fio-client.json"));
    bl_records_free(&recs);
    free(hosts);
    free(job);
    free(work);
}

/* Per-host logs: two servers under two hostnames of the loopback (127.0.0.1 and localhost),
 * so that fio's "<log>.<hostname>" files do not overwrite each other. */
static void test_live_logs(void **state)
{
    servers *s = live(state);
    struct addrinfo hint = {.ai_family = AF_INET}, *ai = NULL;
    if (getaddrinfo("localhost", NULL, &hint, &ai) != 0 ||
        ((struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr != htonl(INADDR_LOOPBACK)) {
        if (ai)
            freeaddrinfo(ai);
        skip(); /* localhost is not 127.0.0.1 here */
    }
    freeaddrinfo(ai);
    char hl[128], err[512];
    snprintf(hl, sizeof hl, "ip:127.0.0.1,%d\nip:localhost,%d\n", s->port[0], s->port[1]);
    char *hosts = write_file(s->dir, "hosts2.list", hl);
    char *job = write_file(s->dir, "logs.fio",
                           "[global]\nioengine=psync\nbs=4k\nsize=8m\ntime_based\nruntime=1\n"
                           "write_bw_log=hl\nwrite_lat_log=hl\nlog_avg_msec=250\n[rr]\n"
                           "rw=randread\n");
    char *work = NULL;
    assert_true(asprintf(&work, "%s/work2", s->dir) > 0);
    bl_records recs;
    bl_records_init(&recs);
    int rc = bl_run_fio_hosts(hosts, job, NULL, work, &recs, err, sizeof err);
    if (rc)
        fail_msg("bl_run_fio_hosts: %d %s", rc, err);
    bl_parse_out o = {.recs = recs};
    /* Distinct hostnames: the label is the hostname alone. */
    const bl_record *a = host_rec(&o, "127.0.0.1", "rr", "read");
    const bl_record *b = host_rec(&o, "localhost", "rr", "read");
    const char *names[] = {"127.0.0.1", "localhost"};
    const bl_record *json[] = {a, b};
    for (int i = 0; i < 2; i++) {
        char path[700];
        snprintf(path, sizeof path, "%s/hl_bw.1.log.%s", work, names[i]);
        char *h = bl_fio_client_log_host(path);
        assert_string_equal(h, names[i]);
        free(h);
        bl_parse_out lo;
        bl_out_init(&lo, path);
        int lrc = bl_fio_client_read_log(path, &lo);
        if (!bl_format_find("fio-log")) {
            assert_int_equal(lrc, 2); /* said, not crashed; the reading needs fio-log */
            assert_non_null(strstr(lo.diags[0].msg, "fio-log"));
            bl_out_free(&lo);
            continue;
        }
        assert_int_equal(lrc, 0);
        assert_true(lo.recs.n >= 1);
        assert_string_equal(bl_record_label(lo.recs.v[0], "host"), names[i]);
        /* The log's mean bandwidth is near what the JSON says for the same host. */
        assert_true(bl_test_close(lo.recs.v[0]->bw_bytes_s, json[i]->bw_bytes_s, 0.5));
        bl_out_free(&lo);
    }
    bl_records_free(&recs);
    free(hosts);
    free(job);
    free(work);
    if (!bl_format_find("fio-log"))
        skip();
}

/* A host without a server: fio goes on with the others; we say who is missing. */
static void test_live_missing_host(void **state)
{
    servers *s = live(state);
    int dead = s->port[NSRV - 1] + 5;
    if (can_connect(dead))
        skip();
    char hl[128], err[512];
    snprintf(hl, sizeof hl, "ip:127.0.0.1,%d\nip:127.0.0.1,%d\n", s->port[0], dead);
    char *hosts = write_file(s->dir, "hosts-dead.list", hl);
    char *job = write_file(s->dir, "rr.fio", job_text);
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_fio_hosts(hosts, job, NULL, NULL, &recs, err, sizeof err), 1);
    assert_non_null(strstr(err, "results from 1 of the 2 hosts"));
    assert_non_null(strstr(err, "failed to connect"));
    assert_int_equal(recs.n, 2);           /* the live host's record and its aggregate are kept */
    assert_int_equal(recs.v[0]->line, -1); /* temporary output: the job file is the source */
    assert_string_equal(recs.v[0]->source, job);
    bl_records_free(&recs);
    /* Usage errors: no hosts file, an empty one. */
    assert_int_equal(
        bl_run_fio_hosts("/nonexistent/hosts", job, NULL, NULL, &recs, err, sizeof err), 2);
    char *empty = write_file(s->dir, "empty.list", "# nobody\n\n");
    assert_int_equal(bl_run_fio_hosts(empty, job, NULL, NULL, &recs, err, sizeof err), 2);
    assert_non_null(strstr(err, "no hosts"));
    assert_int_equal(recs.n, 0);
    free(empty);
    free(hosts);
    free(job);
}

int main(void)
{
    const struct CMUnitTest fixtures[] = {
        cmocka_unit_test(test_randread_hosts), cmocka_unit_test(test_two_jobs),
        cmocka_unit_test(test_text_around),    cmocka_unit_test(test_fio_json_leaves_it),
        cmocka_unit_test(test_bad_input),      cmocka_unit_test(test_log_host),
        cmocka_unit_test(test_report_by_host),
    };
    const struct CMUnitTest live[] = {
        cmocka_unit_test(test_live_three_hosts),
        cmocka_unit_test(test_live_logs),
        cmocka_unit_test(test_live_missing_host),
    };
    int rc = cmocka_run_group_tests_name("fio-client fixtures", fixtures, NULL, NULL);
    rc |= cmocka_run_group_tests_name("fio servers on 127.0.0.1", live, servers_up, servers_down);
    return rc;
}
