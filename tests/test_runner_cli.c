/* `benchlog run` end to end: suites and job files into the store, errors with their lines,
 * refusals, usage errors, no progress line off a terminal, and Ctrl-C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/jsonl.h"
#include "../core/latency.h"
#include "../core/store.h"
#include "../core/strbuf.h"
#include "support/support.h"
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *cat(const char *a, const char *b)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s%s", a, b);
    return bl_strbuf_take(&sb);
}

static size_t scratch_files(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, ".benchlog-", 10) == 0;
    closedir(d);
    return n;
}

static void query(const char *db, bl_records *out)
{
    char err[256];
    bl_store *s = bl_store_open(db, err, sizeof err);
    assert_non_null(s);
    bl_records_init(out);
    assert_int_equal(bl_store_query(s, NULL, out, err, sizeof err), 0);
    bl_store_close(s);
}

static void cleanup(char *dir)
{
    char *cmd = cat("rm -rf ", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(dir);
}

static void test_help_and_usage(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(bl_test_benchlogf(&out, &err, "run --help"), 0);
    assert_non_null(strstr(out, "cdm8"));
    assert_non_null(strstr(out, "cdm3"));
    assert_non_null(strstr(out, "quick"));
    assert_non_null(strstr(out, "--allow-overwrite"));
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "run --suite cdm9"), 2);
    assert_non_null(strstr(err, "cdm9"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "run --size lots"), 2);
    assert_non_null(strstr(err, "--size"));
    free(err);
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "run --suite quick fixtures/jobs/randread-qd32.fio"), 2);
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "run --engine posixaio"), 2);
    free(err);
}

static void test_quick_suite_into_store(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/s.db"), *out, *err;
    assert_int_equal(
        bl_test_benchlogf(&out, &err,
                          "run --db %s --suite quick --target %s --size 4m --runtime 200ms "
                          "--label disk=test",
                          db, dir),
        0);
    /* stdout is not a terminal here: summaries, but no progress line. */
    assert_null(strchr(out, '\r'));
    assert_null(strstr(out, "\033["));
    assert_non_null(strstr(out, "RND4K Q32T1"));
    assert_int_equal(scratch_files(dir), 0);
    bl_records recs;
    query(db, &recs);
    assert_int_equal(recs.n, 6);
    const char *names[] = {"SEQ1M Q8T1", "RND4K Q32T1", "RND4K Q1T1"};
    for (size_t i = 0; i < 6; i++) {
        const bl_record *r = recs.v[i];
        assert_string_equal(r->tool, "benchlog");
        assert_string_equal(bl_record_label(r, "cdm_test"), names[i % 3]);
        assert_string_equal(r->op, i < 3 ? "read" : "write"); /* reads first, like CDM */
        assert_string_equal(bl_record_label(r, "suite"), "quick");
        assert_string_equal(bl_record_label(r, "disk"), "test");
        assert_string_equal(bl_record_label(r, "cdm_pick"), "best of 1");
        /* Its one pass, through the store: no warm-up in quick, so t = 1 only. */
        assert_string_equal(bl_record_label(r, "cdm_pick_pass"), "1");
        const bl_series *pass = NULL;
        for (size_t k = 0; k < r->n_series; k++)
            if (strcmp(r->series[k].name, "pass_bw") == 0)
                pass = &r->series[k];
        assert_non_null(pass);
        assert_int_equal(pass->n, 1);
        assert_double_equal(pass->t[0], 1, 0);
        assert_true(bl_test_close(pass->v[0], r->bw_bytes_s, 1e-9));
        /* One run, one date: reports grouping by date keep the run together. */
        assert_string_equal(bl_record_label(r, "date"), bl_record_label(recs.v[0], "date"));
        assert_int_equal(strlen(bl_record_label(r, "date")), 20);
        assert_int_equal(r->size_bytes, 4 << 20);
        assert_true(r->io_bytes > 0 && r->io_bytes % r->bs == 0);
        assert_true(r->runtime_s >= 0.199 && r->runtime_s < 2); /* time based: at least 200 ms */
        assert_true(bl_test_close(r->bw_bytes_s, (double)r->io_bytes / r->runtime_s, 1e-9));
        assert_true(r->clat_ns.present && r->clat_ns.n_pct == 17);
    }
    assert_int_equal(recs.v[0]->iodepth, 8);
    assert_string_equal(recs.v[0]->ioengine, "libaio");
    assert_string_equal(recs.v[2]->ioengine, "sync");
    bl_records_free(&recs);
    free(out);
    free(err);
    free(db);
    cleanup(dir);
}

