/* benchlog run --hosts: bl_run_fio_hosts against fio servers this program starts on
 * 127.0.0.1 (only the loopback address, ports 8766-8768 or the next free block), each in its
 * own folder, and stops by their own pids in the group teardown whatever the tests did (and
 * PR_SET_PDEATHSIG should this program die). Skips when fio is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/latency.h"
#include "../parsers/fio_client.h"
#include "../runner/fio_hosts.h"
#include "support/cluster.h"
#include "support/support.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
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

/* SIGTERM, then SIGKILL after 5 s; then up to 3 s for the port to close, since the child a
 * server forks per connection holds its listening socket until it has finished. */
static void stop_server(pid_t pid, int port)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    int i = 0;
    while (waitpid(pid, NULL, WNOHANG) != pid && ++i < 50)
        nap_ms(100);
    if (i == 50) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    for (i = 0; i < 30 && can_connect(port); i++)
        nap_ms(100);
}

/* Whether pid holds the socket listening on PORT, so that a server another program started
 * on the same port at the same moment is not taken for ours. Linux /proc only. */
static int owns_listener(pid_t pid, int port)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    char line[512], want[64][40];
    int n = 0;
    while (f && fgets(line, sizeof line, f) && n < 64) {
        unsigned p, st;
        unsigned long ino;
        if (sscanf(line, " %*d: %*x:%x %*x:%*x %x %*x:%*x %*x:%*x %*x %*u %*u %lu", &p, &st,
                   &ino) == 3 &&
            p == (unsigned)port && st == 0x0A)
            snprintf(want[n++], sizeof want[0], "socket:[%lu]", ino);
    }
    if (f)
        fclose(f);
    char dir[64], path[400], link[64];
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ssize_t len = readlink(path, link, sizeof link - 1);
        if (len <= 0)
            continue;
        link[len] = '\0';
        for (int i = 0; i < n && !found; i++)
            found = strcmp(link, want[i]) == 0;
    }
    if (d)
        closedir(d);
    return found;
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
        if (owns_listener(pid, port))
            return pid;
        nap_ms(100);
    }
    stop_server(pid, port);
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
        stop_server(s->pid[i], s->port[i]);
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
            stop_server(s->pid[i], s->port[i]), s->pid[i] = 0;
    }
    *state = s;
    return 0; /* no servers: each test skips */
}

