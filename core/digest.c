#include "digest.h"
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void bl_sha256_hex(const void *data, size_t len, char out[65])
{
    struct sha256_ctx ctx;
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

void bl_fnv_key(const void *data, size_t len, char out[33])
{
    /* Exactly the digest benchlog used before SHA-256: old stores hold it. */
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        a = (a ^ p[i]) * 0x100000001b3ULL;
        b = (b ^ p[i] ^ (i & 0xff)) * 0x100000001b3ULL;
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

void bl_content_key_of(const void *data, size_t len, bl_content_key *key)
{
    bl_sha256_hex(data, len, key->sha256);
    key->fnv[0] = 0;
    if (key->want_fnv)
        bl_fnv_key(data, len, key->fnv);
}
