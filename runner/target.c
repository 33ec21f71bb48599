#include "target.h"
#include "../core/strbuf.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

const char *bl_fs_name(long t)
{
    static const struct {
        long magic;
        const char *name;
    } fs[] = {{EXT4_SUPER_MAGIC, "ext4"}, {0x58465342, "xfs"},   {BTRFS_SUPER_MAGIC, "btrfs"},
              {TMPFS_MAGIC, "tmpfs"},     {0x2fc12fc1, "zfs"},   {NFS_SUPER_MAGIC, "nfs"},
              {0x794c7630, "overlayfs"},  {0xf2f52010, "f2fs"},  {MSDOS_SUPER_MAGIC, "vfat"},
              {0x5346544e, "ntfs"},       {0xff534d42, "cifs"},  {0x65735546, "fuse"},
              {0x01021997, "9p"},         {0x2011bab0, "exfat"}, {0x6a656a63, "virtiofs"},
              {RAMFS_MAGIC, "ramfs"}};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        if (fs[i].magic == t)
            return fs[i].name;
    return "unknown";
}

static int read_line_file(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)n, f))
        buf[0] = '\0';
    fclose(f);
    size_t len = strlen(buf);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        buf[--len] = '\0';
    return len ? 0 : -1;
}

void bl_device_model(const char *path, char *buf, size_t n)
{
    buf[0] = '\0';
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    char p[256];
    /* A partition's device/model is on its parent disk: try both. */
    const char *tries[] = {"device/model", "../device/model", "device/name", "../device/name"};
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        snprintf(p, sizeof p, "/sys/dev/block/%u:%u/%s", major(dev), minor(dev), tries[i]);
        if (read_line_file(p, buf, n) == 0)
            return;
    }
    /* virtio disks have no model: say at least which driver serves them. */
    snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(dev), minor(dev));
    char real[512];
    ssize_t len = readlink(p, real, sizeof real - 1);
    if (len > 0) {
        real[len] = '\0';
        if (strstr(real, "virtio"))
            snprintf(buf, n, "virtio disk");
    }
}

void bl_fill_random(unsigned char *buf, size_t n, uint64_t *rng)
{
    uint64_t x = *rng ? *rng : 0x9e3779b97f4a7c15ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(buf + i, &x, 8);
    }
    for (; i < n; i++)
        buf[i] = (unsigned char)(x >> (i % 8 * 8));
    *rng = x;
}

static bl_target *find(bl_targets *ts, const char *path)
{
    for (size_t i = 0; i < ts->n; i++)
        if (strcmp(ts->v[i]->path, path) == 0)
            return ts->v[i];
    return NULL;
}

static bl_target *add(bl_targets *ts, const char *path)
{
    ts->v = bl_xrealloc(ts->v, (ts->n + 1) * sizeof *ts->v);
    bl_target *t = bl_xcalloc(1, sizeof *t);
    t->path = bl_xstrdup(path);
    t->fd = -1;
    t->direct_ok = -1;
    ts->v[ts->n++] = t;
    return t;
}

static void set_fstype(bl_target *t, const char *path)
{
    struct statfs sf;
    free(t->fstype);
    t->fstype = bl_xstrdup(statfs(path, &sf) == 0 ? bl_fs_name((long)sf.f_type) : "unknown");
}

static int check_space(const char *dir, uint64_t need, char *err, size_t errlen)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
    /* Keep a margin so the filesystem is never filled to the last block. */
    uint64_t margin = need / 100 + (16u << 20);
    if (avail < need + margin) {
        snprintf(err, errlen,
                 "%s: not enough free space: the test files need %.1f MiB and a margin of "
                 "%.1f MiB, %.1f MiB are free",
                 dir, (double)need / 1048576.0, (double)margin / 1048576.0,
                 (double)avail / 1048576.0);
        return -1;
    }
    return 0;
}

/* Bytes the scratch files already made on dir's filesystem will still take: a job's clones
 * and files are all created before any is filled, so the free space must hold them all. */
