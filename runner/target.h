/* Where a run does its I/O, and the safety rules around it.
 *
 * By default benchlog creates a scratch file (in the folder given, default the current one),
 * fills it with random data and deletes it when the run ends, also after Ctrl-C. An existing
 * file or a block device is refused unless allow_overwrite: a benchmark writes over it. The
 * free space is checked before a scratch file is made. When the filesystem refuses O_DIRECT
 * the run says so and goes on with buffered I/O (records then carry direct=false).
 * A killed run (SIGKILL) cannot remove its scratch file `.benchlog-PID-NAME.tmp`:
 * bl_scratch_clean removes those whose process is gone. */
#ifndef BL_RUNNER_TARGET_H
#define BL_RUNNER_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* fio's fallocate= modes: how a file's new space is reserved before any I/O (fio's default
 * native: fallocate(fd, 0, ...), silently nothing where the filesystem cannot). */
typedef enum {
    BL_FALLOC_NATIVE = 0,
    BL_FALLOC_NONE,
    BL_FALLOC_POSIX,    /* posix_fallocate */
    BL_FALLOC_KEEP,     /* fallocate(FALLOC_FL_KEEP_SIZE): blocks reserved, size unchanged */
    BL_FALLOC_TRUNCATE, /* ftruncate to the size: a sparse file */
} bl_falloc_mode;

/* "none", "native", "posix", "keep", "truncate", "0" (none), "1" (posix); 0 or -1. */
int bl_falloc_parse(const char *v, bl_falloc_mode *out);
const char *bl_falloc_name(bl_falloc_mode m);

typedef struct bl_target {
    char *path;
    bool scratch; /* created by us: removed by bl_targets_cleanup */
    /* A scratch file is opened once, exclusively and without following links, and every
     * later use goes through this descriptor: renaming a symlink over the name mid-run
     * (runs are often as root) cannot redirect a write. -1 for other targets. */
    int fd;
    bool blockdev;      /* a block device (allowed with allow_overwrite) */
    uint64_t size;      /* bytes the jobs may use */
    uint64_t laid_out;  /* written with data from 0 up to here */
    uint64_t allocated; /* fallocate= applied up to here */
    int direct_ok;      /* -1 not probed, 0 O_DIRECT refused, 1 works */
    char *fstype;       /* "ext4", "tmpfs", ... */
} bl_target;

typedef struct bl_targets {
    size_t n;
    bl_target **v;
    bool allow_overwrite;
    bool no_direct; /* act as if O_DIRECT were refused (tests of the fallback) */
    FILE *msg;      /* notices (O_DIRECT fallback); NULL: none */
} bl_targets;

/* Resolves `where` (folder, new file path, or existing file/device) for a job needing `size`
 * bytes (0 = the existing file's size) and returns the target, opening a scratch file named
 * after `key` in a folder. The same path asked twice gives the same target (grown if
 * needed). Returns NULL with a message in err on refusal. */
bl_target *bl_target_get(bl_targets *ts, const char *where, const char *key, uint64_t size,
                         char *err, size_t errlen);
/* Readies the space a job needs, as fio's extend_file: the growth is first reserved as
 * `falloc` says; then, only when `layout` (the job reads, or overwrite=1), random data is
 * written over [0, size) once so reads read real blocks. A write job on a new file writes
 * into it directly, with no layout pass. *stop (may be NULL) set by a signal handler
 * interrupts the layout. 0 or -1 with err; a warning (posix_fallocate failing, as fio only
 * logs it) goes to msg (NULL: none). */
int bl_target_prepare(bl_target *t, bl_falloc_mode falloc, bool layout,
                      const volatile sig_atomic_t *stop, FILE *msg, char *err, size_t errlen);
/* A target without a file, for the null engine. */
bl_target *bl_target_none(bl_targets *ts, uint64_t size);
/* Opens for I/O, read-write only when `writes` (a job that only reads opens it O_RDONLY: a
 * file the user may read but not write still runs, and a read job cannot write by mistake);
 * with want_direct, O_DIRECT when the filesystem allows it (probes once and prints the
 * fallback notice). *direct receives what was used. -1 with err on failure. */
int bl_target_open(bl_targets *ts, bl_target *t, bool want_direct, bool writes, bool *direct,
                   char *err, size_t errlen);
/* Removes the scratch files (only while their name still leads to the file we made) and frees
 * everything. */
void bl_targets_cleanup(bl_targets *ts);

/* Removes the scratch files (.benchlog-PID-NAME.tmp) in dir whose run is gone: no process has
 * that PID. Only regular files; each removal is named on msg. Returns how many were removed,
 * or -1 with err. */
int bl_scratch_clean(const char *dir, FILE *msg, char *err, size_t errlen);

/* Name of a filesystem type from statfs (f_type), "unknown" otherwise. */
const char *bl_fs_name(long f_type);
/* Fills buf with the model of the device holding path, from /sys; "" when unknown. */
void bl_device_model(const char *path, char *buf, size_t n);

/* Fills a buffer with data that neither compresses nor deduplicates: random bytes with a
 * unique 8-byte stamp at the start of every 4 KiB block (*stamp counts up). */
void bl_fill_random(unsigned char *buf, size_t n, uint64_t *rng);
static inline void bl_stamp_blocks(unsigned char *buf, size_t n, uint64_t *stamp)
{
    for (size_t off = 0; off + 8 <= n; off += 4096) {
        uint64_t s = (*stamp)++;
        __builtin_memcpy(buf + off, &s, 8);
    }
}

#endif
