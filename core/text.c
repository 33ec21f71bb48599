#include "text.h"
#include "encoding.h"
#include "strbuf.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int bl_looks_binary(const char *bytes, size_t len)
{
    size_t n = len < 65536 ? len : 65536, ctrl = 0;
    /* UTF-16 text has NULs but a BOM; the encoding layer converts it. */
    if (n >= 2 &&
        ((bytes[0] == '\xff' && bytes[1] == '\xfe') || (bytes[0] == '\xfe' && bytes[1] == '\xff')))
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == 0)
            return 1;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b)
            ctrl++;
    }
    return n && ctrl * 10 > n;
}

static void split_lines(bl_text *t)
{
    size_t cap = 0;
    t->nlines = 0;
    t->line = NULL;
    char *p = t->buf, *end = t->buf + t->len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *e = nl ? nl : end;
        if (e > p && e[-1] == '\r')
            e[-1] = '\0';
        *e = '\0';
        void *v = t->line;
        bl_grow(&v, &cap, t->nlines + 1, sizeof *t->line);
        t->line = v;
        t->line[t->nlines++] = p;
        p = e + 1;
    }
}

int bl_text_from_bytes(bl_text *t, const char *name, const char *bytes, size_t len, char *err,
                       size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (bl_looks_binary(bytes, len)) {
        snprintf(err, errlen, "binary data, not a text output of a benchmark");
        return -1;
    }
    t->name = bl_xstrdup(name);
    t->encoding = bl_xstrdup(bl_to_utf8(bytes, len, &t->buf, &t->len));
    split_lines(t);
    return 0;
}

static int read_all(FILE *f, bl_strbuf *sb)
{
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        bl_strbuf_putn(sb, buf, n);
    return ferror(f) ? -1 : 0;
}

int bl_text_load(bl_text *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    int is_stdin = strcmp(path, "-") == 0;
    struct stat st;
    if (!is_stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "is a directory");
        return -1;
    }
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return -1;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, "", 0);
    int rc = read_all(f, &sb);
    int saved = errno;
    if (!is_stdin)
        fclose(f);
    if (rc != 0) {
        snprintf(err, errlen, "cannot read: %s", strerror(saved));
        bl_strbuf_free(&sb);
        return -1;
    }
    rc = bl_text_from_bytes(t, is_stdin ? "<stdin>" : path, sb.s, sb.len, err, errlen);
    bl_strbuf_free(&sb);
    return rc;
}

void bl_text_free(bl_text *t)
{
    free(t->name);
    free(t->buf);
    free(t->line);
    free(t->encoding);
    memset(t, 0, sizeof *t);
}
