/* Content identity of an imported source. The key is SHA-256 (nettle) of the source's text as
 * bl_text_load gives it (UTF-8, each line ended by a NUL): every byte of it, so two sources
 * differing anywhere are two sources. Stores made before SHA-256 was adopted hold 128-bit
 * FNV-1a keys, which stay valid: while a store still holds one, importers compute both so a
 * re-import of old content is still recognised. */
#ifndef BL_DIGEST_H
#define BL_DIGEST_H

#include <stddef.h>
#include <stdio.h>

typedef struct bl_content_key {
    int want_fnv;    /* in: compute the legacy key too */
    char sha256[65]; /* lowercase hex */
    char fnv[33];    /* the pre-SHA-256 key; "" when not asked for */
} bl_content_key;

/* Hex SHA-256 of data into out (65 bytes with the NUL). */
void bl_sha256_hex(const void *data, size_t len, char out[65]);

/* Fills key from data; the FNV key only when key->want_fnv is set. */
void bl_content_key_of(const void *data, size_t len, bl_content_key *key);

/* The key of a file read to its end in blocks, in memory that does not grow with the file:
 * for UTF-8 text the key bl_content_key_of gives its text loaded whole (the same source
 * is one source whichever way it is read). Returns 0, or -1 when f could not be read. */
int bl_content_key_stream(FILE *f, bl_content_key *key);

/* The legacy key: two 64-bit FNV-1a lanes, hex (33 bytes with the NUL). */
void bl_fnv_key(const void *data, size_t len, char out[33]);

#endif
