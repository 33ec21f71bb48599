/* A fio JSON document read one element of its array at a time (issue 26): the whole
 * document as one jansson tree took 8x the file. */
#ifndef BL_FIO_JSON_STREAM_H
#define BL_FIO_JSON_STREAM_H

#include "../core/text.h"
#include "fio_jsonview.h"
#include <jansson.h>

/* Where the document is: a loaded text (line ends are '\0', lines from t->line) or a file's
 * bytes mapped read-only (line ends '\n', lines counted; pages read are given back to the
 * system every 1 MiB a pass reads, 2 MiB behind it, so memory stays flat whatever the file's
 * size). */
typedef struct bl_fj_src {
    const char *s;
    size_t n;
    const bl_text *t; /* NULL: s is a file's mapped bytes */
    /* file bytes: the line at a byte (line_pos starts line_no), the line cursor of
     * bl_fj_src_find (find_pos starts find_no), and how far the pages were given back */
    size_t line_pos, find_pos, dropped;
    long line_no, find_no;
    /* given the bytes up to a place before a pass gives their pages back (a file's check
     * made while its pages are still in memory); its 0 makes the document refused */
    int (*check)(void *ctx, size_t upto);
    void *check_ctx;
    int refused;
} bl_fj_src;

/* A pass over a file's bytes gives pages back where (offset & BL_FJ_DROP_MASK) == 0. */
#define BL_FJ_DROP_MASK (((size_t)1 << 20) - 1)

void bl_fj_src_text(bl_fj_src *src, const bl_text *t);
void bl_fj_src_bytes(bl_fj_src *src, const char *s, size_t n);
/* A file's mapped pages before upto, less the 2 MiB folio it may be in, are given back (read
 * again from the page cache when a later pass needs them), src->check having seen them first.
 * Nothing for a text. */
void bl_fj_src_give_back(bl_fj_src *src, size_t upto);
/* The same without src->check. */
void bl_fj_src_drop(bl_fj_src *src, size_t upto);
/* The 1-based line holding byte off. */
long bl_fj_src_line_at(bl_fj_src *src, size_t off);
/* The first line from *at to last (1-based) holding needle: its number, *at moved past it;
 * 0 when there is none. */
long bl_fj_src_find(bl_fj_src *src, long *at, long last, const char *needle);

/* head: the document's other members, decoded (the array's key left out); first, last: the
 * document's lines. element gets each element of the array in order (a view as jansson
 * would read it, valid for the call), then end; abort (after begin) undoes what they made
 * when the document turned out not to be plain JSON, or not as begin saw it: the document
 * is read in one pass where it can be, begin then seeing the members before the array only
 * (none of begin_keys may follow it) and LONG_MAX for last; last_ok(last) says at the end
 * whether what the elements made holds with the real last line (0: it is read again). */
typedef struct bl_fj_stream {
    void (*begin)(json_t *head, long first, long last, bl_fj_src *src, void *ctx);
    void (*element)(const bl_jv_node *el, size_t idx, void *ctx);
    void (*end)(json_t *head, void *ctx);
    void (*abort)(void *ctx);
    int (*last_ok)(long last, void *ctx);
    const char *const *begin_keys; /* NULL-ended */
} bl_fj_stream;

/* Reads the object starting at byte off of src when it is strict JSON whose member `key`
 * (given once) is an array: returns 1 and the offset just past its closing brace in *end.
 * Returns 0, having made nothing (abort called when begin was), for anything else: the
 * caller reads it whole, as jansson would. */
int bl_fj_stream_doc(bl_fj_src *src, size_t off, const char *key, const bl_fj_stream *ops,
                     void *ctx, size_t *end);

#endif
