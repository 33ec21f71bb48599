/* A JSON scanner for text read in place (export --csv): it checks the text as strictly as
 * jansson does where it answers, and gives up (-1) where it is unsure (escapes other than
 * the two-character ones, nesting past 32, integers past 18 digits, numbers past 300
 * characters or with three-digit exponents), so that the caller hands such text to the
 * decoder. Positions are pointers into the text; nothing is allocated but keys. */
#ifndef BL_JSON_SCAN_H
#define BL_JSON_SCAN_H

#include "strbuf.h"
#include <stddef.h>

typedef struct bl_js {
    const char *p, *e;
    int depth;
} bl_js;

void bl_js_ws(bl_js *s);
/* A string at s->p (its opening quote); its text into out when out is not NULL. */
int bl_js_string(bl_js *s, bl_strbuf *out);
/* A number token; is_int when it has neither fraction nor exponent. */
int bl_js_number(bl_js *s, const char **tok, size_t *len, int *is_int);
/* Any value, checked and skipped. */
int bl_js_value(bl_js *s);
/* An object at s->p: fn (NULL: skip) reads each member's value at s->p, its key in key. */
typedef int (*bl_js_member_fn)(void *ctx, const bl_strbuf *key, bl_js *s);
int bl_js_object(bl_js *s, bl_js_member_fn fn, void *ctx, bl_strbuf *key);

#endif
