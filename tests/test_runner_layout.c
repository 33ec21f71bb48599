/* A job's file as fio sets it up (filesetup.c, extend_file): the new space is reserved as
 * fallocate= says, and data is written over the file first only when the job reads it or
 * overwrite=1. A write job on a new file writes into it directly: bytes passed to write calls
 * (/proc/self/io wchar, which counts reaped children too) equal the job's, as fio's do; with a
 * layout pass they would be twice that. fallocate's modes give the file fio's create_only=1
 * gives it: the same size and allocated bytes. hipri that cannot run is refused before the
 * file is laid out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/runner.h"
#include "../runner/target.h"
#include "support/support.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIZE (8ull << 20)

static long long wchar(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    if (!f)
        return -1;
    char line[128];
    long long v = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "wchar: %lld", &v) == 1)
            break;
    fclose(f);
    return v;
}

static bool have_fio(void)
{
    return system("command -v fio >/dev/null 2>&1") == 0;
}

/* Runs one job in this process on a scratch file in dir; the bytes passed to write calls. */
static long long run_job(const char *dir, const char *opts, int64_t *io_bytes)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "[w]\nbs=64k\nsize=8m\nioengine=psync\n%s\n", opts);
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "l.fio", sb.s, sb.len, err, sizeof err), 0);
    bl_diags po;
    bl_diags_init(&po, "l.fio");
    bl_jobs jobs = {0};
    assert_int_equal(bl_jobfile_parse(&t, &jobs, &po), 0);
    FILE *devnull = fopen("/dev/null", "w");
    bl_run_opts o = {.target = dir, .msg = devnull};
    bl_records recs;
    bl_records_init(&recs);
    long long before = wchar();
    assert_int_equal(bl_run_jobs(&jobs, &o, &recs), BL_RUN_OK);
    long long after = wchar();
    fclose(devnull);
    *io_bytes = recs.v[0]->io_bytes;
    bl_records_free(&recs);
    bl_jobs_free(&jobs);
    bl_diags_free(&po);
    bl_text_free(&t);
    bl_strbuf_free(&sb);
    return after - before;
}

/* fio's bytes passed to write calls for the same job (its own output goes to /dev/null). */
static long long run_fio(const char *dir, const char *opts)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "fio --name=w --filename=%s/fio.dat --bs=64k --size=8m --ioengine=psync %s "
             "--output=/dev/null",
             dir, opts);
    long long before = wchar();
    assert_int_equal(system(cmd), 0);
    long long after = wchar();
    snprintf(cmd, sizeof cmd, "%s/fio.dat", dir);
    unlink(cmd);
    return after - before;
}

static void test_a_write_job_writes_no_layout_first(void **state)
{
    (void)state;
    if (wchar() < 0)
        bl_skip_because("no /proc/self/io here: write calls cannot be counted");
    char *dir = bl_test_tmpdir();
    int64_t io = 0;
    long long w = run_job(dir, "rw=write", &io);
    assert_int_equal(io, (int64_t)SIZE);
    long long wr = run_job(dir, "rw=randwrite", &io);
    assert_int_equal(io, (int64_t)SIZE);
    long long wo = run_job(dir, "rw=write\noverwrite=1", &io);
    long long r = run_job(dir, "rw=read", &io);
    assert_int_equal(io, (int64_t)SIZE);
    printf("  bytes written: write %lld, randwrite %lld, write+overwrite=1 %lld, read %lld "
           "(job: %llu)\n",
           w, wr, wo, r, SIZE);
    /* The job's bytes and nothing before them; the small rest is our own messages. */
    assert_true(w >= (long long)SIZE && w < (long long)SIZE + 65536);
    assert_true(wr >= (long long)SIZE && wr < (long long)SIZE + 65536);
    assert_true(wo >= 2 * (long long)SIZE && wo < 2 * (long long)SIZE + 65536);
    assert_true(r >= (long long)SIZE && r < (long long)SIZE + 65536);
    if (have_fio()) {
        long long fw = run_fio(dir, "--rw=write");
        long long fo = run_fio(dir, "--rw=write --overwrite=1");
        long long fr = run_fio(dir, "--rw=read");
        printf("  fio: write %lld, write+overwrite=1 %lld, read %lld\n", fw, fo, fr);
        assert_true(fw >= (long long)SIZE && fw < (long long)SIZE + 262144);
        assert_true(fo >= 2 * (long long)SIZE && fo < 2 * (long long)SIZE + 262144);
        assert_true(fr >= (long long)SIZE && fr < (long long)SIZE + 262144);
    } else
        printf("  (fio not installed: compared with fio's rule only)\n");
    assert_int_equal(rmdir(dir), 0); /* the scratch files are gone */
    free(dir);
}