static uint64_t pending(const bl_targets *ts, const char *dir)
{
    struct stat d, f;
    uint64_t sum = 0;
    if (stat(dir, &d) != 0)
        return 0;
    for (size_t i = 0; i < ts->n; i++) {
        const bl_target *t = ts->v[i];
        if (!t->scratch || t->fd < 0 || fstat(t->fd, &f) != 0 || f.st_dev != d.st_dev)
            continue;
        uint64_t used = (uint64_t)f.st_blocks * 512u;
        sum += used < t->size ? t->size - used : 0;
    }
    return sum;
}

/* A new file at path: created exclusively, so a file that appeared meanwhile is not reused. */
static bl_target *new_scratch(bl_targets *ts, const char *path, uint64_t size, char *err,
                              size_t errlen)
{
    char *tmp = bl_xstrdup(path);
    const char *dir = dirname(tmp);
    int rc = check_space(dir, size + pending(ts, dir), err, errlen);
    free(tmp);
    if (rc != 0)
        return NULL;
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create the test file: %s", path, strerror(errno));
        return NULL;
    }
    bl_target *t = add(ts, path);
    t->fd = fd;
    t->scratch = true;
    t->size = size;
    set_fstype(t, path);
    return t;
}

static bl_target *existing(bl_targets *ts, const char *path, const struct stat *st, uint64_t size,
                           char *err, size_t errlen)
{
    bool blk = S_ISBLK(st->st_mode);
    if (!blk && !S_ISREG(st->st_mode)) {
        snprintf(err, errlen, "%s: not a folder, regular file or block device", path);
        return NULL;
    }
    if (!ts->allow_overwrite) {
        snprintf(err, errlen,
                 "%s: is an existing %s; benchlog would write over it. Give a folder for a "
                 "scratch file, or --allow-overwrite to use it anyway",
                 path, blk ? "block device" : "file");
        return NULL;
    }
    uint64_t have = (uint64_t)st->st_size;
    if (blk) {
        int fd = open(path, O_RDONLY);
        if (fd < 0 || ioctl(fd, BLKGETSIZE64, &have) != 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return NULL;
        }
        close(fd);
        if (size > have) {
            snprintf(err, errlen, "%s: the device holds %llu bytes, the job needs %llu", path,
                     (unsigned long long)have, (unsigned long long)size);
            return NULL;
        }
    } else if (size > have && check_space(path, size - have, err, errlen) != 0)
        return NULL;
    if (size == 0 && have == 0) {
        snprintf(err, errlen, "%s: empty file and no size given", path);
        return NULL;
    }
    bl_target *t = add(ts, path);
    t->blockdev = blk;
    t->size = size ? size : have;
    /* What is already there counts as laid out; only growth is written first. */
    t->laid_out = t->allocated = have;
    set_fstype(t, path);
    return t;
}

bl_target *bl_target_get(bl_targets *ts, const char *where, const char *key, uint64_t size,
                         char *err, size_t errlen)
{
    struct stat st;
    bl_strbuf p;
    bl_strbuf_init(&p);
    bl_strbuf_puts(&p, where && *where ? where : ".");
    bool isdir = stat(p.s, &st) == 0 && S_ISDIR(st.st_mode);
    if (isdir)
        bl_strbuf_printf(&p, "/.benchlog-%ld-%s.tmp", (long)getpid(), key ? key : "run");
    bl_target *t = find(ts, p.s);
    if (t) {
        if (size > t->size) {
            if (t->blockdev) {
                snprintf(err, errlen, "%s: too small for %llu bytes", p.s,
                         (unsigned long long)size);
                t = NULL;
            } else
                t->size = size;
        }
    } else if (!isdir && stat(p.s, &st) == 0)
        t = existing(ts, p.s, &st, size, err, errlen);
    else if (size == 0) {
        snprintf(err, errlen, "%s: a size is needed to create the test file (--size, size=)", p.s);
    } else
        t = new_scratch(ts, p.s, size, err, errlen);
    bl_strbuf_free(&p);
    return t;
}

bl_target *bl_target_none(bl_targets *ts, uint64_t size)
{
    bl_target *t = add(ts, "(no file)");
    t->size = size;
    t->laid_out = t->allocated = size;
    t->fstype = bl_xstrdup("none");
    return t;
}

/* Before the first write: the descriptor is still the plain file we created, ours, with no
 * other name (a hard link made meanwhile would let our writes land in someone's file). */
