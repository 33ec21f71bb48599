/* What a command tells, and where: its result on stdout (a line a stored source, or JSON
 * Lines under --json, for scripts), notes on stderr that -q silences (errors are printed by
 * the command itself, always). One place so that import and run say the same, and every
 * note obeys -q. */
#ifndef BL_CLI_SAY_H
#define BL_CLI_SAY_H

#include "../core/diag.h"
#include <stddef.h>

/* One source's result line on stdout. status: "imported" or "stored" (records went into the
 * store), "skipped" (its content was there: the stored runs) or "refused" (nothing stored,
 * errors already on stderr; written under --json only). ids: run IDs separated by spaces.
 * JSON: {"source","status","records","runs":[...]}; text: none under -q. */
void bl_say_result(int json, const char *source, const char *status, size_t n_records,
                   const char *ids);

/* "benchlog CMD: ..." on stderr unless -q: a note, not an error. */
void bl_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A library's notes (core/diag.h), each "SOURCE: message", unless -q. */
void bl_notes_print(const bl_diags *d);

#endif
