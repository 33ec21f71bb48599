/* Formats a user adds without C: pattern files (syntax in docs/benchlog.1, "PATTERN FILES").
 *
 * A pattern file names a format, a PCRE2 `detect` pattern that claims a text, `record`
 * patterns whose named captures become record fields (with the units the file states), and
 * optional `context` patterns whose captures apply to the records below them. Patterns
 * match the whole text in multi-line mode, so one record may span several lines.
 *
 * Loading reports every mistake of a file as `FILE:LINE: message` (PCRE2's own message for
 * a pattern that does not compile) in errs, and keeps the files that loaded cleanly. A set
 * owns everything it holds. */
#ifndef BL_PATTERNS_H
#define BL_PATTERNS_H

#include "parser.h"

typedef struct bl_patterns bl_patterns;

bl_patterns *bl_patterns_new(void);
void bl_patterns_free(bl_patterns *p);

/* Returns 0 when the file loaded, 1 when it had errors (then it is not used). */
int bl_patterns_load_file(bl_patterns *p, const char *path, bl_parse_out *errs);
/* Loads every *.pat file of a folder in name order; a missing folder is no error. */
int bl_patterns_load_dir(bl_patterns *p, const char *dir, bl_parse_out *errs);
/* The per-user folder: $XDG_CONFIG_HOME/benchlog/patterns, else ~/.config/benchlog/patterns.
 * Caller frees; NULL when neither variable is set. */
char *bl_patterns_user_dir(void);

size_t bl_patterns_count(const bl_patterns *p);
/* A format entry for pattern i: name, summary and family (probe and parse are NULL; use
 * the functions below). Owned by the set. */
const bl_format *bl_patterns_format(const bl_patterns *p, size_t i);
int bl_patterns_probe(const bl_patterns *p, size_t i, const bl_text *t);
void bl_patterns_parse(const bl_patterns *p, size_t i, const bl_text *t, bl_parse_out *out);

#endif
