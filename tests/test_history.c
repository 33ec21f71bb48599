/* history and check over real runs: outputs of real dd made once per program (and sysbench
 * runs recorded once, for latency), stored with a time one day apart, and the changes found where
 * they were made.
 *
 * The step is real: dd copies 128 KiB from a pipe this program feeds, 64 KiB, a pause, then
 * 64 KiB, as a network source delivering at a pace would; from run 21 on the source pauses
 * fifteen times as long (150 ms, not 10), and dd measures a fifteenth of the speed. The pause is
 * slept, not computed, so the machine's load (two cores shared by many builds) adds to both
 * kinds alike, tens of ms at worst, instead of moving a CPU-bound or page-cache copy several
 * times over.
 * dd's text does not show where its input came from: both are one set-up to benchlog. The
 * runs of each kind are made interleaved and stored in a shuffled (fixed-seed) order within
 * their half, so that load changing while the test runs falls on no part of a series more
 * than another. Latency: real sysbench runs recorded once (fixtures/sysbench/history: writes to
 * memory, then with O_DSYNC to disk), as on a loaded machine a write to memory can now and then
 * take as long as a synced one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "support/support.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N_PLAIN 40 /* dd from a source pausing 10 ms */
#define N_DSYNC 20 /* the same pausing 150 ms */
#define N_SB 12    /* sysbench runs of each kind (fixtures) */
#define DAY 86400L
#define T0 1796169600L /* 2026-12-02T00:00:00Z */

static char *dir;

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st;
    free(bl_test_sh(cmd, &st));
    if (st != 0)
        fail_msg("failed: %s", cmd);
}

static const char *self; /* this program, which feeds dd's pipe when run as FEED PAUSE_MS */

/* The feeder: 64 KiB, a pause once dd has read them, 64 KiB, end. dd's clock starts before its
 * first read, so the pause starts once the pipe is empty. A program of its own (this one run again,
 * by exec), so that the pause is timed natively also when the tests run under valgrind. */
static int feed(long pause_ms)
{
    static const char block[65536];
    struct timespec pause = {0, pause_ms * 1000000L}, tick = {0, 200000L};
    if (write(1, block, sizeof block) != (ssize_t)sizeof block)
        return 1;
    int queued;
    while (ioctl(1, FIONREAD, &queued) == 0 && queued > 0)
        nanosleep(&tick, NULL);
    while (nanosleep(&pause, &pause) != 0)
        ;
    return write(1, block, sizeof block) == (ssize_t)sizeof block ? 0 : 1;
}

static pid_t spawn(int in, int out, int err, char *const argv[])
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* Real dd reading a pipe that feed() paces; its report to dir/name. */
static void dd_paced(const char *name, long pause_ms)
{
    char path[512], ms[32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(ms, sizeof ms, "%ld", pause_ms);
    /* close-on-exec: dd must hold no write end of its pipe, or it never sees the end */
    int fds[2], report = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644),
                null = open("/dev/null", O_RDWR | O_CLOEXEC);
    assert_true(report >= 0 && null >= 0);
    assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
    char *dd[] = {"dd", "of=/dev/null", "bs=64k", "iflag=fullblock", NULL};
    char *feeder[] = {(char *)self, "FEED", ms, NULL};
    /* dd starts once the feeder's first block waits in the pipe: neither's start-up (slow
     * under sanitizers and valgrind) is in what dd times */
    pid_t f = spawn(null, fds[1], 2, feeder);
    struct timespec tick = {0, 1000000L};
    int queued = 0;
    while (ioctl(fds[0], FIONREAD, &queued) == 0 && queued == 0)
        nanosleep(&tick, NULL);
    pid_t d = spawn(fds[0], null, report, dd);
    close(fds[0]);
    close(fds[1]);
    int st;
    assert_int_equal(waitpid(f, &st, 0), f);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(waitpid(d, &st, 0), d);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(report);
    close(null);
    /* a blank line per run made before: two runs that printed the same time are still two
     * files (the store keeps one copy of a content) */
    static int made;
    FILE *fp = fopen(path, "a");
    assert_non_null(fp);
    for (int i = 0; i < made; i++)
        fputc('\n', fp);
    made++;
    fclose(fp);
}

