/* fio's verify: a job writes with verify=KIND (and do_verify=0), one byte of one block is
 * changed on disk, a verify_only run of the same job must fail naming that block's offset;
 * an untouched file verifies clean, a block copied over another is caught by its header, and
 * verify_fatal stops at the first bad block. Every digest, on every engine that does I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/strbuf.h"
#include "../runner/engine_ops.h"
#include "../runner/verify.h"
#include "support/support.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_SIZE (1 << 20)
#define BS 4096

typedef struct ctx {
    char *dir, *file, *job, *db;
} ctx;

static char *path_in(const char *dir, const char *name)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/%s", dir, name);
    return bl_strbuf_take(&sb);
}

static void ctx_init(ctx *c)
{
    c->dir = bl_test_tmpdir();
    c->file = path_in(c->dir, "data");
    c->job = path_in(c->dir, "v.fio");
    c->db = path_in(c->dir, "v.db");
    int fd = open(c->file, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, FILE_SIZE), 0);
    close(fd);
}

static void ctx_free(ctx *c)
{
    unlink(c->file);
    unlink(c->job);
    unlink(c->db);
    assert_int_equal(rmdir(c->dir), 0);
    free(c->dir);
    free(c->file);
    free(c->job);
    free(c->db);
}

/* Runs `benchlog run` of one job (common lines + extra) on the file; returns the exit status
 * and its stdout/stderr. */
static int run_job(const ctx *c, const char *engine, const char *kind, const char *extra,
                   char **out, char **err)
{
    FILE *f = fopen(c->job, "w");
    assert_non_null(f);
    fprintf(f, "[v]\nrw=randwrite\nbs=%d\nsize=%d\nioengine=%s\niodepth=8\ndirect=1\nverify=%s\n%s",
            BS, FILE_SIZE, engine, kind, extra);
    fclose(f);
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&cmd, "run --db %s --target %s --allow-overwrite %s", c->db, c->file, c->job);
    int rc = bl_test_benchlog(cmd.s, out, err);
    bl_strbuf_free(&cmd);
    return rc;
}

static void flip_byte(const char *file, off_t off)
{
    int fd = open(file, O_RDWR);
    assert_true(fd >= 0);
    unsigned char b;
    assert_int_equal(pread(fd, &b, 1, off), 1);
    b ^= 0x40;
    assert_int_equal(pwrite(fd, &b, 1, off), 1);
    assert_int_equal(fsync(fd), 0);
    close(fd);
}

static void expect_ok(const ctx *c, const char *engine, const char *kind, const char *extra,
                      const char *want_out)
{
    char *out = NULL, *err = NULL;
    int rc = run_job(c, engine, kind, extra, &out, &err);
    if (rc != 0)
        printf("stderr: %s\n", err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, want_out));
    free(out);
    free(err);
}

static void expect_bad(const ctx *c, const char *engine, const char *kind, const char *extra,
                       const char *want_err)
{
    char *out = NULL, *err = NULL;
    assert_int_equal(run_job(c, engine, kind, extra, &out, &err), 1);
    if (!strstr(err, want_err))
        printf("stderr: %s\nwanted: %s\n", err, want_err);
    assert_non_null(strstr(err, want_err));
    free(out);
    free(err);
}

/* Write, check clean, corrupt one byte in block 37, check again: caught at that offset. */
static void corrupt_and_catch(const char *engine, const char *kind)
{
    ctx c;
    ctx_init(&c);
    printf("  %s verify=%s\n", engine, kind);
    /* verify after the writes in the same job: 256 blocks, all good */
    expect_ok(&c, engine, kind, "", "256 blocks read back, all good");
    expect_ok(&c, engine, kind, "do_verify=0\n", "v ");
    expect_ok(&c, engine, kind, "verify_only=1\n", "256 blocks read back, all good");
    flip_byte(c.file, 37 * BS + 1000);
    char want[160];
    snprintf(want, sizeof want,
             "verify=%s: 1 of 256 blocks bad; first at offset %d (0x%x), length %d: %s mismatch",
             strcmp(kind, "crc32c-intel") == 0 ? "crc32c" : kind, 37 * BS, 37 * BS, BS,
             strcmp(kind, "crc32c-intel") == 0 ? "crc32c" : kind);
    expect_bad(&c, engine, kind, "verify_only=1\n", want);
    ctx_free(&c);
}