static void test_jobfile_round_trip(void **state)
{
    (void)state;
    /* The fixture is a valid fio job file... */
    if (system("fio --parse-only fixtures/jobs/seq-then-rand.fio >/dev/null 2>&1") != 0)
        bl_skip_because("fio is not installed (scripts/deps.sh test installs it)");
    /* ...and benchlog runs it as it says: a full sequential pass, then two threads each
     * covering the file once, folded by group_reporting. */
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/j.db"), *err;
    assert_int_equal(bl_test_benchlogf(NULL, &err,
                                       "run --db %s --target %s fixtures/jobs/seq-then-rand.fio",
                                       db, dir),
                     0);
    bl_records recs;
    query(db, &recs);
    assert_int_equal(recs.n, 2);
    const bl_record *w = recs.v[0], *r = recs.v[1];
    assert_string_equal(w->test, "seq-write");
    assert_int_equal(w->line, 7);
    assert_string_equal(w->source, "fixtures/jobs/seq-then-rand.fio");
    /* size=4MiB is 4000000 bytes in fio: three whole 1 MiB blocks. */
    assert_int_equal(w->io_bytes, 3 * 1048576);
    assert_string_equal(r->test, "rand-read");
    assert_int_equal(r->numjobs, 2);
    assert_int_equal(r->io_bytes, 2 * (4000000 / 4096) * 4096);
    assert_int_equal(scratch_files(dir), 0);
    bl_records_free(&recs);
    free(err);
    free(db);
    cleanup(dir);
}

/* fsync=N / fdatasync=N: one call every N writes, counted by strace against the same job
 * without it (the layout and any other syncs are the same in both runs). LeakSanitizer cannot
 * run under ptrace, so `make check` traces the program with leak checks off. */
static size_t sync_calls(const char *dir, const char *db, const char *call, int every)
{
    char job[512], trace[512], *err;
    snprintf(job, sizeof job, "%s/%s%d.fio", dir, call, every);
    FILE *f = fopen(job, "w");
    assert_non_null(f);
    fprintf(f, "[w]\nrw=write\nbs=4k\nsize=256k\nioengine=psync\n%s=%d\n", call, every);
    fclose(f);
    snprintf(trace, sizeof trace, "%s/trace-%s%d", dir, call, every);
    const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
    assert_int_equal(
        bl_test_benchlogf(NULL, &err,
                          "--version >/dev/null; ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e "
                          "trace=fsync,fdatasync -o %s %s run --db %s "
                          "--target %s %s",
                          trace, bin, db, dir, job),
        0);
    free(err);
    FILE *t = fopen(trace, "r");
    assert_non_null(t);
    char line[512], name[32];
    snprintf(name, sizeof name, " %s(", call); /* strace: "PID fsync(3) = 0" */
    size_t n = 0;
    while (fgets(line, sizeof line, t))
        n += strstr(line, name) != NULL;
    fclose(t);
    return n;
}

