/* A source text split into lines for the parsers.
 *
 * bl_text_load reads a whole file (or stdin for "-"), converts it to UTF-8 when it is in
 * another encoding, and splits it into NUL-terminated lines with the trailing CR removed.
 * Lines are numbered from 1 in messages; t->line[i] is line i+1. The text owns its lines.
 *
 * Reading is bounded: it stops at a line longer than BL_TEXT_LINE_MAX (a 2 GB line, /dev/zero)
 * and, on a pipe or device, after BL_TEXT_STREAM_MAX bytes (endless standard input); a line
 * holding a NUL byte is blanked. Each is a note (line, message) the caller reports; the lines
 * before are kept. */
#ifndef BL_TEXT_H
#define BL_TEXT_H

#include <stddef.h>

#define BL_TEXT_LINE_MAX ((size_t)8 << 20)
#define BL_TEXT_STREAM_MAX ((size_t)32 << 20)

typedef struct bl_text_note {
    long line;
    char *msg;
} bl_text_note;

typedef struct bl_text {
    char *name; /* source name as given ("-" becomes "<stdin>") */
    char *buf;  /* the UTF-8 bytes, '\n' replaced by '\0' */
    size_t len; /* bytes in buf, not counting the final NUL */
    size_t nlines;
    char **line;    /* nlines pointers into buf */
    char *encoding; /* the encoding the file was in: "UTF-8", "SHIFT_JIS", ... */
    size_t n_notes;
    bl_text_note *notes; /* what loading spoiled or where it stopped */
} bl_text;

/* Returns 0, or -1 with a one-line message in err ("cannot open: No such file"). */
int bl_text_load(bl_text *t, const char *path, char *err, size_t errlen);
/* Takes a copy of bytes (any encoding) as if it had been read from a file named name. */
int bl_text_from_bytes(bl_text *t, const char *name, const char *bytes, size_t len, char *err,
                       size_t errlen);
void bl_text_free(bl_text *t);
/* Whether t's lines are the NUL-ended runs of buf[0..len] in order, each starting at buf or
 * right after a NUL (texts as bl_text_load and bl_text_from_bytes make them), so that a scan
 * of buf sees every line. A run may be no line ("\r\n" leaves an empty one). */
int bl_text_lines_are_runs(const bl_text *t);

/* True when the bytes look like binary data rather than text (mostly control bytes or NULs;
 * a few NULs only spoil their lines). */
int bl_looks_binary(const char *bytes, size_t len);

#endif