typedef struct {
    long long size, alloc;
} file_shape;

static file_shape shape_of(int fd)
{
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    return (file_shape){(long long)st.st_size, (long long)st.st_blocks * 512};
}

/* Ours: a scratch file readied for a write job (layout false) or a read job (true). */
static file_shape ours(const char *dir, bl_falloc_mode m, bool layout)
{
    bl_targets ts = {0};
    char err[256];
    bl_target *t = bl_target_get(&ts, dir, "fa", SIZE, err, sizeof err);
    assert_non_null(t);
    assert_int_equal(bl_target_prepare(t, m, layout, NULL, NULL, err, sizeof err), 0);
    file_shape s = shape_of(t->fd);
    bl_targets_cleanup(&ts);
    return s;
}

/* fio's: create_only=1 stops after the file set-up. */
static file_shape fios(const char *dir, const char *mode, const char *rw)
{
    char cmd[512], path[256];
    snprintf(path, sizeof path, "%s/fio.dat", dir);
    snprintf(cmd, sizeof cmd,
             "fio --name=fa --filename=%s --rw=%s --bs=64k --size=8m --fallocate=%s "
             "--create_only=1 --output=/dev/null",
             path, rw, mode);
    assert_int_equal(system(cmd), 0);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    file_shape s = shape_of(fd);
    close(fd);
    unlink(path);
    return s;
}