static int setup(void **state)
{
    (void)state;
    dir = bl_test_tmpdir();
    for (int i = 0, p = 0, s = 0; i < N_PLAIN + N_DSYNC; i++) {
        char name[32];
        if (i % 3 == 2 && s < N_DSYNC) {
            snprintf(name, sizeof name, "s%d.txt", ++s);
            dd_paced(name, 150);
        } else {
            snprintf(name, sizeof name, "p%d.txt", ++p);
            dd_paced(name, 10);
        }
    }
    dd_paced("slow.txt", 400); /* a source fallen to a fortieth: the newest run of one test */
    /* the sysbench runs, recorded once (fixtures/sysbench/README.md): copied, as their
     * modification times are set */
    sh("cp fixtures/sysbench/history/*.txt %s/", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (!getenv("BENCHLOG_KEEP"))
        sh("rm -rf %s", dir);
    free(dir);
    return 0;
}

/* Gives files[i] the modification time of day i + 1 and imports them all in one command;
 * names are relative to dir. */
static void import_days(const char *db, char **files, size_t n)
{
    bl_strbuf args;
    bl_strbuf_init(&args);
    bl_strbuf_printf(&args, "import --db %s/%s", dir, db);
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        struct timeval tv[2] = {{T0 + (long)(i + 1) * DAY, 0}, {T0 + (long)(i + 1) * DAY, 0}};
        assert_int_equal(utimes(path, tv), 0);
        bl_strbuf_printf(&args, " %s", path);
    }
    char *err;
    int rc = bl_test_benchlog(args.s, NULL, &err);
    if (rc != 0)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    free(err);
    bl_strbuf_free(&args);
}

/* PREFIX<from>.txt ... in a shuffled order (fixed seed). */
static char **names(const char *prefix, int from, int n)
{
    char **v = calloc((size_t)n + 1, sizeof *v);
    for (int i = 0; i < n; i++) {
        v[i] = malloc(32);
        snprintf(v[i], 32, "%s%d.txt", prefix, from + i);
    }
    uint64_t seed = 2027;
    for (size_t i = (size_t)n - 1; i > 0; i--) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t j = (size_t)(seed >> 33) % (i + 1);
        char *t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    return v;
}

static void free_names(char **v)
{
    for (size_t i = 0; v[i]; i++)
        free(v[i]);
    free(v);
}

/* `benchlog history --json ARGS` parsed; the status in *rc. */
static json_t *history_json(const char *db, const char *args)
{
    char *out, *err;
    int rc = bl_test_benchlogf(&out, &err, "history --json --db %s/%s %s", dir, db, args);
    if (rc != 0)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    assert_non_null(j);
    free(out);
    free(err);
    return j;
}

static json_t *only_series(json_t *h, size_t n_points)
{
    json_t *series = json_object_get(h, "series");
    assert_int_equal(json_array_size(series), 1);
    json_t *s = json_array_get(series, 0);
    assert_int_equal(json_array_size(json_object_get(s, "points")), n_points);
    return s;
}

static int check(const char *db, const char *args, char **out)
{
    return bl_test_benchlogf(out, NULL, "check --db %s/%s %s", dir, db, args);
}

static size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* report --html of the step's store: one trend (the 40 points), its changes as history finds
 * them at the page's alpha, the default (the same per cent and p: the page draws
 * compare/history's series; on a loaded machine the paced dd figures may hold a second, smaller
 * change, and the page must then show both), linked from each of the 40 groups (a source each)
 * and back; a store of one time point has no trend. */
static void page_shows_the_step(void)
{
    json_t *h = history_json("step.db", "");
    json_t *changes = json_object_get(only_series(h, 40), "changes");
    size_t n_changes = json_array_size(changes), n_worse = 0;
    assert_true(n_changes >= 1);
    char *err;
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "report --html --db %s/step.db -o %s/page.html", dir, dir),
        0);
    free(err);
    char path[512], want[64];
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *page = bl_test_slurp(path);
    assert_non_null(page);
    assert_int_equal(count_of(page, "<section class=\"trend\""), 1);
    assert_int_equal(count_of(page, "<a href=\"#h1\">dd — seq-copy Q1T1</a> (40 points)"), 40);
    assert_non_null(strstr(page, "In groups: <a href=\"#g1\">1</a>"));
    assert_non_null(strstr(page, "and 34 more")); /* six of the 40 groups named */
    /* The first screen is the overview and the first group, the history after the groups. */
    const char *ov = strstr(page, "<section id=\"overview\">"),
               *hist = strstr(page, "<section id=\"history\">"), *g40 = strstr(page, "id=\"g40\"");
    assert_non_null(ov);
    assert_non_null(hist);
    assert_non_null(g40);
    assert_true(ov < g40 && g40 < hist);
    for (size_t k = 0; k < n_changes; k++) {
        json_t *c = json_array_get(changes, k);
        n_worse += json_is_true(json_object_get(c, "regression"));
        /* the dashed line's label */
        snprintf(want, sizeof want, ">%+.1f%% p=%.3g</text>",
                 json_number_value(json_object_get(c, "pct")),
                 json_number_value(json_object_get(c, "p")));
        if (!strstr(page, want))
            print_error("no change label '%s' on the page\n", want);
        assert_non_null(strstr(page, want));
    }
    assert_true(n_worse >= 1); /* the dsync step */
    assert_int_equal(count_of(page, "<line class=\"cp worse\""), n_worse);
    assert_int_equal(count_of(page, "<line class=\"cp "), n_changes);
    assert_int_equal(count_of(page, "<line class=\"seg\""), n_changes + 1);
    assert_int_equal(count_of(page, "<circle class=\"pt\""), 40);
    assert_non_null(strstr(page, "<tr><td>2026-12-03T00:00:00Z</td>"));
    assert_non_null(strstr(page, "<tr><td>2027-01-11T00:00:00Z</td>"));
    free(page);
    json_decref(h);

    char one[512];
    snprintf(one, sizeof one, "%s/p1.txt", dir);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "import --db %s/one.db %s", dir, one), 0);
    free(err);
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "report --html --db %s/one.db -o %s/one.html", dir, dir), 0);
    free(err);
    snprintf(path, sizeof path, "%s/one.html", dir);
    page = bl_test_slurp(path);
    assert_non_null(page);
    assert_null(strstr(page, "id=\"history\""));
    assert_null(strstr(page, "Over time"));
    free(page);
}

