/* How a format plugs in, and what a parse gives back.
 *
 * A format is one file in parsers/ defining one `const bl_format bl_format_NAME` and one
 * line X(NAME) in registry.c. Its probe looks at a text and says how sure it is that it
 * holds this format somewhere (0 = not at all, 100 = certain); its parse finds every block
 * of the format in the text, ignoring what is not its own (blog prose, other tools), and
 * adds records and diagnostics to the output. A parse never stops at the first error: it
 * reports `line: what is wrong` and goes on with the next block, keeping good records.
 *
 * Records get source and line from bl_out_record; `run` is the parser's own numbering of
 * the runs it found (1, 2, ...); the driver renumbers runs across formats in line order. */
#ifndef BL_PARSER_H
#define BL_PARSER_H

#include "../core/diag.h"
#include "../core/record.h"
#include "../core/text.h"
#include <stdio.h>

typedef struct bl_parse_out {
    const char *source; /* name put in records and messages */
    bl_records recs;
    size_t n_diags, cap_diags;
    bl_diag *diags;
    /* Records kept but suspicious (figures that disagree): printed as warnings, and not
     * errors, so the status of the parse stays 0. */
    size_t n_warns, cap_warns;
    bl_diag *warns;
} bl_parse_out;

/* What a format's cutter (bl_format.cut_line) says of the line it is given. */
typedef enum bl_cut {
    BL_CUT_NO,      /* nothing */
    BL_CUT_MARK,    /* the text may be cut right before this line, if a later line confirms */
    BL_CUT_DROP,    /* the mark no longer holds */
    BL_CUT_CONFIRM, /* the marked cut holds */
    BL_CUT_HERE,    /* the text may be cut right before this line */
    BL_CUT_NEVER,   /* no cut from here on */
} bl_cut;

/* A cutter's memory between lines: zeroed before a file's first line. */
typedef struct bl_cut_state {
    int flags;
    long n;
} bl_cut_state;

typedef struct bl_format {
    const char *name;    /* the --as name */
    const char *summary; /* one line for --help and the README */
    const char *family;  /* formats of one family describe the same runs in other forms */
    int rank;            /* within a family, the higher rank wins a duplicate run */
    int (*probe)(const bl_text *t);
    void (*parse)(const bl_text *t, bl_parse_out *out);
    /* Optional: parse from a stream in constant memory (huge logs). NULL = use parse. */
    void (*parse_stream)(FILE *f, bl_parse_out *out);
    /* Optional: read a big regular file without loading it as a text, when it is plain enough
     * that the records are the same (a fio JSON document alone): 1 with records and messages
     * in out, or 0 when declined (out is then dropped and the file read as a text). */
    int (*parse_plain)(const char *path, bl_parse_out *out);
    /* Optional: whether a text of this format alone may be cut between `line` and `next`, the
     * next non-blank line, and each side parsed apart with the same result: nothing the
     * parse reads looks across (the driver then reads a big file in pieces). */
    int (*cut_after)(const char *line, const char *next);
    /* Optional, instead of cut_after, for a format whose cut depends on the lines around it
     * (fio's normal output: a run ends where the next one starts, and what the next run
     * takes from the one before must be shown to be nothing): sees every line of the file
     * in order, blank ones too, and says where each side of a cut parses apart with the
     * same result. */
    bl_cut (*cut_line)(bl_cut_state *st, const char *line);
    /* Optional: literals (a NULL-terminated list) of which one must stand in some line of a
     * text for probe to claim it; the driver probes no text that holds none of them, which
     * spares the probe's walk over every line (a big file's pieces). Each claim of the probe
     * must need one of them: name only what the probe cannot succeed without (a weaker
     * literal, a part of it, is safe; one the probe can do without is a wrong result).
     * tests/test_probe_needles.c holds every probe to it over the fixtures and the corpus. */
    const char *const *needles;
    /* Optional, for a format whose probe needs no literal: 0 when the probe cannot claim t,
     * judged far faster than the probe walks it (a big file's pieces, probed by every format);
     * else 1. Like the needles it must hold for each claim (tests/test_probe_needles.c). */
    int (*may_claim)(const bl_text *t);
} bl_format;

void bl_out_init(bl_parse_out *o, const char *source);
void bl_out_free(bl_parse_out *o);
/* A new record with source and line set, already appended to o->recs. */
bl_record *bl_out_record(bl_parse_out *o, long line);
void bl_out_error(bl_parse_out *o, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void bl_out_warn(bl_parse_out *o, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The registration table. */
const bl_format *bl_format_find(const char *name);
size_t bl_format_count(void);
const bl_format *bl_format_at(size_t i);

#endif
