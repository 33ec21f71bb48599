/* randrepeat and randseed as fio: by default a job visits the same offsets in the same order
 * on every run; randseed=N picks another fixed order; randrepeat=0 a new one each run. Seen
 * from outside: a short rate-limited random write into a sparse file touches ~100 of 16384
 * blocks, and which ones is the order's prefix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/runner.h"
#include "support/runjob.h"
#include "support/support.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NBLK 16384
#define BS 4096

/* Runs a 250 ms randwrite at 400 IOPS into a fresh sparse file; marks the blocks written. */
static size_t written_blocks(const char *file, const char *extra, unsigned char *set)
{
    int fd = open(file, O_CREAT | O_TRUNC | O_RDWR, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)NBLK * BS), 0);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb,
                     "[s]\nrw=randwrite\nbs=4k\nsize=64m\nioengine=sync\nrate_iops=400\n"
                     "runtime=250ms\ntime_based\n%s",
                     extra);
    bl_records recs;
    assert_int_equal(
        bl_test_run_jobtext(sb.s, (bl_run_opts){.target = file, .allow_overwrite = true}, &recs),
        BL_RUN_OK);
    size_t n = 0;
    static unsigned char b[BS];
    for (size_t k = 0; k < NBLK; k++) {
        assert_int_equal(pread(fd, b, BS, (off_t)(k * BS)), BS);
        set[k] = 0;
        for (size_t i = 0; i < BS && !set[k]; i++)
            set[k] = b[i] != 0;
        n += set[k];
    }
    assert_int_equal((uint64_t)recs.v[0]->io_bytes, n * BS); /* each block at most once */
    close(fd);
    bl_records_free(&recs);
    bl_strbuf_free(&sb);
    return n;
}

static size_t common(const unsigned char *a, const unsigned char *b)
{
    size_t n = 0;
    for (size_t k = 0; k < NBLK; k++)
        n += a[k] && b[k];
    return n;
}

/* Two runs of one order: the shorter one's blocks are all in the longer one's. */
static void same_order(const char *file, const char *extra, unsigned char *first)
{
    static unsigned char again[NBLK];
    size_t n1 = written_blocks(file, extra, first);
    size_t n2 = written_blocks(file, extra, again);
    printf("  '%s': %zu and %zu blocks, %zu in common\n", extra, n1, n2, common(first, again));
    assert_true(n1 >= 40 && n2 >= 40);
    assert_int_equal(common(first, again), n1 < n2 ? n1 : n2);
}

static void test_randrepeat_and_randseed(void **state)
{
    (void)state;
    char *dir = bl_test_tmpdir();
    bl_strbuf f;
    bl_strbuf_init(&f);
    bl_strbuf_printf(&f, "%s/data", dir);
    static unsigned char def[NBLK], seeded[NBLK], other[NBLK], fresh1[NBLK], fresh2[NBLK];
    same_order(f.s, "", def);
    same_order(f.s, "randrepeat=1\n", other);
    /* randrepeat=1 is the default: the same order as without it */
    assert_int_equal(common(def, other), common(def, def) < common(other, other)
                                             ? common(def, def)
                                             : common(other, other));
    same_order(f.s, "randseed=42\n", seeded);
    /* ~100 of 16384 blocks at random: two different orders share about one. */
    size_t c = common(def, seeded);
    printf("  default vs randseed=42: %zu in common\n", c);
    assert_true(c < 10);
    size_t n1 = written_blocks(f.s, "randrepeat=0\n", fresh1);
    size_t n2 = written_blocks(f.s, "randrepeat=0\n", fresh2);
    c = common(fresh1, fresh2);
    printf("  randrepeat=0 twice: %zu and %zu blocks, %zu in common\n", n1, n2, c);
    assert_true(n1 >= 40 && n2 >= 40 && c < 10);
    unlink(f.s);
    bl_strbuf_free(&f);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

static void test_bad_randseed_is_refused(void **state)
{
    (void)state;
    const char *text = "[a]\nrw=randread\nrandseed=soon\n";
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, "s.fio", text, strlen(text), err, sizeof err), 0);
    bl_diags out;
    bl_diags_init(&out, "s.fio");
    bl_jobs jobs = {0};
    assert_int_equal(bl_jobfile_parse(&t, &jobs, &out), 1);
    assert_int_equal(out.v[0].line, 3);
    assert_non_null(strstr(out.v[0].msg, "option 'randseed': bad value 'soon'"));
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_randrepeat_and_randseed),
        cmocka_unit_test(test_bad_randseed_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
