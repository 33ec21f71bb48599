/* Source bytes to the UTF-8 the parsers read.
 *
 * Detection, in order: a UTF-16 byte-order mark (Windows tools' "Unicode" text export),
 * NUL-interleaved text without a BOM (UTF-16LE or BE, by where the NULs stand), valid UTF-8 (with
 * or without BOM), then the two encodings of old Japanese pages, Shift_JIS (as Windows' CP932) and
 * EUC-JP, tried with iconv; when both decode, the one giving more kana wins (the wrong one gives
 * stray kanji and half-width katakana). Anything else is kept as UTF-8 with U+FFFD for bad bytes.
 *
 * Then the text is normalised where pages vary without meaning: no-break and ideographic
 * spaces become spaces, full-width digits, colon, period and percent become ASCII. */
#include "encoding.h"
#include "strbuf.h"
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>

size_t bl_utf8_seq_len(const unsigned char *s, size_t avail)
{
    if (avail == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned min;
    unsigned cp;
    if ((c & 0xe0) == 0xc0) {
        n = 2, cp = c & 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, cp = c & 0x0f, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* How many bytes from s[0] are ASCII, read a word at a time: text is mostly ASCII, and the
 * checks below only need to look at the rest. */
static size_t ascii_run(const unsigned char *s, size_t len)
{
    size_t i = 0;
    for (uint64_t w; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080u)
            break;
    }
    while (i < len && s[i] < 0x80)
        i++;
    return i;
}

/* 1 when s is valid UTF-8, 2 when it is ASCII too (nothing for normalise to do). */
static int valid_utf8(const unsigned char *s, size_t len)
{
    size_t first = ascii_run(s, len);
    if (first == len)
        return 2;
    for (size_t i = first; i < len;) {
        i += ascii_run(s + i, len - i);
        if (i == len)
            break;
        size_t n = bl_utf8_seq_len(s + i, len - i);
        if (n == 0)
            return 0;
        i += n;
    }
    return 1;
}

/* Strict conversion; returns 0 (and frees nothing) when a byte does not decode. */
static int convert(const char *from, const char *bytes, size_t len, bl_strbuf *sb)
{
    iconv_t cd = iconv_open("UTF-8", from);
    if (cd == (iconv_t)-1)
        return 0;
    char *in = (char *)bytes;
    size_t inleft = len;
    char buf[4096];
    int ok = 1;
    while (inleft > 0) {
        char *out = buf;
        size_t outleft = sizeof buf;
        size_t rc = iconv(cd, &in, &inleft, &out, &outleft);
        bl_strbuf_putn(sb, buf, (size_t)(out - buf));
        if (rc == (size_t)-1 && errno != E2BIG) {
            ok = 0;
            break;
        }
    }
    iconv_close(cd);
    return ok;
}

/* Kana (U+3040..U+30FF) in UTF-8 are E3 81 80..E3 83 BF. */
static size_t kana(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i + 2 < n; i++)
        if ((unsigned char)s[i] == 0xe3 && (unsigned char)s[i + 1] >= 0x81 &&
            (unsigned char)s[i + 1] <= 0x83)
            k++;
    return k;
}

/* Byte structure checks, so that iconv (and its dlopen'ed modules) runs only on bytes that
 * can be Shift_JIS or EUC-JP at all. */
static int sjis_shaped(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c < 0x80 || (c >= 0xa1 && c <= 0xdf))
            continue;
        if (!((c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc)) || i + 1 >= len)
            return 0;
        unsigned char d = s[++i];
        if (d < 0x40 || d == 0x7f || d > 0xfc)
            return 0;
    }
    return 1;
}

static int euc_shaped(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c < 0x80)
            continue;
        size_t need = c == 0x8f ? 2 : 1;
        if (!(c == 0x8e || c == 0x8f || (c >= 0xa1 && c <= 0xfe)) || i + need >= len)
            return 0;
        for (size_t k = 1; k <= need; k++)
            if (s[i + k] < 0xa1 || s[i + k] == 0xff)
                return 0;
        i += need;
    }
    return 1;
}

/* ASCII as UTF-16 is every other byte NUL: the high byte, second in little-endian, first in
 * big-endian. Nine pairs in ten so shaped, and no NUL on the other side (a binary file full of
 * zeros is neither), read the first 64 KiB. */
