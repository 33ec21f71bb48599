/* A numjobs=N job's clones as fio sets them up (init.c, add_job): a job naming no file gives
 * clone C its own files NAME.C.F, each of size / nrfiles, so N clones touch N x size bytes;
 * with filename= they share that one file. Seen under strace -y (every write names its file)
 * for our runner and for fio with the same job; fio's leftover files give the names and
 * sizes, ours are removed after the run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/runner.h"
#include "support/support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BS 65536
#define MAXF 8

/* The files a traced run wrote with 64 KiB pwrites: name, writes, blocks seen (bit a block),
 * blocks written twice, bytes reserved by fallocate(fd, 0, 0, LEN). */
typedef struct {
    int n;
    char name[MAXF][64];
    int writes[MAXF];
    unsigned long long seen[MAXF];
    int twice[MAXF];
    long long falloc[MAXF];
} files_seen;

/* The file's name after the folder: "nj.1.0" for fio, ".benchlog-PID-nj.1.0.tmp" for us. */
static int file_of(files_seen *fs, const char *path, size_t len)
{
    const char *slash = memrchr(path, '/', len);
    const char *b = slash ? slash + 1 : path;
    size_t n = len - (size_t)(b - path);
    assert_true(n < sizeof fs->name[0]);
    for (int i = 0; i < fs->n; i++)
        if (strlen(fs->name[i]) == n && memcmp(fs->name[i], b, n) == 0)
            return i;
    assert_true(fs->n < MAXF);
    memcpy(fs->name[fs->n], b, n);
    fs->name[fs->n][n] = 0;
    return fs->n++;
}

static void read_trace(const char *log, files_seen *fs)
{
    memset(fs, 0, sizeof *fs);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        const char *call = strstr(line, "pwrite64(");
        bool falloc = false;
        if (!call && (call = strstr(line, "fallocate(")))
            falloc = true;
        if (!call)
            continue;
        const char *lt = strchr(call, '<'), *gt = lt ? strchr(lt, '>') : NULL;
        if (!lt || !gt || lt[1] != '/')
            continue; /* not a file's descriptor (or a resumed line) */
        long long a, b;
        if (falloc) {
            if (sscanf(gt, ">, 0, 0, %lld)", &a) == 1)
                fs->falloc[file_of(fs, lt + 1, (size_t)(gt - lt - 1))] += a;
            continue;
        }
        /* with threads strace may split the call: the arguments are on the first part */
        if (sscanf(gt, ">, \"\"..., %lld, %lld", &a, &b) != 2 || a != BS)
            continue;
        int i = file_of(fs, lt + 1, (size_t)(gt - lt - 1));
        assert_true(b % BS == 0 && b / BS < 64);
        unsigned long long bit = 1ull << (b / BS);
        fs->twice[i] += (fs->seen[i] & bit) != 0;
        fs->seen[i] |= bit;
        fs->writes[i]++;
    }
    fclose(f);
}

/* Each of clones x nrfiles files named NAME.C.F (inside our scratch name), written whole once
 * by its one clone: (size / nrfiles) / bs writes at distinct blocks, reserved at that size. */
static void check_own_files(const files_seen *fs, int clones, int nrfiles, long long size,
                            const char *who)
{
    long long fsize = size / nrfiles;
    int blocks = (int)(fsize / BS);
    printf("  %s: %d files written:", who, fs->n);
    for (int i = 0; i < fs->n; i++)
        printf(" %s (%d writes, %lld reserved)", fs->name[i], fs->writes[i], fs->falloc[i]);
    printf("\n");
    assert_int_equal(fs->n, clones * nrfiles);
    for (int c = 0; c < clones; c++)
        for (int f = 0; f < nrfiles; f++) {
            char want[32];
            snprintf(want, sizeof want, "nj.%d.%d", c, f);
            int i = 0;
            while (i < fs->n && !(strstr(fs->name[i], want) &&
                                  (strcmp(fs->name[i], want) == 0 ||
                                   strcmp(strstr(fs->name[i], want) + strlen(want), ".tmp") == 0)))
                i++;
            assert_true(i < fs->n);
            assert_int_equal(fs->writes[i], blocks);
            assert_int_equal(fs->twice[i], 0);
            assert_true(fs->seen[i] == (blocks == 64 ? ~0ull : (1ull << blocks) - 1));
            assert_int_equal(fs->falloc[i], fsize);
        }
}

static void write_job(const char *path, const char *opts)
{
    FILE *jf = fopen(path, "w");
    assert_non_null(jf);
    fprintf(jf, "[nj]\nbs=64k\nioengine=psync\n%s\n", opts);
    fclose(jf);
}

