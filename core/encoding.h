/* Converting a source's bytes to UTF-8 text the parsers can rely on. */
#ifndef BL_ENCODING_H
#define BL_ENCODING_H

#include <stddef.h>

/* Returns a NUL-terminated UTF-8 copy of bytes in *out (caller frees) with its length in
 * *outlen, and the name of the encoding the bytes were in (static string). Never fails:
 * bytes that cannot be decoded become U+FFFD. */
const char *bl_to_utf8(const char *bytes, size_t len, char **out, size_t *outlen);

/* "UTF-16LE" or "UTF-16BE" when bytes are NUL-interleaved text without a byte-order mark
 * (mostly ASCII in UTF-16), else NULL. */
const char *bl_utf16_without_bom(const char *bytes, size_t len);

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when s does not start one. */
size_t bl_utf8_seq_len(const unsigned char *s, size_t avail);

#endif