/* At any alpha a series of pure noise is called changed with probability alpha (that is what
 * alpha is): the tests ask 0.001 (the default is 0.01), so that their false failures are one
 * run in a thousand; the steps made here have p of 1/2000, the least 1999 shuffles give. */
static void dd_step_found_at_its_run(void **state)
{
    (void)state;
    char **plain = names("p", 1, 20), **dsync = names("s", 1, N_DSYNC);
    char *files[40];
    for (int i = 0; i < 20; i++) {
        files[i] = plain[i];
        files[20 + i] = dsync[i];
    }
    import_days("step.db", files, 40);
    json_t *h = history_json("step.db", "--alpha 0.001");
    json_t *s = only_series(h, 40);
    assert_string_equal(json_string_value(json_object_get(s, "metric")), "bw");
    json_t *points = json_object_get(s, "points");
    /* the times are the files' modification times, one day apart */
    assert_string_equal(json_string_value(json_object_get(json_array_get(points, 0), "when")),
                        "2026-12-03T00:00:00Z");
    assert_string_equal(json_string_value(json_object_get(json_array_get(points, 39), "when")),
                        "2027-01-11T00:00:00Z");
    json_t *changes = json_object_get(s, "changes");
    assert_int_equal(json_array_size(changes), 1);
    json_t *c = json_array_get(changes, 0);
    assert_int_equal(json_integer_value(json_object_get(c, "index")), 20); /* the first dsync */
    assert_string_equal(json_string_value(json_object_get(c, "when")), "2026-12-23T00:00:00Z");
    assert_true(json_is_true(json_object_get(c, "regression")));
    /* -93% on an idle machine (a fifteenth); load and sanitizers add time to both kinds */
    assert_true(json_number_value(json_object_get(c, "pct")) < -50);
    assert_true(json_number_value(json_object_get(c, "p")) <= 0.001);
    /* before and after are the means of the figures dd printed, in MB/s */
    double sum[2] = {0, 0};
    for (size_t i = 0; i < 40; i++)
        sum[i >= 20] += json_number_value(json_object_get(json_array_get(points, i), "figure"));
    assert_true(bl_test_close(json_number_value(json_object_get(c, "before")), sum[0] / 20, 1e-9));
    assert_true(bl_test_close(json_number_value(json_object_get(c, "after")), sum[1] / 20, 1e-9));
    assert_true(sum[1] > 0); /* 128 KiB in 150 ms: 0.87 MB/s idle */
    page_shows_the_step();
    json_decref(h);

    char *out;
    assert_int_equal(check("step.db", "--last 20 --alpha 0.001", &out), 1);
    assert_non_null(strstr(out, "regression: dd"));
    assert_non_null(strstr(out, "since 2026-12-23T00:00:00Z"));
    assert_int_equal(bl_test_count_lines(out), 1);
    free(out);
    assert_int_equal(check("step.db", "--since 2026-12-20 --json --alpha 0.001", &out), 1);
    json_t *j = json_loads(out, 0, NULL);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "regressions")), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(j, "regressions"), 0), "by")),
                        "change-point");
    json_decref(j);
    free(out);
    /* the trend chart: the change marked with its p (SVG keeps text as text) */
    char *err;
    assert_int_equal(bl_test_benchlogf(NULL, &err,
                                       "chart --kind trend --db %s/step.db -o %s/trend.svg", dir,
                                       dir),
                     0);
    free(err);
    char path[512];
    snprintf(path, sizeof path, "%s/trend.svg", dir);
    char *svg = bl_test_slurp(path);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "(p=0.005)")); /* default alpha: 199 shuffles, 1/200 */
    assert_non_null(strstr(svg, "seq-copy"));
    assert_non_null(strstr(svg, "40 points"));
    free(svg);
    free_names(plain);
    free_names(dsync);
}