static int check_scratch(const bl_target *t, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(t->fd, &st) != 0) {
        snprintf(err, errlen, "%s: fstat: %s", t->path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink > 1) {
        snprintf(err, errlen,
                 "%s: the test file is no longer the plain file benchlog created (%s); refusing "
                 "to write",
                 t->path,
                 !S_ISREG(st.st_mode)     ? "not a regular file"
                 : st.st_uid != geteuid() ? "another owner"
                                          : "it has another name");
        return -1;
    }
    return 0;
}

/* A second open file description of the scratch file (its own O_DIRECT flag), reached
 * through our descriptor, never through the name. */
static int reopen_scratch(const bl_target *t, int flags)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/self/fd/%d", t->fd);
    int fd = open(p, flags | O_CLOEXEC);
    if (fd >= 0 || errno != ENOENT)
        return fd;
    /* No /proc: share the description; O_DIRECT then applies to every user of it. */
    fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
    if (fd >= 0 && (flags & O_DIRECT) && fcntl(fd, F_SETFL, O_DIRECT) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static int open_target(const bl_target *t, int flags)
{
    return t->fd >= 0 ? reopen_scratch(t, flags) : open(t->path, flags | O_CLOEXEC);
}

int bl_falloc_parse(const char *v, bl_falloc_mode *out)
{
    static const struct {
        const char *name;
        bl_falloc_mode m;
    } modes[] = {
        {"native", BL_FALLOC_NATIVE}, {"none", BL_FALLOC_NONE},         {"posix", BL_FALLOC_POSIX},
        {"keep", BL_FALLOC_KEEP},     {"truncate", BL_FALLOC_TRUNCATE}, {"0", BL_FALLOC_NONE},
        {"1", BL_FALLOC_POSIX}};
    for (size_t i = 0; v && i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(v, modes[i].name) == 0) {
            *out = modes[i].m;
            return 0;
        }
    return -1;
}

const char *bl_falloc_name(bl_falloc_mode m)
{
    static const char *names[] = {"native", "none", "posix", "keep", "truncate"};
    return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "native";
}

/* fio's fallocate_file over the growth [from, size): native failing is no error (fio falls
 * back silently), posix failing is a warning, keep and truncate failing stop the job. */
static int reserve(bl_target *t, int fd, bl_falloc_mode m, FILE *msg, char *err, size_t errlen)
{
    off_t from = (off_t)t->allocated, len = (off_t)(t->size - t->allocated);
    int rc = 0;
    const char *what = "fallocate";
    switch (m) {
    case BL_FALLOC_NONE:
        break;
    case BL_FALLOC_NATIVE:
        (void)fallocate(fd, 0, from, len);
        break;
    case BL_FALLOC_POSIX:
        rc = posix_fallocate(fd, from, len);
        if (rc != 0 && msg)
            fprintf(msg, "benchlog run: %s: posix_fallocate fails: %s\n", t->path, strerror(rc));
        rc = 0;
        break;
    case BL_FALLOC_KEEP:
        rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, from, len);
        break;
    case BL_FALLOC_TRUNCATE:
        what = "ftruncate";
        rc = ftruncate(fd, (off_t)t->size);
        break;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: fallocate=%s: %s: %s", t->path, bl_falloc_name(m), what,
                 strerror(errno));
        return -1;
    }
    t->allocated = t->size;
    return 0;
}

static int write_layout(bl_target *t, int fd, const volatile sig_atomic_t *stop, char *err,
                        size_t errlen);

int bl_target_prepare(bl_target *t, bl_falloc_mode falloc, bool layout,
                      const volatile sig_atomic_t *stop, FILE *msg, char *err, size_t errlen)
{
    if (t->blockdev || (t->allocated >= t->size && (!layout || t->laid_out >= t->size)))
        return 0;
    int fd = t->fd >= 0 ? t->fd : open(t->path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
        return -1;
    }
    int rc = t->fd >= 0 ? check_scratch(t, err, errlen) : 0;
    if (rc == 0 && t->allocated < t->size)
        rc = reserve(t, fd, falloc, msg, err, errlen);
    if (rc == 0 && layout && t->laid_out < t->size)
        rc = write_layout(t, fd, stop, err, errlen);
    if (fd != t->fd)
        close(fd);
    return rc;
}

