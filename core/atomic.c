#include "atomic.h"
#include "strbuf.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The mode a new file would get from open(0666), or the mode of the file it replaces. */
static mode_t target_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int bl_atomic_open(bl_atomic *a, const char *path, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    bl_strbuf tmp;
    bl_strbuf_init(&tmp);
    const char *slash = strrchr(path, '/');
    if (slash)
        bl_strbuf_putn(&tmp, path, (size_t)(slash - path + 1));
    bl_strbuf_printf(&tmp, ".%s.tmp-XXXXXX", slash ? slash + 1 : path);
    int fd = mkstemp(tmp.s);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        bl_strbuf_free(&tmp);
        return -1;
    }
    if (fchmod(fd, target_mode(path)) != 0 || !(a->f = fdopen(fd, "wb"))) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp.s);
        bl_strbuf_free(&tmp);
        return -1;
    }
    a->path = bl_xstrdup(path);
    a->tmp = bl_strbuf_take(&tmp);
    return 0;
}

void bl_atomic_close_stream(bl_atomic *a)
{
    if (a->f)
        fclose(a->f);
    a->f = NULL;
}

static void release(bl_atomic *a)
{
    free(a->path);
    free(a->tmp);
    memset(a, 0, sizeof *a);
}

void bl_atomic_abort(bl_atomic *a)
{
    bl_atomic_close_stream(a);
    if (a->tmp)
        unlink(a->tmp);
    release(a);
}

/* fsync of a file by name, for a library that wrote it and closed it itself. */
static int sync_path(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int bl_atomic_commit(bl_atomic *a, char *err, size_t errlen)
{
    int bad = 0;
    if (a->f) {
        bad = fflush(a->f) != 0 || ferror(a->f) || fsync(fileno(a->f)) != 0;
        int saved = errno;
        bad |= fclose(a->f) != 0;
        if (bad && saved)
            errno = saved;
        a->f = NULL;
    } else {
        bad = sync_path(a->tmp) != 0;
    }
    if (bad || rename(a->tmp, a->path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s (the old file, if any, is unchanged)", a->path,
                 strerror(errno ? errno : EIO));
        unlink(a->tmp);
        release(a);
        return -1;
    }
    release(a);
    return 0;
}

int bl_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    bl_atomic a;
    if (bl_atomic_open(&a, path, err, errlen) != 0)
        return -1;
    if (len && fwrite(data, 1, len, a.f) != len) {
        snprintf(err, errlen, "cannot write %s: %s (the old file, if any, is unchanged)", path,
                 strerror(errno ? errno : EIO));
        bl_atomic_abort(&a);
        return -1;
    }
    return bl_atomic_commit(&a, err, errlen);
}
