/* libFuzzer target: the text normaliser, with and without re-joining wrapped lines. Its
 * promises must hold for any bytes: every output line maps to an input line, in order; no
 * output line holds a line break; a second pass over its output changes no line count into
 * nonsense (the output is a text like any other). */
#include "../../core/normalize.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check(const bl_text *in, const bl_text *out, const long *orig)
{
    long prev = 1;
    for (size_t i = 0; i < out->nlines; i++) {
        if (orig[i] < prev || orig[i] > (long)in->nlines)
            abort(); /* out of order or pointing past the input */
        if (strchr(out->line[i], '\n'))
            abort();
        prev = orig[i];
    }
    if (out->len > 0 && out->buf[out->len] != '\0')
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bl_text t;
    char err[256];
    if (bl_text_from_bytes(&t, "fuzz", (const char *)data, size, err, sizeof err) != 0)
        return 0;
    for (int flags = 0; flags <= BL_NORM_JOIN; flags += BL_NORM_JOIN) {
        bl_text n, again;
        long *orig, *orig2;
        size_t joins;
        if (!bl_text_normalize(&t, flags, &n, &orig, &joins))
            continue;
        check(&t, &n, orig);
        if (bl_text_normalize(&n, flags, &again, &orig2, NULL)) {
            check(&n, &again, orig2);
            bl_text_free(&again);
            free(orig2);
        }
        bl_text_free(&n);
        free(orig);
    }
    bl_text_free(&t);
    return 0;
}