static int write_layout(bl_target *t, int fd, const volatile sig_atomic_t *stop, char *err,
                        size_t errlen)
{
    size_t chunk = 1u << 20;
    unsigned char *buf = bl_xmalloc(chunk);
    uint64_t rng = 0x243f6a8885a308d3ull ^ (uint64_t)getpid(), stamp = (uint64_t)1 << 62;
    bl_fill_random(buf, chunk, &rng);
    int rc = 0;
    for (uint64_t off = t->laid_out; off < t->size && rc == 0;) {
        if (stop && *stop) {
            snprintf(err, errlen, "interrupted while writing the test file");
            rc = -1;
            break;
        }
        size_t n = t->size - off < chunk ? (size_t)(t->size - off) : chunk;
        bl_stamp_blocks(buf, n, &stamp);
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w <= 0) {
            snprintf(err, errlen, "%s: writing the test file: %s", t->path,
                     w < 0 ? strerror(errno) : "short write");
            rc = -1;
        } else
            off += (uint64_t)w;
    }
    if (rc == 0 && fsync(fd) != 0) {
        snprintf(err, errlen, "%s: fsync: %s", t->path, strerror(errno));
        rc = -1;
    }
    free(buf);
    if (rc == 0)
        t->laid_out = t->size;
    return rc;
}

int bl_target_open(bl_targets *ts, bl_target *t, bool want_direct, bool writes, bool *direct,
                   char *err, size_t errlen)
{
    int flags = writes ? O_RDWR : O_RDONLY;
    *direct = false;
    if (want_direct && t->direct_ok != 0) {
        int fd = ts->no_direct ? -1 : open_target(t, flags | O_DIRECT);
        if (ts->no_direct)
            errno = EINVAL;
        if (fd >= 0) {
            t->direct_ok = 1;
            *direct = true;
            return fd;
        }
        if (errno != EINVAL) {
            snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
            return -1;
        }
        if (t->direct_ok == -1 && ts->msg)
            fprintf(ts->msg,
                    "benchlog: %s: the filesystem (%s) does not support O_DIRECT; running with "
                    "buffered I/O instead (direct=0): figures include the page cache\n",
                    t->path, t->fstype ? t->fstype : "unknown");
        t->direct_ok = 0;
    }
    int fd = open_target(t, flags);
    if (fd < 0)
        snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
    return fd;
}

void bl_targets_cleanup(bl_targets *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        bl_target *t = ts->v[i];
        struct stat mine, now;
        /* Unlinked only while the name still leads to our file, not to what replaced it. */
        if (t->scratch && fstat(t->fd, &mine) == 0 && lstat(t->path, &now) == 0 &&
            mine.st_dev == now.st_dev && mine.st_ino == now.st_ino)
            unlink(t->path);
        if (t->fd >= 0)
            close(t->fd);
        free(t->path);
        free(t->fstype);
        free(t);
    }
    free(ts->v);
    ts->v = NULL;
    ts->n = 0;
}

/* The PID in ".benchlog-PID-NAME.tmp", or 0 when the name is not a scratch file's. */
static long scratch_pid(const char *name)
{
    if (strncmp(name, ".benchlog-", 10) != 0)
        return 0;
    size_t n = strlen(name);
    if (n < 15 || strcmp(name + n - 4, ".tmp") != 0)
        return 0;
    char *end;
    errno = 0;
    long pid = strtol(name + 10, &end, 10);
    if (errno || end == name + 10 || *end != '-' || pid <= 0)
        return 0;
    return pid;
}

int bl_scratch_clean(const char *dir, FILE *msg, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return -1;
    }
    int removed = 0, dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid = scratch_pid(e->d_name);
        struct stat st;
        if (pid == 0 || pid == (long)getpid() ||
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        /* EPERM: a live process of another user; ESRCH alone means the run is gone. */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (unlinkat(dfd, e->d_name, 0) == 0) {
            fprintf(msg, "removed %s/%s (%.1f MiB, run %ld is gone)\n", dir, e->d_name,
                    (double)st.st_size / 1048576.0, pid);
            removed++;
        }
    }
    closedir(d);
    return removed;
}