/* strace of `benchlog run` with the job in dir (the folder is the target, as fio's
 * directory=). */
static void trace_ours(const char *dir, const char *opts, files_seen *fs)
{
    const char *bin = getenv("BENCHLOG_BIN");
    char cmd[1024], log[256], job[256];
    snprintf(log, sizeof log, "%s/trace", dir);
    snprintf(job, sizeof job, "%s/nj.fio", dir);
    write_job(job, opts);
    snprintf(cmd, sizeof cmd,
             /* LeakSanitizer cannot run under ptrace: off for a sanitizer build */
             "ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e trace=pwrite64,fallocate -s 0 "
             "-o %s %s run --db %s/s.db --target %s %s >/dev/null 2>&1",
             log, bin ? bin : "build/benchlog", dir, dir, job);
    assert_int_equal(system(cmd), 0);
    read_trace(log, fs);
    unlink(log);
    unlink(job);
    snprintf(cmd, sizeof cmd, "%s/s.db", dir);
    unlink(cmd);
}

/* fio with the same options given on its command line, in dir. */
static void trace_fio(const char *dir, const char *args, files_seen *fs)
{
    char cmd[1024], log[256];
    snprintf(log, sizeof log, "%s/trace", dir);
    snprintf(cmd, sizeof cmd,
             "strace -f -y -qq -e trace=pwrite64,fallocate -s 0 -o %s fio --name=nj "
             "--directory=%s --bs=64k --ioengine=psync %s --output=/dev/null",
             log, dir, args);
    assert_int_equal(system(cmd), 0);
    read_trace(log, fs);
    unlink(log);
}

static void need_strace(void)
{
    if (!bl_test_have("strace"))
        bl_skip_because("strace is not installed: the writes to each file cannot be seen");
}

/* numjobs=3, size=1m, no filename: three files of 1 MiB, each written whole by its clone
 * (the old runner wrote the three clones' 48 writes into one shared file). */
static void test_each_clone_writes_its_own_file(void **state)
{
    (void)state;
    need_strace();
    char *dir = bl_test_tmpdir();
    files_seen fs;
    trace_ours(dir, "rw=write\nsize=1m\nnumjobs=3", &fs);
    check_own_files(&fs, 3, 1, 1048576, "ours, numjobs=3");
    if (bl_test_have("fio")) {
        trace_fio(dir, "--rw=write --size=1m --numjobs=3", &fs);
        check_own_files(&fs, 3, 1, 1048576, "fio, numjobs=3");
        for (int c = 0; c < 3; c++) { /* fio leaves its files: nj.C.0, 1 MiB each */
            char p[256];
            struct stat st;
            snprintf(p, sizeof p, "%s/nj.%d.0", dir, c);
            assert_int_equal(stat(p, &st), 0);
            assert_int_equal(st.st_size, 1048576);
            unlink(p);
        }
    }
    assert_int_equal(rmdir(dir), 0); /* our three files are gone */
    free(dir);
}

