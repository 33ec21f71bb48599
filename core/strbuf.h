/* A growable NUL-terminated string; aborts on out-of-memory like every allocation here. */
#ifndef BL_STRBUF_H
#define BL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct bl_strbuf {
    char *s;
    size_t len, cap;
} bl_strbuf;

void bl_strbuf_init(bl_strbuf *sb);
void bl_strbuf_free(bl_strbuf *sb);
void bl_strbuf_reset(bl_strbuf *sb);
/* The growing half of bl_strbuf_reserve. */
void bl_strbuf_grow(bl_strbuf *sb, size_t extra);
/* Room for extra more bytes and the NUL: a writer may then fill sb->s + sb->len itself,
 * advance len and end it with a NUL. Inline, as the putters below: a record's line is
 * written in a few hundred small pieces, and a call for each was a tenth of writing it. */
static inline void bl_strbuf_reserve(bl_strbuf *sb, size_t extra)
{
    if (sb->cap - sb->len <= extra)
        bl_strbuf_grow(sb, extra);
}
static inline void bl_strbuf_putn(bl_strbuf *sb, const char *s, size_t n)
{
    bl_strbuf_reserve(sb, n);
    memcpy(sb->s + sb->len, s, n);
    sb->len += n;
    sb->s[sb->len] = '\0';
}
static inline void bl_strbuf_puts(bl_strbuf *sb, const char *s)
{
    bl_strbuf_putn(sb, s, strlen(s));
}
static inline void bl_strbuf_putc(bl_strbuf *sb, char c)
{
    bl_strbuf_reserve(sb, 1);
    sb->s[sb->len++] = c;
    sb->s[sb->len] = '\0';
}
void bl_strbuf_printf(bl_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bl_strbuf_vprintf(bl_strbuf *sb, const char *fmt, va_list ap);
/* v in decimal, as "%llu" prints it. */
void bl_strbuf_put_uint(bl_strbuf *sb, unsigned long long v);
/* The decimal digits of n written to end back (at most 20 bytes before it, no NUL); returns
 * where they start: "%llu" where a buffer of the caller's is wanted, not a strbuf. */
char *bl_digits_of(unsigned long long n, char *end);
/* Shortest decimal that reads back as d; integers without ".0". */
void bl_strbuf_put_double(bl_strbuf *sb, double d);
/* JSON string literal with quotes and escapes. */
void bl_strbuf_put_json_string(bl_strbuf *sb, const char *s);
/* "1 record", "2 records", "0 records": n and noun, with an s unless n is 1 (every noun we
 * count takes an s). Returned by value so that several fit in one printf:
 * printf("%s, %s", bl_count(n, "test").s, bl_count(m, "set-up").s); the text lives until the
 * end of the statement (C11 6.2.4p8). A noun past ~40 bytes is cut. */
typedef struct bl_count_text {
    char s[64];
} bl_count_text;
bl_count_text bl_count(size_t n, const char *noun);

/* Hands the string to the caller (who frees it) and resets sb. */
char *bl_strbuf_take(bl_strbuf *sb);

/* Allocation helpers that never return NULL. */
void *bl_xmalloc(size_t n);
void *bl_xcalloc(size_t n, size_t size);
void *bl_xrealloc(void *p, size_t n);
char *bl_xstrdup(const char *s);
char *bl_xstrndup(const char *s, size_t n);
/* Grows *v (of element size `size`) so that index `need-1` fits; doubles capacity. */
void bl_grow(void **v, size_t *cap, size_t need, size_t size);

#endif
