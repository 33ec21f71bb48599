#include "verify.h"
#include "../core/strbuf.h"
#include "engine.h"
#include <errno.h>
#include <fcntl.h>
#include <isa-l/crc.h>
#include <nettle/md5.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#define MAGIC 0x62766c62u /* "blvb" */

/* At the start of every verified block; the digest covers the whole block with the digest
 * field zeroed, so a header moved to another offset or a changed byte anywhere shows. */
typedef struct hdr {
    uint32_t magic;
    uint16_t kind, dlen;
    uint64_t off, len;
    unsigned char digest[32];
} hdr;

static const struct {
    const char *name;
    bl_verify_kind k;
} names[] = {{"crc32c", BL_VERIFY_CRC32C}, {"crc32c-intel", BL_VERIFY_CRC32C},
             {"md5", BL_VERIFY_MD5},       {"sha256", BL_VERIFY_SHA256},
             {"xxhash", BL_VERIFY_XXHASH}, {"0", BL_VERIFY_NONE}};

int bl_verify_parse(const char *v, bl_verify_kind *out)
{
    for (size_t i = 0; v && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(v, names[i].name) == 0) {
            *out = names[i].k;
            return 0;
        }
    return -1;
}

const char *bl_verify_name(bl_verify_kind k)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].k == k)
            return names[i].name;
    return "?";
}

/* The digest of the block (digest field zeroed by the caller) into out; its length. */
static unsigned digest(bl_verify_kind k, const unsigned char *blk, uint64_t len,
                       unsigned char out[32])
{
    memset(out, 0, 32);
    switch (k) {
    case BL_VERIFY_CRC32C: {
        uint32_t c = crc32_iscsi((unsigned char *)blk, (int)len, 0xffffffffu);
        memcpy(out, &c, 4);
        return 4;
    }
    case BL_VERIFY_XXHASH: {
        uint32_t x = XXH32(blk, (size_t)len, 1);
        memcpy(out, &x, 4);
        return 4;
    }
    case BL_VERIFY_MD5: {
        struct md5_ctx c;
        md5_init(&c);
        md5_update(&c, (size_t)len, blk);
        md5_digest(&c, MD5_DIGEST_SIZE, out);
        return MD5_DIGEST_SIZE;
    }
    case BL_VERIFY_SHA256: {
        struct sha256_ctx c;
        sha256_init(&c);
        sha256_update(&c, (size_t)len, blk);
        sha256_digest(&c, SHA256_DIGEST_SIZE, out);
        return SHA256_DIGEST_SIZE;
    }
    default:
        return 0;
    }
}

static uint16_t digest_len(bl_verify_kind k)
{
    return k == BL_VERIFY_MD5 ? 16 : k == BL_VERIFY_SHA256 ? 32 : 4;
}

/* The header goes in with its digest zeroed, the digest of the whole block over it. */
void bl_verify_seal(bl_verify_kind k, unsigned char *blk, uint64_t len, uint64_t off)
{
    hdr h = {.magic = MAGIC, .kind = (uint16_t)k, .dlen = digest_len(k), .off = off, .len = len};
    memcpy(blk, &h, sizeof h);
    digest(k, blk, len, blk + offsetof(hdr, digest));
}

/* The first 8 bytes of a digest in hex ("..." after when it is longer): enough to tell
 * two apart in a message. */
static void hex(char dst[20], const unsigned char *d, unsigned n)
{
    unsigned k = n < 8 ? n : 8;
    for (unsigned i = 0; i < k; i++)
        snprintf(dst + 2 * i, 3, "%02x", d[i]);
    snprintf(dst + 2 * k, 4, "%s", n > k ? "..." : "");
}

int bl_verify_check(bl_verify_kind k, unsigned char *blk, uint64_t len, uint64_t off, char *msg,
                    size_t n)
{
    hdr h;
    memcpy(&h, blk, sizeof h);
    if (h.magic != MAGIC || h.kind != k || h.len != len || h.dlen != digest_len(k)) {
        snprintf(msg, n, "bad header (magic %08x, wanted %08x)", h.magic, MAGIC);
        return -1;
    }
    if (h.off != off) {
        snprintf(msg, n, "the block written for offset %llu is here", (unsigned long long)h.off);
        return -1;
    }
    unsigned char want[32], got[32];
    memcpy(want, h.digest, sizeof want);
    memset(blk + offsetof(hdr, digest), 0, sizeof h.digest);
    unsigned dl = digest(k, blk, len, got);
    memcpy(blk + offsetof(hdr, digest), want, sizeof want);
    if (dl != h.dlen || memcmp(want, got, dl) != 0) {
        char a[20], b[20];
        hex(a, want, dl);
        hex(b, got, dl);
        snprintf(msg, n, "%s mismatch (wanted %s, got %s)", bl_verify_name(k), a, b);
        return -1;
    }
    return 0;
}

static int read_block(int fd, unsigned char *buf, uint64_t len, uint64_t off)
{
    uint64_t done = 0;
    while (done < len) {
        ssize_t r = pread(fd, buf + done, len - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 ? -errno : -EIO;
        done += (uint64_t)r;
    }
    return 0;
}

int bl_worker_verify(bl_worker *w)
{
    const bl_job *j = w->job;
    /* Buffered writes may still sit in the page cache: read what the device holds. */
    if (!w->direct) { /* best effort: the check stays right, only less strict */
        (void)fsync(w->fd);
        (void)posix_fadvise(w->fd, 0, 0, POSIX_FADV_DONTNEED);
    }
    uint64_t bad = 0, first = 0, b = 0;
    char why[112] = "";
    for (; b < w->nblocks; b++) {
        if (atomic_load_explicit(w->stop, memory_order_relaxed))
            return 0; /* interrupted: no verdict */
        uint64_t off = j->offset + b * j->bs;
        int rc = read_block(w->fd, w->buf, j->bs, off);
        if (rc < 0) {
            bl_worker_fail(w, "verify read", -rc);
            return -1;
        }
        char msg[112];
        if (bl_verify_check(j->verify, w->buf, j->bs, off, msg, sizeof msg) != 0) {
            if (bad++ == 0) {
                first = off;
                snprintf(why, sizeof why, "%s", msg);
            }
            if (j->verify_fatal) {
                b++;
                break;
            }
        }
    }
    w->verified = b;
    if (bad == 0)
        return 0;
    w->err = EILSEQ;
    /* Built whole, then cut to errmsg: a long reason loses its tail, never the figures. */
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb,
                     "verify=%s: %llu of %llu blocks bad%s; first at offset %llu (0x%llx), length "
                     "%llu: %s",
                     bl_verify_name(j->verify), (unsigned long long)bad, (unsigned long long)b,
                     j->verify_fatal ? " (verify_fatal: stopped there)" : "",
                     (unsigned long long)first, (unsigned long long)first,
                     (unsigned long long)j->bs, why);
    size_t n = sb.len < sizeof w->errmsg ? sb.len : sizeof w->errmsg - 1;
    memcpy(w->errmsg, sb.s, n);
    w->errmsg[n] = 0;
    bl_strbuf_free(&sb);
    return -1;
}
