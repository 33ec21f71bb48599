/* A read-only view of one JSON value: its nodes in document order in one array, no
 * allocation per value (issue 26: jansson's tree of every fio job was most of the time).
 * Made from text (the fast path, for plain JSON only) or from a jansson value (what
 * is left: the view then answers exactly as that value would, the order of an object's
 * members and the value a repeated key keeps included). */
#ifndef BL_FIO_JSONVIEW_H
#define BL_FIO_JSONVIEW_H

#include "../core/record.h"
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    BL_JV_NULL,
    BL_JV_TRUE,
    BL_JV_FALSE,
    BL_JV_INT,
    BL_JV_REAL,
    BL_JV_STR,
    BL_JV_OBJ,
    BL_JV_ARR
};

/* An object's members are a key (BL_JV_STR) and its value, in order; node + span is the
 * node after the value and all it holds. */
typedef struct bl_jv_node {
    unsigned char type;
    uint32_t size; /* members of an object, elements of an array */
    uint32_t span; /* nodes in the value, itself included */
    const char *str;
    int64_t i; /* an integer's value, a string's length */
    double d;  /* a number's value, (double)i for an integer as jansson gives it */
} bl_jv_node;

/* The nodes of one value (nodes[0]) and the scratch that making them needs; reused. */
typedef struct bl_jv {
    bl_jv_node *nodes;
    size_t n, cap;
    uint32_t *seen; /* a hash table finding repeated keys */
    size_t nseen;
} bl_jv;

/* How many of the n bytes at p are ' ' before any other, sixteen (or eight) at a time: a
 * pretty-printed JSON is a fifth indentation. */
static inline size_t bl_jv_spaces(const char *p, size_t n)
{
    size_t k = 0;
#ifdef __SSE2__
    const __m128i sp = _mm_set1_epi8(' ');
    for (; k + 16 <= n; k += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
                         _mm_loadu_si128((const __m128i *)(const void *)(p + k)), sp)) ^
                     0xffffu;
        if (m)
            return k + (size_t)__builtin_ctz(m);
    }
#endif
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (uint64_t w; k + 8 <= n; k += 8) {
        memcpy(&w, p + k, 8);
        w ^= 0x2020202020202020ull; /* the first byte not a space is the lowest set */
        if (w)
            return k + ((size_t)__builtin_ctzll(w) >> 3);
    }
#endif
    while (k < n && p[k] == ' ')
        k++;
    return k;
}

void bl_jv_free(bl_jv *v);
/* The value that is exactly the n bytes at s, s[n] being '\0' (written: each string ends with a
 * '\0' where its closing quote was): 1 when it is plain JSON that jansson would read the same (no
 * escape, no byte outside printable ASCII in a string, no repeated key, a number converted exactly,
 * not deeper than 64). 0: s is to be given to jansson (a fresh copy) and the view made from it. */
int bl_jv_parse(bl_jv *v, char *s, size_t n);
/* The value at the start of the n bytes at s, only read ('\0' there is whitespace, as a loaded
 * text's line end), taken as bl_jv_parse takes it: 1, the bytes it spans in *len and its
 * strings in *buf, a copy of them (grown to *cap, kept by the caller for the next). 0: s is
 * jansson's to read, nothing is told of its end. */
int bl_jv_read(bl_jv *v, const char *s, size_t n, size_t *len, char **buf, size_t *cap);
/* The view of a jansson value (strings and keys point into it: keep it while the view is
 * used). */
void bl_jv_from_json(bl_jv *v, json_t *j);

/* As jansson's json_object_get: NULL unless o is an object holding key (of len bytes). */
const bl_jv_node *bl_jv_getn(const bl_jv_node *o, const char *key, size_t len);
/* (inline: a literal key's length is the compiler's, not a strlen a lookup) */
static inline const bl_jv_node *bl_jv_get(const bl_jv_node *o, const char *key)
{
    return bl_jv_getn(o, key, strlen(key));
}
/* As json_integer_value: 0 unless an integer. */
int64_t bl_jv_int(const bl_jv_node *v);
static inline int bl_jv_is_number(const bl_jv_node *v)
{
    return v && (v->type == BL_JV_INT || v->type == BL_JV_REAL);
}
/* A member as a number (BL_ABSENT when missing or not a number) or a string (NULL). */
static inline double bl_jv_num(const bl_jv_node *o, const char *key)
{
    const bl_jv_node *v = bl_jv_get(o, key);
    return bl_jv_is_number(v) ? v->d : BL_ABSENT;
}
static inline const char *bl_jv_str(const bl_jv_node *o, const char *key)
{
    const bl_jv_node *v = bl_jv_get(o, key);
    return v && v->type == BL_JV_STR ? v->str : NULL;
}
/* Members of an object in order: k the key (k->str), k + 1 its value; nothing for NULL or
 * anything but an object. */
#define bl_jv_foreach(o, idx, k)                                                                   \
    for ((idx) = 0, (k) = (o) && (o)->type == BL_JV_OBJ ? (o) + 1 : NULL;                          \
         (k) && (idx) < (o)->size; (idx)++, (k) = (k) + 1 + (k)[1].span)
/* Elements of an array in order. */
#define bl_jv_each(a, idx, e)                                                                      \
    for ((idx) = 0, (e) = (a) && (a)->type == BL_JV_ARR ? (a) + 1 : NULL;                          \
         (e) && (idx) < (a)->size; (idx)++, (e) = (e) + (e)->span)

#endif