/* numjobs=2 x nrfiles=2 over 2 MiB: four files nj.C.F of 1 MiB, each clone on its two. */
static void test_clones_with_several_files(void **state)
{
    (void)state;
    need_strace();
    char *dir = bl_test_tmpdir();
    files_seen fs;
    trace_ours(dir, "rw=randwrite\nsize=2m\nnumjobs=2\nnrfiles=2", &fs);
    check_own_files(&fs, 2, 2, 2097152, "ours, numjobs=2 nrfiles=2");
    if (bl_test_have("fio")) {
        trace_fio(dir, "--rw=randwrite --size=2m --numjobs=2 --nrfiles=2", &fs);
        check_own_files(&fs, 2, 2, 2097152, "fio, numjobs=2 nrfiles=2");
        for (int c = 0; c < 2; c++)
            for (int f = 0; f < 2; f++) {
                char p[256];
                struct stat st;
                snprintf(p, sizeof p, "%s/nj.%d.%d", dir, c, f);
                assert_int_equal(stat(p, &st), 0);
                assert_int_equal(st.st_size, 1048576);
                unlink(p);
            }
    }
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* filename=: the clones share the one file, as in fio: 3 x 16 writes, each block 3 times. */
static void test_clones_share_a_named_file(void **state)
{
    (void)state;
    need_strace();
    char *dir = bl_test_tmpdir();
    char opts[512], args[512], shared[256];
    snprintf(shared, sizeof shared, "%s/shared.dat", dir);
    snprintf(opts, sizeof opts, "rw=write\nsize=1m\nnumjobs=3\nfilename=%s", shared);
    snprintf(args, sizeof args, "--rw=write --size=1m --numjobs=3 --filename=shared.dat");
    files_seen fs;
    for (int who = 0; who < 2; who++) {
        if (who == 0) {
            /* --target names the file itself: it is made by the job, so a scratch target */
            const char *bin = getenv("BENCHLOG_BIN");
            char cmd[1024], log[256], job[256];
            snprintf(log, sizeof log, "%s/trace", dir);
            snprintf(job, sizeof job, "%s/nj.fio", dir);
            write_job(job, opts);
            snprintf(cmd, sizeof cmd,
                     "ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e trace=pwrite64,fallocate "
                     "-s 0 -o %s %s run --db %s/s.db %s >/dev/null 2>&1",
                     log, bin ? bin : "build/benchlog", dir, job);
            assert_int_equal(system(cmd), 0);
            read_trace(log, &fs);
            unlink(log);
            unlink(job);
            snprintf(cmd, sizeof cmd, "%s/s.db", dir);
            unlink(cmd);
        } else {
            if (!bl_test_have("fio"))
                break;
            trace_fio(dir, args, &fs);
        }
        printf("  %s, filename=: %d file(s), %s: %d writes, %d to a block already written\n",
               who ? "fio" : "ours", fs.n, fs.n ? fs.name[0] : "-", fs.writes[0], fs.twice[0]);
        assert_int_equal(fs.n, 1);
        assert_string_equal(fs.name[0], "shared.dat");
        assert_int_equal(fs.writes[0], 48);
        assert_int_equal(fs.twice[0], 32);
        assert_true(fs.seen[0] == 0xffff);
        assert_int_equal(fs.falloc[0], 1048576); /* reserved once, at one clone's size */
        struct stat st;
        if (who == 1) { /* fio leaves it; ours, made by the run, is removed */
            assert_int_equal(stat(shared, &st), 0);
            assert_int_equal(st.st_size, 1048576);
            unlink(shared);
        } else
            assert_int_not_equal(stat(shared, &st), 0);
    }
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

/* The clones' files are all made before any is filled: the free space must hold them all.
 * On a 40 MiB tmpfs (mounted for the test, so root only) two clones of 16 MiB need
 * 32 MiB and the 16.3 MiB margin: refused before a byte is written; one clone runs. */
static void test_free_space_holds_every_clones_file(void **state)
{
    (void)state;
    if (geteuid() != 0)
        bl_skip_because("a tmpfs of a set size needs root");
    char *dir = bl_test_tmpdir();
    const char *bin = getenv("BENCHLOG_BIN");
    char cmd[2048], m[256];
    snprintf(m, sizeof m, "%s/m", dir);
    assert_int_equal(mkdir(m, 0700), 0);
    for (int n = 2; n >= 1; n--) {
        char job[256];
        snprintf(job, sizeof job, "%s/nj%d.fio", dir, n);
        FILE *jf = fopen(job, "w");
        assert_non_null(jf);
        fprintf(jf, "[nj]\nbs=64k\nioengine=psync\nrw=write\nsize=16m\nnumjobs=%d\n", n);
        fclose(jf);
    }
    /* mounted here and unmounted at the end (unshare -m cannot make a chroot's root
     * private: the README's fresh-machine check runs in one) */
    snprintf(cmd, sizeof cmd,
             "sh -c 'mount -t tmpfs -o size=40m none %s 2>/dev/null || exit 99; "
             "%s run --db %s/s.db --target %s %s/nj2.fio 2>&1; echo rc=$?; ls -A %s; "
             "%s run --db %s/s.db --target %s %s/nj1.fio >/dev/null 2>&1; echo rc=$?; "
             "umount %s'",
             m, bin ? bin : "build/benchlog", dir, m, dir, m, bin ? bin : "build/benchlog", dir, m,
             dir, m);
    int st;
    char *out = bl_test_sh(cmd, &st);
    printf("  %s", out);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 99) {
        free(out);
        bl_skip_because("tmpfs cannot be mounted here");
    }
    assert_non_null(strstr(out, "not enough free space: the test files need 32.0 MiB"));
    /* refused (exit 1), nothing left in the folder, then one clone runs (exit 0) */
    assert_non_null(strstr(out, "rc=1\nrc=0\n"));
    free(out);
    for (int n = 1; n <= 2; n++) {
        snprintf(cmd, sizeof cmd, "%s/nj%d.fio", dir, n);
        unlink(cmd);
    }
    snprintf(cmd, sizeof cmd, "%s/s.db", dir);
    unlink(cmd);
    assert_int_equal(rmdir(m), 0);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_clone_writes_its_own_file),
        cmocka_unit_test(test_clones_with_several_files),
        cmocka_unit_test(test_clones_share_a_named_file),
        cmocka_unit_test(test_free_space_holds_every_clones_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
