/* Content identity of an imported source. The key is SHA-256 (nettle); stores made before
 * it was adopted hold 128-bit FNV-1a keys, which stay valid: while a store still holds one,
 * importers compute both so a re-import of old content is still recognised. */
#ifndef BL_DIGEST_H
#define BL_DIGEST_H

#include <stddef.h>

typedef struct bl_content_key {
    int want_fnv;    /* in: compute the legacy key too */
    char sha256[65]; /* lowercase hex */
    char fnv[33];    /* the pre-SHA-256 key; "" when not asked for */
} bl_content_key;

/* Hex SHA-256 of data into out (65 bytes with the NUL). */
void bl_sha256_hex(const void *data, size_t len, char out[65]);

/* Fills key from data; the FNV key only when key->want_fnv is set. */
void bl_content_key_of(const void *data, size_t len, bl_content_key *key);

/* The legacy key: two 64-bit FNV-1a lanes, hex (33 bytes with the NUL). */
void bl_fnv_key(const void *data, size_t len, char out[33]);

#endif
