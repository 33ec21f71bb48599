/* A source text split into lines for the parsers.
 *
 * bl_text_load reads a whole file (or stdin for "-"), converts it to UTF-8 when it is in
 * another encoding, and splits it into NUL-terminated lines with the trailing CR removed.
 * Lines are numbered from 1 in messages; t->line[i] is line i+1. The text owns its lines. */
#ifndef BL_TEXT_H
#define BL_TEXT_H

#include <stddef.h>

typedef struct bl_text {
    char *name; /* source name as given ("-" becomes "<stdin>") */
    char *buf;  /* the UTF-8 bytes, '\n' replaced by '\0' */
    size_t len; /* bytes in buf, not counting the final NUL */
    size_t nlines;
    char **line;    /* nlines pointers into buf */
    char *encoding; /* the encoding the file was in: "UTF-8", "SHIFT_JIS", ... */
} bl_text;

/* Returns 0, or -1 with a one-line message in err ("cannot open: No such file"). */
int bl_text_load(bl_text *t, const char *path, char *err, size_t errlen);
/* Takes a copy of bytes (any encoding) as if it had been read from a file named name. */
int bl_text_from_bytes(bl_text *t, const char *name, const char *bytes, size_t len, char *err,
                       size_t errlen);
void bl_text_free(bl_text *t);

/* True when the bytes look like binary data rather than text (NULs, control bytes). */
int bl_looks_binary(const char *bytes, size_t len);

#endif