static void test_fsync_every_n_writes(void **state)
{
    (void)state;
    if (system("strace -V >/dev/null 2>&1") != 0)
        bl_skip_because("strace is not installed (scripts/deps.sh test installs it)");
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/f.db");
    size_t with = sync_calls(dir, db, "fsync", 16), without = sync_calls(dir, db, "fsync", 0);
    /* 256 KiB in 4 KiB writes: 64 writes, an fsync after every 16th. */
    assert_int_equal(with - without, 64 / 16);
    /* The etcd disk check's shape: a data sync after every 8th write here. */
    size_t dwith = sync_calls(dir, db, "fdatasync", 8),
           dwithout = sync_calls(dir, db, "fdatasync", 0);
    assert_int_equal(dwith - dwithout, 64 / 8);
    bl_records recs;
    query(db, &recs);
    assert_int_equal(recs.n, 4);
    assert_int_equal(recs.v[0]->io_bytes, 256 * 1024);
    /* Each call's latency is kept, as fio's sync block: one histogram sample per call. */
    assert_true(recs.v[0]->sync_ns.present);
    assert_int_equal(bl_lat_bin_total(&recs.v[0]->sync_ns), 64 / 16);
    assert_true(recs.v[0]->sync_ns.min > 0 && recs.v[0]->sync_ns.min <= recs.v[0]->sync_ns.max);
    assert_false(recs.v[1]->sync_ns.present);
    assert_int_equal(bl_lat_bin_total(&recs.v[2]->sync_ns), 64 / 8);
    assert_false(recs.v[3]->sync_ns.present);
    bl_records_free(&recs);
    free(db);
    cleanup(dir);
}

/* -q silences the notices (the depth run otherwise than asked, the test file being written)
 * and nothing else: the record still says what it ran. */
static void test_quiet_drops_notices_not_the_note(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/q.db"), *job = cat(dir, "/qd.fio"), *err;
    FILE *f = fopen(job, "w");
    assert_non_null(f);
    fputs("[qd]\nrw=read\nbs=4k\nsize=256k\nioengine=psync\niodepth=4\n", f);
    fclose(f);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "run --db %s --target %s %s", db, dir, job), 0);
    assert_non_null(strstr(err, "the sync engine runs one I/O at a time: iodepth=4"));
    assert_non_null(strstr(err, "benchlog run: writing the 0.2 MiB test file"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "run -q --db %s --target %s %s", db, dir, job),
                     0);
    assert_string_equal(err, "");
    free(err);
    bl_records recs;
    query(db, &recs);
    assert_int_equal(recs.n, 2);
    for (size_t i = 0; i < recs.n; i++) {
        assert_int_equal(recs.v[i]->iodepth, 1);
        assert_string_equal(recs.v[i]->note,
                            "iodepth=4 asked; the sync engine ran one I/O at a time");
        assert_int_equal(recs.v[i]->io_bytes, 256 * 1024);
    }
    bl_records_free(&recs);
    free(job);
    free(db);
    cleanup(dir);
}

static void test_errors_and_refusals(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/e.db"), *err;
    assert_int_equal(bl_test_benchlogf(NULL, &err,
                                       "run --db %s --target %s fixtures/jobs/bad-options.fio", db,
                                       dir),
                     1);
    assert_non_null(strstr(err, "fixtures/jobs/bad-options.fio:6: option 'verify'"));
    assert_non_null(strstr(err, "fixtures/jobs/bad-options.fio:7: option 'bs'"));
    free(err);

    char *file = cat(dir, "/existing");
    FILE *f = fopen(file, "w");
    fputs("data\n", f);
    fclose(f);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "run --db %s --target %s --size 1m", db, file),
                     1);
    assert_non_null(strstr(err, "existing file"));
    assert_non_null(strstr(err, "--allow-overwrite"));
    free(err);
    bl_records recs;
    query(db, &recs);
    assert_int_equal(recs.n, 0);
    bl_records_free(&recs);
    free(file);
    free(db);
    cleanup(dir);
}

