#include "digest.h"
#include "text.h"
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex_of(const uint8_t *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = 0;
}

void bl_sha256_hex(const void *data, size_t len, char out[65])
{
    struct sha256_ctx ctx;
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, sizeof d, d);
    hex_of(d, sizeof d, out);
}

/* Exactly the digest benchlog used before SHA-256 (old stores hold it), fed in pieces: the
 * second lane mixes in the low byte of each byte's position in the whole. */
typedef struct fnv_state {
    uint64_t a, b, pos;
} fnv_state;

static void fnv_init(fnv_state *s)
{
    *s = (fnv_state){0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL, 0};
}

static void fnv_update(fnv_state *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t a = s->a, b = s->b, pos = s->pos;
    for (size_t i = 0; i < len; i++, pos++) {
        a = (a ^ p[i]) * 0x100000001b3ULL;
        b = (b ^ p[i] ^ (pos & 0xff)) * 0x100000001b3ULL;
    }
    *s = (fnv_state){a, b, pos};
}

static void fnv_hex(const fnv_state *s, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)s->a, (unsigned long long)s->b);
}

void bl_fnv_key(const void *data, size_t len, char out[33])
{
    fnv_state s;
    fnv_init(&s);
    fnv_update(&s, data, len);
    fnv_hex(&s, out);
}

void bl_content_key_of(const void *data, size_t len, bl_content_key *key)
{
    bl_sha256_hex(data, len, key->sha256);
    key->fnv[0] = 0;
    if (key->want_fnv)
        bl_fnv_key(data, len, key->fnv);
}

typedef struct key_state {
    struct sha256_ctx sha;
    fnv_state fnv;
    int want_fnv;
} key_state;

static void key_update(key_state *k, const void *data, size_t len)
{
    sha256_update(&k->sha, len, data);
    if (k->want_fnv)
        fnv_update(&k->fnv, data, len);
}

/* Whether c leaves the text's transform alone but for '\n': printable ASCII, tab, form feed,
 * ESC (no CR, NUL, other control byte or byte of a multibyte character). */
static int plain_byte(unsigned char c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\f' || c == 0x1b;
}

/* Lines of plain bytes are their text once each '\n' is a NUL: into out, or 0 when a byte
 * is not plain (then bl_text_from_bytes decides). */
static int plain_text(const char *bytes, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '\n')
            out[i] = 0;
        else if (plain_byte(c))
            out[i] = (char)c;
        else
            return 0;
    }
    return 1;
}

/* Whole lines of the file, as bl_text_from_bytes turns them to text: the text of a file
 * is the text of its lines one after another, so the pieces hash as the whole would. */
static void key_update_text(key_state *k, const char *bytes, size_t len, char *scratch)
{
    if (plain_text(bytes, len, scratch)) {
        key_update(k, scratch, len);
        return;
    }
    bl_text t;
    char err[128];
    if (bl_text_from_bytes(&t, "", bytes, len, err, sizeof err) != 0) {
        key_update(k, bytes, len); /* binary: its bytes as they are, still every one */
        return;
    }
    key_update(k, t.buf, t.len);
    bl_text_free(&t);
}

int bl_content_key_stream(FILE *f, bl_content_key *key)
{
    enum { BLOCK = 1 << 20 };
    key_state k = {.want_fnv = key->want_fnv};
    sha256_init(&k.sha);
    fnv_init(&k.fnv);
    char *buf = malloc(4 * (size_t)BLOCK), *scratch = buf + 2 * (size_t)BLOCK;
    if (!buf)
        abort();
    size_t held = 0, n;
    /* The text's transform (lines ended by NULs, same-meaning characters to ASCII) is line
     * by line: each pass hashes the whole lines read so far and keeps the partial one. */
    while ((n = fread(buf + held, 1, 2 * (size_t)BLOCK - held, f)) > 0) {
        held += n;
        char *nl = memrchr(buf, '\n', held);
        size_t whole = nl ? (size_t)(nl - buf) + 1 : held < (size_t)BLOCK ? 0 : held;
        if (whole == 0)
            continue;
        key_update_text(&k, buf, whole, scratch);
        memmove(buf, buf + whole, held - whole);
        held -= whole;
    }
    if (held)
        key_update_text(&k, buf, held, scratch);
    free(buf);
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&k.sha, sizeof d, d);
    hex_of(d, sizeof d, key->sha256);
    key->fnv[0] = 0;
    if (key->want_fnv)
        fnv_hex(&k.fnv, key->fnv);
    return ferror(f) ? -1 : 0;
}