const char *bl_utf16_without_bom(const char *bytes, size_t len)
{
    const unsigned char *s = (const unsigned char *)bytes;
    size_t n = len < 65536 ? len : 65536, pairs = n / 2, nul[2] = {0, 0}, both = 0;
    /* Either order needs 9 pairs in 10 shaped: past `most` pairs not so, neither can be (the
     * answer is NULL), and a text with few NULs is left after a tenth of the bytes. */
    size_t most = pairs - (pairs * 9 + 9) / 10;
    for (size_t i = 0; i + 1 < n; i += 2) {
        nul[0] += s[i] == 0;
        nul[1] += s[i + 1] == 0;
        both += s[i] == 0 && s[i + 1] == 0;
        size_t seen = i / 2 + 1;
        if ((i & 254) == 0 && seen - nul[0] > most && seen - nul[1] > most)
            return NULL;
    }
    if (pairs < 8 || both * 100 > pairs)
        return NULL;
    if (nul[1] * 10 >= pairs * 9)
        return "UTF-16LE";
    if (nul[0] * 10 >= pairs * 9)
        return "UTF-16BE";
    return NULL;
}

/* *ascii: set when the bytes were ASCII, which no step after this changes. */
static const char *decode(const unsigned char *s, size_t len, bl_strbuf *sb, int *ascii)
{
    *ascii = 0;
    if (len >= 2 && s[0] == 0xff && s[1] == 0xfe &&
        convert("UTF-16LE", (const char *)s + 2, len - 2, sb))
        return "UTF-16LE";
    bl_strbuf_reset(sb);
    if (len >= 2 && s[0] == 0xfe && s[1] == 0xff &&
        convert("UTF-16BE", (const char *)s + 2, len - 2, sb))
        return "UTF-16BE";
    bl_strbuf_reset(sb);
    const char *utf16 = bl_utf16_without_bom((const char *)s, len);
    if (utf16 && convert(utf16, (const char *)s, len - len % 2, sb))
        return utf16;
    bl_strbuf_reset(sb);
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
        s += 3, len -= 3;
    int valid = valid_utf8(s, len);
    if (valid) {
        bl_strbuf_putn(sb, (const char *)s, len);
        *ascii = valid == 2;
        return "UTF-8";
    }
    bl_strbuf sj, euc;
    bl_strbuf_init(&sj);
    bl_strbuf_init(&euc);
    bl_strbuf_putn(&sj, "", 0);
    bl_strbuf_putn(&euc, "", 0);
    int ok_sj = sjis_shaped(s, len) && convert("CP932", (const char *)s, len, &sj);
    int ok_euc = euc_shaped(s, len) && convert("EUC-JP", (const char *)s, len, &euc);
    const char *enc = NULL;
    if (ok_sj && (!ok_euc || kana(sj.s, sj.len) >= kana(euc.s, euc.len))) {
        bl_strbuf_putn(sb, sj.s, sj.len);
        enc = "SHIFT_JIS";
    } else if (ok_euc) {
        bl_strbuf_putn(sb, euc.s, euc.len);
        enc = "EUC-JP";
    }
    bl_strbuf_free(&sj);
    bl_strbuf_free(&euc);
    if (enc)
        return enc;
    for (size_t i = 0; i < len;) {
        size_t n = bl_utf8_seq_len(s + i, len - i);
        if (n == 0) {
            bl_strbuf_puts(sb, "\xef\xbf\xbd");
            i++;
            continue;
        }
        bl_strbuf_putn(sb, (const char *)s + i, n);
        i += n;
    }
    return "UTF-8 (with invalid bytes)";
}

/* Same-meaning variants to ASCII; the result is never longer than the input. */
static size_t normalise(char *s, size_t n)
{
    size_t o = ascii_run((const unsigned char *)s, n); /* ASCII is kept as it is */
    for (size_t i = o; i < n;) {
        const unsigned char *u = (const unsigned char *)s + i;
        if (n - i >= 2 && u[0] == 0xc2 && u[1] == 0xa0) { /* U+00A0 */
            s[o++] = ' ', i += 2;
        } else if (n - i >= 3 && u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xaf || u[2] == 0x89)) {
            s[o++] = ' ', i += 3; /* U+202F, U+2009 */
        } else if (n - i >= 3 && u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80) {
            s[o++] = ' ', i += 3; /* U+3000 */
        } else if (n - i >= 3 && u[0] == 0xef && u[1] == 0xbc && u[2] >= 0x90 && u[2] <= 0x9a) {
            s[o++] = u[2] == 0x9a ? ':' : (char)('0' + (u[2] - 0x90)), i += 3; /* U+FF10.. */
        } else if (n - i >= 3 && u[0] == 0xef && u[1] == 0xbc && (u[2] == 0x8e || u[2] == 0x85)) {
            s[o++] = u[2] == 0x8e ? '.' : '%', i += 3;
        } else {
            s[o++] = s[i++];
        }
    }
    s[o] = '\0';
    return o;
}

const char *bl_to_utf8(const char *bytes, size_t len, char **out, size_t *outlen)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, "", 0);
    int ascii;
    const char *enc = decode((const unsigned char *)bytes, len, &sb, &ascii);
    if (!ascii)
        sb.len = normalise(sb.s, sb.len);
    *outlen = sb.len;
    *out = bl_strbuf_take(&sb);
    return enc;
}
