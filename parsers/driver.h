/* From a file name to records: load the text, pick the formats (probe or --as), parse,
 * merge the formats' results, number runs in line order, label sections and add the
 * user's --label pairs. */
#ifndef BL_DRIVER_H
#define BL_DRIVER_H

#include "../core/digest.h"
#include "parser.h"
#include "patterns.h"

typedef struct bl_parse_opts {
    const char *as; /* NULL or "auto": probe; else a format name */
    size_t n_labels;
    const bl_label *labels;      /* added to every record, overriding the source's */
    const bl_patterns *patterns; /* NULL or the user's pattern-file formats, probed after ours */
} bl_parse_opts;

/* Returns 0 when the input parsed cleanly, 1 when it held errors (diagnostics in out, good
 * records kept), 2 for a usage error (unknown --as). out must be initialised by the caller.
 * *hash receives the content key (for the store), when hash is not NULL. */
int bl_parse_source(const char *path, const bl_parse_opts *opts, bl_parse_out *out,
                    bl_content_key *hash);

/* The same, handing records out as they are read when the file is big and of a format read
 * in pieces (dd): fn gets out with the records of the pieces read so far (labels set,
 * checked, lines and runs numbered in the file) and may write or store them; they are
 * freed after it returns and out->recs is emptied, so memory holds one piece. Records of
 * other files stay in out as with bl_parse_source. fn NULL: all stay in out. */
typedef void (*bl_batch_fn)(void *ctx, bl_parse_out *out);
int bl_parse_source_each(const char *path, const bl_parse_opts *opts, bl_parse_out *out,
                         bl_content_key *hash, bl_batch_fn fn, void *ctx);

/* The same on a text already loaded (tests, fuzzing, stdin buffers). */
int bl_parse_text(const bl_text *t, const bl_parse_opts *opts, bl_parse_out *out);

/* Every record of a parse goes through core/consistency.h: one whose figures disagree gets a
 * note and a "FILE:LINE: warning: ..." in out->warns, and the status is not changed by it. */

/* Writes the diagnostics, then the warnings, as "FILE:LINE: message" lines to stderr. */
void bl_print_diags(const bl_parse_out *out);

#endif
