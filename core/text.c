#include "text.h"
#include "encoding.h"
#include "strbuf.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_ctrl(unsigned char c)
{
    return c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b;
}

int bl_looks_binary(const char *bytes, size_t len)
{
    size_t n = len < 65536 ? len : 65536, ctrl = 0;
    /* UTF-16 text has NULs but a BOM, or NULs every other byte; encoding.c converts it. */
    if (n >= 2 &&
        ((bytes[0] == '\xff' && bytes[1] == '\xfe') || (bytes[0] == '\xfe' && bytes[1] == '\xff')))
        return 0;
    if (bl_utf16_without_bom(bytes, len))
        return 0;
    size_t i = 0;
    for (uint64_t w; i + 8 <= n; i += 8) { /* words without a byte below 0x20: most of a text */
        memcpy(&w, bytes + i, 8);
        if (!((w - 0x2020202020202020u) & ~w & 0x8080808080808080u))
            continue;
        for (size_t k = i; k < i + 8; k++)
            ctrl += is_ctrl((unsigned char)bytes[k]);
    }
    for (; i < n; i++)
        ctrl += is_ctrl((unsigned char)bytes[i]);
    return n && ctrl * 10 > n;
}

static void add_note(bl_text_note **v, size_t *n, long line, const char *msg)
{
    size_t cap = *n;
    void *p = *v;
    bl_grow(&p, &cap, *n + 1, sizeof **v);
    *v = p;
    (*v)[(*n)++] = (bl_text_note){line, bl_xstrdup(msg)};
}

static void split_lines(bl_text *t)
{
    size_t cap = 0;
    t->nlines = 0;
    t->line = NULL;
    char *p = t->buf, *end = t->buf + t->len;
    /* one pass over the whole text finds that no line holds a NUL: most texts */
    int nuls = strlen(t->buf) < t->len;
    void *room = NULL; /* for lines of 64 bytes, grown when they are shorter */
    bl_grow(&room, &cap, t->len / 64 + 1, sizeof *t->line);
    t->line = room;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *e = nl ? nl : end, *le = e > p && e[-1] == '\r' ? e - 1 : e;
        *le = *e = '\0';
        void *v = t->line;
        bl_grow(&v, &cap, t->nlines + 1, sizeof *t->line);
        t->line = v;
        t->line[t->nlines++] = p;
        if (nuls && memchr(p, '\0', (size_t)(le - p))) {
            memset(p, ' ', (size_t)(le - p)); /* blank, so no reader sees half of it */
            add_note(&t->notes, &t->n_notes, (long)t->nlines,
                     "NUL byte in the line: the line is ignored");
        }
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

/* Reads f into sb, bounded (see text.h); stopping adds a note at the line it stopped at. */
static int read_all(FILE *f, int bounded_total, bl_strbuf *sb, bl_text_note **notes,
                    size_t *n_notes)
{
    char buf[1 << 16];
    size_t n, line_start = 0;
    long lines = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        size_t base = sb->len;
        bl_strbuf_putn(sb, buf, n);
        for (char *p = sb->s + base, *end = sb->s + sb->len;
             (p = memchr(p, '\n', (size_t)(end - p))); p++, lines++)
            line_start = (size_t)(p - sb->s) + 1;
        const char *why = NULL;
        if (sb->len - line_start > BL_TEXT_LINE_MAX)
            why = "line longer than 8 MiB: not a benchmark's output; reading stopped here";
        else if (bounded_total && sb->len > BL_TEXT_STREAM_MAX)
            why = "more than 32 MiB from a pipe or device: reading stopped here (give the "
                  "output as a file to read it whole)";
        if (why) {
            sb->len = line_start;
            sb->s[sb->len] = '\0';
            add_note(notes, n_notes, lines + 1, why);
            return 0;
        }
    }
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
    struct stat fst;
    int regular = fstat(fileno(f), &fst) == 0 && S_ISREG(fst.st_mode);
    bl_text_note *notes = NULL;
    size_t n_notes = 0;
    int rc = read_all(f, !regular, &sb, &notes, &n_notes);
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
    for (size_t i = 0; i < n_notes; i++) {
        if (rc == 0)
            add_note(&t->notes, &t->n_notes, notes[i].line, notes[i].msg);
        free(notes[i].msg);
    }
    free(notes);
    return rc;
}

void bl_text_free(bl_text *t)
{
    free(t->name);
    free(t->buf);
    free(t->line);
    free(t->encoding);
    for (size_t i = 0; i < t->n_notes; i++)
        free(t->notes[i].msg);
    free(t->notes);
    memset(t, 0, sizeof *t);
}

int bl_text_lines_are_runs(const bl_text *t)
{
    if (!t->buf || t->buf[t->len] != '\0')
        return 0;
    uintptr_t lo = (uintptr_t)t->buf, hi = lo + t->len; /* (a line may be another block's) */
    for (size_t i = 0; i < t->nlines; i++) {
        uintptr_t l = (uintptr_t)t->line[i];
        if (l < lo || l > hi || (l != lo && t->line[i][-1] != '\0'))
            return 0;
    }
    return 1;
}