static void test_every_digest_catches_a_flipped_byte(void **state)
{
    (void)state;
    const char *kinds[] = {"crc32c", "md5", "sha256", "xxhash", "crc32c-intel"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        corrupt_and_catch("libaio", kinds[i]);
}

/* The digests are the real md5 and sha256: coreutils' md5sum/sha256sum of the sealed block
 * with its digest field zeroed give the digest the header holds (offset 24: magic 4, kind 2,
 * length 2, offset 8, block length 8). */
static void test_digests_are_the_real_md5_and_sha256(void **state)
{
    (void)state;
    const char *tools[] = {"md5sum", "sha256sum"};
    bl_verify_kind kinds[] = {BL_VERIFY_MD5, BL_VERIFY_SHA256};
    unsigned lens[] = {16, 32};
    char *dir = bl_test_tmpdir();
    char path[256], cmd[512];
    snprintf(path, sizeof path, "%s/blk", dir);
    for (int i = 0; i < 2; i++) {
        static unsigned char blk[4096];
        for (size_t k = 0; k < sizeof blk; k++)
            blk[k] = (unsigned char)(k * 7 + 3);
        bl_verify_seal(kinds[i], blk, sizeof blk, 8192);
        unsigned char held[32];
        memcpy(held, blk + 24, lens[i]);
        memset(blk + 24, 0, 32);
        FILE *f = fopen(path, "wb");
        assert_int_equal(fwrite(blk, 1, sizeof blk, f), sizeof blk);
        fclose(f);
        snprintf(cmd, sizeof cmd, "%s %s", tools[i], path);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char line[256] = "";
        assert_non_null(fgets(line, sizeof line, p));
        pclose(p);
        char hex[65];
        for (unsigned k = 0; k < lens[i]; k++)
            snprintf(hex + 2 * k, 3, "%02x", held[k]);
        printf("  %s: header %s, %s %.*s\n", bl_verify_name(kinds[i]), hex, tools[i],
               (int)lens[i] * 2, line);
        assert_int_equal(strncmp(line, hex, lens[i] * 2), 0);
    }
    unlink(path);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

static void test_every_engine_writes_verifiable_blocks(void **state)
{
    (void)state;
    corrupt_and_catch("sync", "crc32c");
    char why[256];
    if (bl_engine_available(bl_engine_find("io_uring"), why, sizeof why) == 0)
        corrupt_and_catch("io_uring", "sha256");
    else
        printf("  io_uring not available here (%s): its case is left out\n", why);
}

/* A whole block copied over another: its digest is right, its header says where it belongs. */
static void test_a_misplaced_block_is_caught_by_its_header(void **state)
{
    (void)state;
    ctx c;
    ctx_init(&c);
    expect_ok(&c, "libaio", "md5", "do_verify=0\n", "v ");
    int fd = open(c.file, O_RDWR);
    unsigned char b[BS];
    assert_int_equal(pread(fd, b, BS, 5 * BS), BS);
    assert_int_equal(pwrite(fd, b, BS, 9 * BS), BS);
    close(fd);
    char want[128];
    snprintf(want, sizeof want,
             "first at offset %d (0x%x), length %d: the block written for "
             "offset %d is here",
             9 * BS, 9 * BS, BS, 5 * BS);
    expect_bad(&c, "libaio", "md5", "verify_only=1\n", want);
    ctx_free(&c);
}

/* fio: without verify_fatal every block is checked and all bad ones counted; with it the job
 * stops at the first. */
static void test_verify_fatal_stops_at_the_first(void **state)
{
    (void)state;
    ctx c;
    ctx_init(&c);
    expect_ok(&c, "libaio", "xxhash", "do_verify=0\n", "v ");
    flip_byte(c.file, 3 * BS + 17);
    flip_byte(c.file, 200 * BS + 4000);
    expect_bad(&c, "libaio", "xxhash", "verify_only=1\n",
               "2 of 256 blocks bad; first at offset 12288");
    expect_bad(&c, "libaio", "xxhash", "verify_only=1\nverify_fatal=1\n",
               "1 of 4 blocks bad (verify_fatal: stopped there); first at offset 12288");
    ctx_free(&c);
}

static void test_what_cannot_be_verified_is_refused(void **state)
{
    (void)state;
    ctx c;
    ctx_init(&c);
    /* a digest we do not have: FILE:LINE (line 8 is verify=) */
    expect_bad(&c, "libaio", "sha1", "", "v.fio:8: option 'verify': 'sha1' is not supported");
    expect_bad(&c, "libaio", "md5", "time_based\nruntime=1\n",
               "verify: every block must be written by one thread");
    expect_bad(&c, "null", "md5", "", "verify: the engine does no I/O");
    expect_bad(&c, "libaio", "0", "verify_only=1\n", "verify_only needs verify=");
    ctx_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_digest_catches_a_flipped_byte),
        cmocka_unit_test(test_digests_are_the_real_md5_and_sha256),
        cmocka_unit_test(test_every_engine_writes_verifiable_blocks),
        cmocka_unit_test(test_a_misplaced_block_is_caught_by_its_header),
        cmocka_unit_test(test_verify_fatal_stops_at_the_first),
        cmocka_unit_test(test_what_cannot_be_verified_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
