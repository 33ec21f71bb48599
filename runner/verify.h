/* fio's verify: every block a job writes carries a header (where it belongs, how long it is)
 * and a digest of the whole block; after the writes, the block is read back and checked.
 * Digests come from maintained libraries: crc32c from ISA-L, md5 and sha256 from nettle (which
 * also keys the store), xxhash (32-bit, as fio's) from libxxhash. */
#ifndef BL_RUNNER_VERIFY_H
#define BL_RUNNER_VERIFY_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    BL_VERIFY_NONE = 0,
    BL_VERIFY_CRC32C,
    BL_VERIFY_MD5,
    BL_VERIFY_SHA256,
    BL_VERIFY_XXHASH,
} bl_verify_kind;

/* The smallest block that holds a header and a sha256. */
#define BL_VERIFY_MIN_BS 64

/* fio's names (crc32c-intel is crc32c, 0 is none); -1 when not one we do. */
int bl_verify_parse(const char *v, bl_verify_kind *out);
const char *bl_verify_name(bl_verify_kind k);
/* Writes the header and digest into a block about to be written at off. */
void bl_verify_seal(bl_verify_kind k, unsigned char *blk, uint64_t len, uint64_t off);
/* 0 when the block read at off is the one written there; else -1 and what is wrong in msg. */
int bl_verify_check(bl_verify_kind k, unsigned char *blk, uint64_t len, uint64_t off, char *msg,
                    size_t n);

struct bl_worker;
/* Reads back every block of the worker's region and checks it (after its writes, or alone for
 * verify_only). 0 when all are good or the run was stopped; -1 with the worker's error set:
 * how many blocks are bad and the offset of the first. */
int bl_worker_verify(struct bl_worker *w);

#endif