static void dd_noise_finds_nothing(void **state)
{
    (void)state;
    char **plain = names("p", 1, N_PLAIN);
    import_days("noise.db", plain, N_PLAIN);
    json_t *h = history_json("noise.db", "--alpha 0.001");
    json_t *s = only_series(h, N_PLAIN);
    assert_int_equal(json_array_size(json_object_get(s, "changes")), 0);
    json_decref(h);
    char *out;
    assert_int_equal(check("noise.db", "--last 5 --alpha 0.001", &out), 0);
    assert_string_equal(out, "");
    free(out);
    /* a run of a source forty times slower as the newest, its time given: too few runs for a
     * change point, outside the interval of the runs before, however loaded the machine */
    char *err;
    assert_int_equal(bl_test_benchlogf(NULL, &err,
                                       "import --db %s/noise.db --when 2027-01-12 %s/slow.txt", dir,
                                       dir),
                     0);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s/noise.db when_from=given", dir),
                     0);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "\"when\":\"2027-01-12T00:00:00Z\"")); /* TZ=UTC in tests */
    free(out);
    assert_int_equal(check("noise.db", "--last 1", &out), 1);
    /* the bound is one-sided at alpha (0.01): the two-sided interval of 98% */
    assert_non_null(strstr(out, "outside the 98% interval"));
    free(out);
    free_names(plain);
}

static void sysbench_latency(const char *db, const char *first, const char *then, int worse)
{
    char **a = names(first, 1, N_SB), **b = names(then, 1, N_SB);
    char *files[2 * N_SB];
    for (int i = 0; i < N_SB; i++) {
        files[i] = a[i];
        files[N_SB + i] = b[i];
    }
    import_days(db, files, 2 * N_SB);
    json_t *h = history_json(db, "--metric lat --alpha 0.001");
    json_t *s = only_series(h, 2 * N_SB);
    assert_true(json_is_true(json_object_get(s, "lower_better")));
    json_t *changes = json_object_get(s, "changes");
    assert_int_equal(json_array_size(changes), 1);
    json_t *c = json_array_get(changes, 0);
    assert_int_equal(json_integer_value(json_object_get(c, "index")), N_SB);
    assert_int_equal(json_is_true(json_object_get(c, "regression")), worse);
    double before = json_number_value(json_object_get(c, "before"));
    double after = json_number_value(json_object_get(c, "after"));
    assert_true(worse ? after > 20 * before : before > 20 * after); /* ns: µs vs ms */
    json_decref(h);
    char *out;
    assert_int_equal(check(db, "--metric lat --last 12 --alpha 0.001", &out), worse);
    assert_int_equal(bl_test_count_lines(out), (size_t)worse);
    free(out);
    free_names(a);
    free_names(b);
}

static void latency_up_is_a_regression(void **state)
{
    (void)state;
    sysbench_latency("lat-up.db", "cache", "dsync", 1);
}

static void latency_down_is_an_improvement(void **state)
{
    (void)state;
    sysbench_latency("lat-down.db", "dsync", "cache", 0);
}

static void usage_errors(void **state)
{
    (void)state;
    assert_int_equal(bl_test_benchlog("check --last 0", NULL, NULL), 2);
    assert_int_equal(bl_test_benchlog("check --since yesterday", NULL, NULL), 2);
    assert_int_equal(bl_test_benchlog("check --since 2026-12-01 --last 2", NULL, NULL), 2);
    assert_int_equal(bl_test_benchlog("history --alpha 2", NULL, NULL), 2);
    assert_int_equal(bl_test_benchlog("history --last 2", NULL, NULL), 2);
    assert_int_equal(bl_test_benchlog("import --when soon x.txt", NULL, NULL), 2);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "FEED") == 0)
        return feed(atol(argv[2]));
    self = argv[0];
    setenv("TZ", "UTC", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dd_step_found_at_its_run),
        cmocka_unit_test(dd_noise_finds_nothing),
        cmocka_unit_test(latency_up_is_a_regression),
        cmocka_unit_test(latency_down_is_an_improvement),
        cmocka_unit_test(usage_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