static servers *live(void **state)
{
    servers *s = *state;
    if (!s || s->pid[0] <= 0)
        bl_skip_because("no fio servers: fio is not installed, or no 3 free ports on 127.0.0.1 "
                        "in 8766-8865");
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
    bl_label lab = {.key = "cluster", .value = "loopback"};
    bl_fio_hosts_opts ho = {.workdir = work, .n_labels = 1, .labels = &lab};
    int rc = bl_run_fio_hosts(hosts, job, &ho, &recs, err, sizeof err);
    if (rc)
        fail_msg("bl_run_fio_hosts: %d %s", rc, err);
    assert_int_equal(recs.n, 4);
    for (size_t i = 0; i < recs.n; i++) /* --label K=V reaches every record */
        assert_string_equal(bl_record_label(recs.v[i], "cluster"), "loopback");
    bl_parse_out o = {.recs = recs}; /* to use host_rec */
    const bl_lat *lat[NSRV];
    int64_t io = 0;
    double longest = 0, ios = 0;
    for (int i = 0; i < NSRV; i++) {
        char host[64], data[700];
        snprintf(host, sizeof host, "127.0.0.1:%d", s->port[i]);
        const bl_record *r = bl_test_host_rec(&o, host, "rr", "read");
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
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "rr", "read");
    assert_int_equal(all->io_bytes, io);
    assert_double_equal(all->runtime_s, longest, 0);
    assert_double_equal(all->bw_bytes_s, io / longest, 1e-6);
    assert_double_equal(all->iops, ios / longest, 1e-6);
    assert_int_equal(all->run, 4);
    int differ = bl_test_check_cluster_pcts(all, lat, NSRV);
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
        bl_skip_because("name resolution: 'localhost' does not resolve to 127.0.0.1 (no "
                        "/etc/hosts?)");
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
    bl_fio_hosts_opts ho = {.workdir = work};
    int rc = bl_run_fio_hosts(hosts, job, &ho, &recs, err, sizeof err);
    if (rc)
        fail_msg("bl_run_fio_hosts: %d %s", rc, err);
    bl_parse_out o = {.recs = recs};
    /* Distinct hostnames: the label is the hostname alone. */
    const bl_record *a = bl_test_host_rec(&o, "127.0.0.1", "rr", "read");
    const bl_record *b = bl_test_host_rec(&o, "localhost", "rr", "read");
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
        /* The log's mean bandwidth is near what the JSON says for the same host; an averaged
         * log with gaps between its windows (a loaded machine) gives no mean but the range
         * the run's mean lies in, in its note, and the JSON's figure must lie in it. */
        const bl_record *lr = lo.recs.v[0];
        if (bl_present(lr->bw_bytes_s)) {
            assert_true(bl_test_close(lr->bw_bytes_s, json[i]->bw_bytes_s, 0.5));
        } else {
            static const char said[] = "the run's mean lies between ";
            const char *p = lr->note ? strstr(lr->note, said) : NULL;
            if (!p)
                fail_msg("an averaged log's bw left out without its range: %s",
                         lr->note ? lr->note : "(no note)");
            double lo_bw, hi_bw;
            assert_int_equal(sscanf(p + strlen(said), "%lf and %lf bytes/s", &lo_bw, &hi_bw), 2);
            print_message("%s: log bw left out, range %.0f .. %.0f, JSON %.0f\n", names[i], lo_bw,
                          hi_bw, json[i]->bw_bytes_s);
            assert_true(json[i]->bw_bytes_s >= lo_bw * 0.9 && json[i]->bw_bytes_s <= hi_bw * 1.1);
        }
        bl_out_free(&lo);
    }
    /* The runner attached each host's timelines to its record: bw from hl_bw, lat, clat and
     * slat from the lat log (slat empty with psync), about 4 points of 250 ms in 1 s. */
    for (int i = 0; bl_format_find("fio-log") && i < 2; i++) {
        const bl_series *bw = NULL;
        for (size_t k = 0; k < json[i]->n_series; k++)
            if (strcmp(json[i]->series[k].name, "bw") == 0)
                bw = &json[i]->series[k];
        assert_non_null(bw);
        assert_string_equal(bw->unit, "bytes/s");
        assert_true(bw->n >= 2 && bw->n <= 5);
        double mean = 0;
        for (size_t k = 0; k < bw->n; k++)
            mean += bw->v[k] / (double)bw->n;
        assert_true(bl_test_close(mean, json[i]->bw_bytes_s, 0.5));
        assert_true(json[i]->n_series >= 2);
    }
    const bl_record *all = bl_test_host_rec(&o, BL_FIO_ALL_CLIENTS, "rr", "read");
    assert_int_equal(all->n_series, 0);
    bl_records_free(&recs);
    free(hosts);
    free(job);
    free(work);
    if (!bl_format_find("fio-log"))
        bl_skip_because("the fio-log format is not built in");
}