static void test_ctrl_c_keeps_finished_tests(void **state)
{
    (void)state;
    const char *bin = getenv("BENCHLOG_BIN");
    if (!bin)
        bin = "build/benchlog";
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/c.db"), *job = cat(dir, "/two.fio");
    FILE *f = fopen(job, "w");
    fputs("[global]\nsize=4m\ntime_based\n[short]\nrw=read\nruntime=300ms\n"
          "[long]\nstonewall\nrw=randread\nruntime=60\n",
          f);
    fclose(f);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execl(bin, bin, "run", "--db", db, "--target", dir, job, (char *)NULL);
        _exit(127);
    }
    /* The long job's scratch file appears once the short one has finished: then Ctrl-C. */
    bl_strbuf longf;
    bl_strbuf_init(&longf);
    bl_strbuf_printf(&longf, "%s/.benchlog-%ld-long.tmp", dir, (long)pid);
    struct timespec ts = {0, 50 * 1000000};
    for (int i = 0; i < 400 && access(longf.s, F_OK) != 0; i++)
        nanosleep(&ts, NULL);
    assert_int_equal(access(longf.s, F_OK), 0);
    bl_strbuf_free(&longf);
    struct timespec run = {0, 300 * 1000000};
    nanosleep(&run, NULL);
    kill(pid, SIGINT);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    assert_int_equal(scratch_files(dir), 0);
    bl_records recs;
    query(db, &recs);
    assert_int_equal(recs.n, 1);
    assert_string_equal(bl_record_label(recs.v[0], "job"), "short");
    assert_true(recs.v[0]->runtime_s >= 0.299 && recs.v[0]->runtime_s < 2);
    bl_records_free(&recs);
    free(job);
    free(db);
    cleanup(dir);
}

/* SIGKILL leaves the scratch file (nothing can run after it); --clean removes it because its
 * process is gone, and keeps one whose process lives (this test's own PID). */
static void test_clean_after_sigkill(void **state)
{
    (void)state;
    const char *bin = getenv("BENCHLOG_BIN");
    if (!bin)
        bin = "build/benchlog";
    char *dir = bl_test_tmpdir(), *db = cat(dir, "/k.db"), *job = cat(dir, "/k.fio");
    FILE *f = fopen(job, "w");
    fputs("[k]\nsize=4m\nrw=randread\ntime_based\nruntime=60\n", f);
    fclose(f);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execl(bin, bin, "run", "--db", db, "--target", dir, job, (char *)NULL);
        _exit(127);
    }
    bl_strbuf left;
    bl_strbuf_init(&left);
    bl_strbuf_printf(&left, "%s/.benchlog-%ld-k.tmp", dir, (long)pid);
    struct timespec ts = {0, 50 * 1000000};
    for (int i = 0; i < 400 && access(left.s, F_OK) != 0; i++)
        nanosleep(&ts, NULL);
    assert_int_equal(access(left.s, F_OK), 0);
    kill(pid, SIGKILL);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(access(left.s, F_OK), 0); /* left behind, as the help says */
    bl_strbuf lv;
    bl_strbuf_init(&lv);
    bl_strbuf_printf(&lv, "%s/.benchlog-%ld-alive.tmp", dir, (long)getpid());
    FILE *g = fopen(lv.s, "w");
    fclose(g);
    char *out = NULL, *err = NULL;
    assert_int_equal(bl_test_benchlogf(&out, &err, "run --clean %s", dir), 0);
    assert_non_null(strstr(err, "1 stale scratch file removed"));
    bl_strbuf gone;
    bl_strbuf_init(&gone);
    bl_strbuf_printf(&gone, "run %ld is gone", (long)pid);
    assert_non_null(strstr(err, gone.s));
    bl_strbuf_free(&gone);
    assert_int_equal(access(left.s, F_OK), -1);
    assert_int_equal(access(lv.s, F_OK), 0);
    free(out);
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "run --help"), 0);
    assert_non_null(strstr(out, "SIGKILL"));
    assert_non_null(strstr(out, "--clean DIR"));
    free(out);
    bl_strbuf_free(&lv);
    bl_strbuf_free(&left);
    free(job);
    free(db);
    cleanup(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_usage),
        cmocka_unit_test(test_quick_suite_into_store),
        cmocka_unit_test(test_jobfile_round_trip),
        cmocka_unit_test(test_fsync_every_n_writes),
        cmocka_unit_test(test_errors_and_refusals),
        cmocka_unit_test(test_quiet_drops_notices_not_the_note),
        cmocka_unit_test(test_ctrl_c_keeps_finished_tests),
        cmocka_unit_test(test_clean_after_sigkill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
