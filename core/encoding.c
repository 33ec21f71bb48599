#include "encoding.h"
#include "strbuf.h"
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

const char *bl_to_utf8(const char *bytes, size_t len, char **out, size_t *outlen)
{
    const unsigned char *s = (const unsigned char *)bytes;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
        s += 3;
        len -= 3;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_putn(&sb, "", 0);
    const char *enc = "UTF-8";
    for (size_t i = 0; i < len;) {
        size_t n = bl_utf8_seq_len(s + i, len - i);
        if (n == 0) {
            bl_strbuf_puts(&sb, "\xef\xbf\xbd");
            enc = "UTF-8 (with invalid bytes)";
            i++;
            continue;
        }
        bl_strbuf_putn(&sb, (const char *)s + i, n);
        i += n;
    }
    *outlen = sb.len;
    *out = bl_strbuf_take(&sb);
    return enc;
}