static void test_fallocate_modes_shape_the_file_as_fio(void **state)
{
    (void)state;
    if (!have_fio())
        bl_skip_because("fio (Debian's) is not installed: nothing to compare with");
    char *dir = bl_test_tmpdir();
    const char *names[] = {"none", "native", "posix", "keep", "truncate"};
    bl_falloc_mode modes[] = {BL_FALLOC_NONE, BL_FALLOC_NATIVE, BL_FALLOC_POSIX, BL_FALLOC_KEEP,
                              BL_FALLOC_TRUNCATE};
    for (int layout = 0; layout < 2; layout++)
        for (size_t i = 0; i < 5; i++) {
            file_shape o = ours(dir, modes[i], layout);
            file_shape f = fios(dir, names[i], layout ? "read" : "write");
            printf("  %s job, fallocate=%-8s size/allocated: fio %lld/%lld, ours %lld/%lld\n",
                   layout ? "read " : "write", names[i], f.size, f.alloc, o.size, o.alloc);
            assert_int_equal(o.size, f.size);
            /* the filesystem may round an allocation to its block or extent */
            assert_true(llabs(o.alloc - f.alloc) <= 65536);
        }
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* The 64 KiB writes of a strace log: fd and offset of each, in order. */
typedef struct {
    int n, fd[64];
    long long off[64];
    int fallocs; /* fallocate(fd, 0, 0, 1 MiB) calls: a file's space reserved */
    int names;   /* files named NAME.0.F opened */
} trace;

/* strace -f splits a call that another process interrupts into "PID call(args <unfinished ...>"
 * and "PID <... call resumed>) = RET"; CI lost two of fio's writes that way. The halves are
 * joined into one line before it is read. */
typedef struct {
    int pid[8];
    char head[8][512];
    int n;
} pending_calls;

static bool join_split_call(pending_calls *pc, char *line, size_t cap)
{
    int pid;
    if (sscanf(line, "%d", &pid) != 1)
        return true;
    char *cut = strstr(line, " <unfinished ...>");
    if (cut) {
        int k = 0;
        while (k < pc->n && pc->pid[k] != pid)
            k++;
        if (k == pc->n) {
            assert_true(pc->n < 8);
            pc->n++;
        }
        pc->pid[k] = pid;
        *cut = '\0';
        snprintf(pc->head[k], sizeof pc->head[k], "%s", line);
        return false;
    }
    char *resumed = strstr(line, " resumed>");
    if (!strstr(line, "<... ") || !resumed)
        return true;
    for (int k = 0; k < pc->n; k++)
        if (pc->pid[k] == pid) {
            const char *rest = resumed + strlen(" resumed>");
            size_t head_len = strlen(pc->head[k]), rest_len = strlen(rest);
            assert_true(head_len + rest_len < cap);
            memmove(line + head_len, rest, rest_len + 1);
            memcpy(line, pc->head[k], head_len);
            if (k != --pc->n) {
                pc->pid[k] = pc->pid[pc->n];
                memcpy(pc->head[k], pc->head[pc->n], sizeof pc->head[k]);
            }
            return true;
        }
    return false;
}

static void read_trace(const char *log, trace *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    char line[512];
    pending_calls pc = {0};
    while (fgets(line, sizeof line, f)) {
        if (!join_split_call(&pc, line, sizeof line))
            continue;
        int pid, fd;
        long long off, len, ret;
        char *p = strstr(line, "pwrite64(");
        if (p &&
            sscanf(p, "pwrite64(%d, \"\"..., %lld, %lld) = %lld", &fd, &len, &off, &ret) == 4 &&
            len == 65536) {
            assert_true(t->n < 64);
            assert_int_equal(ret, 65536);
            t->fd[t->n] = fd;
            t->off[t->n++] = off;
        }
        long long flen, fret;
        p = strstr(line, "fallocate(");
        if (p && sscanf(p, "fallocate(%d, 0, 0, %lld) = %lld", &fd, &flen, &fret) == 3 &&
            flen == 1048576 && fret == 0)
            t->fallocs++;
        for (int k = 0; k < 3; k++) {
            char want[32];
            snprintf(want, sizeof want, "nf.0.%d", k);
            if (strstr(line, "openat(") && strstr(line, want) && strstr(line, "O_CREAT"))
                t->names++;
        }
        (void)pid;
    }
    fclose(f);
}

/* nrfiles=3 over 3 MiB in 64 KiB writes: three files of 1 MiB, each written whole once. */
static void check_files(const trace *t, bool random, const char *who)
{
    printf("  %s: %d writes of 64 KiB, %d files reserved, %d files named nf.0.F; first fds "
           "%d %d %d %d\n",
           who, t->n, t->fallocs, t->names, t->fd[0], t->fd[1], t->fd[2], t->fd[3]);
    assert_int_equal(t->n, 48);
    assert_int_equal(t->fallocs, 3);
    assert_true(t->names >= 3);
    int fds[3], nfd = 0;
    for (int i = 0; i < t->n; i++) {
        int k = 0;
        while (k < nfd && fds[k] != t->fd[i])
            k++;
        if (k == nfd) {
            assert_true(nfd < 3);
            fds[nfd++] = t->fd[i];
        }
        /* the files in turn, one I/O each */
        if (i > 0)
            assert_int_not_equal(t->fd[i], t->fd[i - 1]);
        if (i >= 3)
            assert_int_equal(t->fd[i], t->fd[i - 3]);
    }
    assert_int_equal(nfd, 3);
    for (int k = 0; k < 3; k++) { /* every block of every file once, in order or not */
        unsigned seen = 0;
        long long last = -1;
        int back = 0;
        for (int i = 0; i < t->n; i++)
            if (t->fd[i] == fds[k]) {
                back += t->off[i] < last;
                last = t->off[i];
                assert_true(t->off[i] % 65536 == 0 && t->off[i] < 1048576);
                assert_false(seen & (1u << (t->off[i] / 65536)));
                seen |= 1u << (t->off[i] / 65536);
            }
        assert_int_equal(seen, 0xffff);
        if (random)
            assert_true(back > 0);
        else
            assert_int_equal(back, 0);
    }
}

/* The trace reader itself: a write split by another process's call is counted once, whole. */
static void test_trace_reader_joins_split_calls(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    char log[256];
    snprintf(log, sizeof log, "%s/trace", dir);
    FILE *f = fopen(log, "w");
    assert_non_null(f);
    fputs("101 pwrite64(7, \"\"..., 65536, 0) = 65536\n"
          "101 pwrite64(7, \"\"..., 65536, 65536 <unfinished ...>\n"
          "100 openat(AT_FDCWD, \"x/nf.0.0\", O_RDWR|O_CREAT, 0644 <unfinished ...>\n"
          "101 <... pwrite64 resumed>) = 65536\n"
          "100 <... openat resumed>) = 9\n",
          f);
    fclose(f);
    trace t;
    read_trace(log, &t);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.fd[1], 7);
    assert_int_equal(t.off[1], 65536);
    assert_int_equal(t.names, 1);
    unlink(log);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

static void test_nrfiles_splits_the_job_as_fio(void **state)
{
    (void)state;
    if (system("command -v strace >/dev/null 2>&1") != 0)
        bl_skip_because("strace is not installed: the writes to each file cannot be seen");
    char *dir = bl_test_tmpdir();
    const char *bin = getenv("BENCHLOG_BIN");
    char cmd[1024], log[256], job[256];
    snprintf(log, sizeof log, "%s/trace", dir);
    snprintf(job, sizeof job, "%s/nf.fio", dir);
    for (int rnd = 0; rnd < 2; rnd++) {
        FILE *jf = fopen(job, "w");
        fprintf(jf, "[nf]\nrw=%s\nbs=64k\nsize=3m\nnrfiles=3\nioengine=psync\n",
                rnd ? "randwrite" : "write");
        fclose(jf);
        snprintf(cmd, sizeof cmd,
                 /* LeakSanitizer cannot run under ptrace: off for a sanitizer build */
                 "ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,pwrite64,fallocate "
                 "-s 0 -o %s %s run --db "
                 "%s/s.db --target %s %s >/dev/null 2>&1",
                 log, bin ? bin : "build/benchlog", dir, dir, job);
        assert_int_equal(system(cmd), 0);
        trace t;
        read_trace(log, &t);
        check_files(&t, rnd, rnd ? "ours, randwrite" : "ours, write");
        if (have_fio()) {
            snprintf(cmd, sizeof cmd,
                     "strace -f -qq -e trace=openat,pwrite64,fallocate -s 0 -o %s fio --name=nf "
                     "--directory=%s --rw=%s --bs=64k --size=3m --nrfiles=3 --ioengine=psync "
                     "--output=/dev/null",
                     log, dir, rnd ? "randwrite" : "write");
            assert_int_equal(system(cmd), 0);
            read_trace(log, &t);
            check_files(&t, rnd, rnd ? "fio, randwrite" : "fio, write");
            for (int k = 0; k < 3; k++) { /* fio keeps its files: 1 MiB each */
                char p[256];
                struct stat st;
                snprintf(p, sizeof p, "%s/nf.0.%d", dir, k);
                assert_int_equal(stat(p, &st), 0);
                assert_int_equal(st.st_size, 1048576);
                unlink(p);
            }
        }
    }
    unlink(log);
    unlink(job);
    snprintf(cmd, sizeof cmd, "%s/s.db", dir);
    unlink(cmd);
    assert_int_equal(rmdir(dir), 0); /* our three files are gone */
    free(dir);
}

/* Every engine that does I/O reads all the files' blocks: io_bytes is the job's size. */
static void test_nrfiles_on_every_engine(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    const char *engines[] = {"psync", "libaio", "io_uring"};
    for (size_t e = 0; e < 3; e++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb,
                         "[nf]\nrw=randread\nbs=4k\nsize=3m\nnrfiles=3\niodepth=8\nioengine=%s\n",
                         engines[e]);
        bl_text t;
        char err[256];
        assert_int_equal(bl_text_from_bytes(&t, "n.fio", sb.s, sb.len, err, sizeof err), 0);
        bl_diags po;
        bl_diags_init(&po, "n.fio");
        bl_jobs jobs = {0};
        assert_int_equal(bl_jobfile_parse(&t, &jobs, &po), 0);
        FILE *devnull = fopen("/dev/null", "w");
        bl_run_opts o = {.target = dir, .msg = devnull};
        bl_records recs;
        bl_records_init(&recs);
        int rc = bl_run_jobs(&jobs, &o, &recs);
        fclose(devnull);
        if (rc == BL_RUN_OK) {
            printf("  %s: %lld bytes read over 3 files (size_bytes %lld, nrfiles=%s)\n", engines[e],
                   (long long)recs.v[0]->io_bytes, (long long)recs.v[0]->size_bytes,
                   bl_record_label(recs.v[0], "nrfiles"));
            assert_int_equal(recs.v[0]->io_bytes, 3 << 20);
            assert_int_equal(recs.v[0]->size_bytes, 3 << 20);
            assert_string_equal(bl_record_label(recs.v[0], "nrfiles"), "3");
        } else
            printf("  %s cannot run here: skipped\n", engines[e]);
        bl_records_free(&recs);
        bl_jobs_free(&jobs);
        bl_diags_free(&po);
        bl_text_free(&t);
        bl_strbuf_free(&sb);
    }
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* The three files' layout is said in one line, on stderr (progress, not a result). */
static void test_layout_said_once(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir(), job[600], args[2048], *out, *err;
    snprintf(job, sizeof job, "%s/nf.fio", dir);
    FILE *jf = fopen(job, "w");
    assert_non_null(jf);
    fputs("[nf]\nrw=read\nbs=64k\nsize=3m\nnrfiles=3\n", jf);
    fclose(jf);
    snprintf(args, sizeof args, "run --db %s/s.db --target %s %s", dir, dir, job);
    assert_int_equal(bl_test_benchlog(args, &out, &err), 0);
    const char *w = strstr(err, "benchlog run: writing 3 test files, 3.0 MiB in all: ");
    assert_non_null(w);
    assert_non_null(strstr(w, "nf.0.0.tmp .. .benchlog-"));
    assert_null(strstr(w + 1, "benchlog run: writing"));
    assert_null(strstr(out, "writing"));
    free(out);
    free(err);
    unlink(job);
    snprintf(args, sizeof args, "%s/s.db", dir);
    unlink(args);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

static void test_options_refused_with_their_line(void **state)
{
    (void)state;
    const char *bad[][2] = {
        {"fallocate=fast", "option 'fallocate': 'fast' is not one of none, native"},
        {"nrfiles=0", "nrfiles"},
        {"nrfiles=257", "nrfiles"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "[a]\nrw=write\n%s\n", bad[i][0]);
        bl_text t;
        char err[256];
        assert_int_equal(bl_text_from_bytes(&t, "o.fio", sb.s, sb.len, err, sizeof err), 0);
        bl_diags out;
        bl_diags_init(&out, "o.fio");
        bl_jobs jobs = {0};
        assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
        assert_int_equal(out.v[0].line, 3);
        if (!strstr(out.v[0].msg, bad[i][1]))
            printf("got %s\n", out.v[0].msg);
        assert_non_null(strstr(out.v[0].msg, bad[i][1]));
        bl_jobs_free(&jobs);
        bl_diags_free(&out);
        bl_text_free(&t);
        bl_strbuf_free(&sb);
    }
    /* nrfiles with what it cannot honour: refused at the job's section line */
    const char *across[][2] = {
        {"size=1m\nnrfiles=3", "size must be a multiple of nrfiles x bs"},
        {"size=3m\nnrfiles=3\nfilename=/tmp/x", "with filename= fio takes the files"},
        {"size=3m\nnrfiles=3\nverify=crc32c", "verify reads back one file"},
        {"size=3m\nnrfiles=3\nfsync=4", "fsync=/fdatasync= with several files"},
    };
    for (size_t i = 0; i < sizeof across / sizeof *across; i++) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "[a]\nrw=write\n%s\n", across[i][0]);
        bl_text t;
        char err[256];
        assert_int_equal(bl_text_from_bytes(&t, "o.fio", sb.s, sb.len, err, sizeof err), 0);
        bl_diags out;
        bl_diags_init(&out, "o.fio");
        bl_jobs jobs = {0};
        assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
        assert_int_equal(out.v[0].line, 1);
        if (!strstr(out.v[0].msg, across[i][1]))
            printf("got %s\n", out.v[0].msg);
        assert_non_null(strstr(out.v[0].msg, "nrfiles=3 is not supported"));
        assert_non_null(strstr(out.v[0].msg, across[i][1]));
        bl_jobs_free(&jobs);
        bl_diags_free(&out);
        bl_text_free(&t);
        bl_strbuf_free(&sb);
    }
    /* nrfiles=1 is fio's default: accepted */
    const char *ok = "[a]\nrw=write\nnrfiles=1\nfallocate=keep\noverwrite=1\n";
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "o.fio", ok, strlen(ok), err, sizeof err), 0);
    bl_diags out;
    bl_diags_init(&out, "o.fio");
    bl_jobs jobs = {0};
    assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 0);
    assert_int_equal(jobs.v[0].fallocate, BL_FALLOC_KEEP);
    assert_true(jobs.v[0].overwrite);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_write_job_writes_no_layout_first),
        cmocka_unit_test(test_fallocate_modes_shape_the_file_as_fio),
        cmocka_unit_test(test_trace_reader_joins_split_calls),
        cmocka_unit_test(test_nrfiles_splits_the_job_as_fio),
        cmocka_unit_test(test_nrfiles_on_every_engine),
        cmocka_unit_test(test_layout_said_once),
        cmocka_unit_test(test_options_refused_with_their_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