/* A host without a server: fio goes on with the others; we say who is missing. */
static void test_live_missing_host(void **state)
{
    servers *s = live(state);
    int dead = s->port[NSRV - 1] + 5;
    if (can_connect(dead))
        bl_skip_because("the port meant to be dead has a listener");
    char hl[128], err[512];
    snprintf(hl, sizeof hl, "ip:127.0.0.1,%d\nip:127.0.0.1,%d\n", s->port[0], dead);
    char *hosts = write_file(s->dir, "hosts-dead.list", hl);
    char *job = write_file(s->dir, "rr.fio", job_text);
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_fio_hosts(hosts, job, NULL, &recs, err, sizeof err), 1);
    assert_non_null(strstr(err, "results from 1 of the 2 hosts"));
    assert_non_null(strstr(err, "failed to connect"));
    assert_int_equal(recs.n, 2);           /* the live host's record and its aggregate are kept */
    assert_int_equal(recs.v[0]->line, -1); /* temporary output: the job file is the source */
    assert_string_equal(recs.v[0]->source, job);
    bl_records_free(&recs);
    /* Usage errors: no hosts file, an empty one. */
    assert_int_equal(bl_run_fio_hosts("/nonexistent/hosts", job, NULL, &recs, err, sizeof err), 2);
    char *empty = write_file(s->dir, "empty.list", "# nobody\n\n");
    assert_int_equal(bl_run_fio_hosts(empty, job, NULL, &recs, err, sizeof err), 2);
    assert_non_null(strstr(err, "no hosts"));
    assert_int_equal(recs.n, 0);
    free(empty);
    free(hosts);
    free(job);
}

/* Without fio (or with a wrong --fio path) the run says so; no server is needed. */
static void test_no_fio(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), err[512];
    char *hosts = write_file(dir, "h.list", "ip:127.0.0.1,8765\n");
    char *job = write_file(dir, "rr.fio", job_text);
    bl_fio_hosts_opts ho = {.fio_binary = "/nonexistent/fio"};
    bl_records recs;
    bl_records_init(&recs);
    assert_int_equal(bl_run_fio_hosts(hosts, job, &ho, &recs, err, sizeof err), 1);
    assert_string_equal(err, "/nonexistent/fio exited with status 127: cannot run "
                             "/nonexistent/fio: No such file or directory");
    assert_int_equal(recs.n, 0);
    unlink(hosts);
    unlink(job);
    rmdir(dir);
    free(hosts);
    free(job);
    free(dir);
}

/* The same through the program: benchlog run --hosts stores one run per host and the
 * cluster run, and report --by host puts them side by side. */
static void test_cli_run_hosts(void **state)
{
    servers *s = live(state);
    char hl[256], args[2048];
    snprintf(hl, sizeof hl, "ip:127.0.0.1,%d\nip:127.0.0.1,%d\n", s->port[0], s->port[1]);
    char *hosts = write_file(s->dir, "hosts2.list", hl);
    char *job = write_file(s->dir, "rr.fio", job_text);
    char *out, *err;
    snprintf(args, sizeof args, "run --db %s/cli.db --hosts %s --label site=lab %s", s->dir, hosts,
             job);
    int rc = bl_test_benchlog(args, &out, &err);
    if (rc)
        fail_msg("benchlog %s: %d %s", args, rc, err);
    assert_non_null(strstr(out, "rr.fio: stored 3 records in 3 runs: "));
    free(out);
    free(err);
    snprintf(args, sizeof args, "list --db %s/cli.db site=lab", s->dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    char host[64];
    snprintf(host, sizeof host, "host=127.0.0.1:%d", s->port[1]);
    assert_non_null(strstr(out, host));
    assert_non_null(strstr(out, "host=all clients"));
    free(out);
    snprintf(args, sizeof args, "report --db %s/cli.db --by host --csv", s->dir);
    assert_int_equal(bl_test_benchlog(args, &out, NULL), 0);
    assert_non_null(strstr(out, "all clients"));
    free(out);
    free(hosts);
    free(job);
}

int main(void)
{
    const struct CMUnitTest live[] = {
        cmocka_unit_test(test_live_three_hosts),  cmocka_unit_test(test_live_logs),
        cmocka_unit_test(test_live_missing_host), cmocka_unit_test(test_no_fio),
        cmocka_unit_test(test_cli_run_hosts),
    };
    return cmocka_run_group_tests_name("fio servers on 127.0.0.1", live, servers_up, servers_down);
}
