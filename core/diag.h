/* Diagnostics about a text: "SOURCE:LINE: what is wrong", collected in order, so that a reader
 * reports every problem and keeps going. Used by readers outside parsers/ (the runner's job
 * file reader); parsers/ keeps the same bl_diag entries in its bl_parse_out. */
#ifndef BL_CORE_DIAG_H
#define BL_CORE_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef struct bl_diag {
    char *source;
    long line; /* 0 when the message concerns the whole text */
    char *msg;
} bl_diag;

typedef struct bl_diags {
    const char *source; /* not owned: the name messages carry */
    size_t n, cap;
    bl_diag *v;
} bl_diags;

void bl_diags_init(bl_diags *d, const char *source);
void bl_diags_free(bl_diags *d);
void bl_diags_add(bl_diags *d, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* One "SOURCE:LINE: message" line each (no LINE when it is 0). */
void bl_diags_print(FILE *f, const bl_diags *d);

#endif
