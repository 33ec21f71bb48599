/* What a command tells, and where: its result on stdout (a line a stored source, or JSON
 * Lines under --json, for scripts), notes on stderr that -q silences (errors are printed by
 * the command itself, always). One place so that import and run say the same, and every
 * note obeys -q. */
#ifndef BL_CLI_SAY_H
#define BL_CLI_SAY_H

#include "../core/diag.h"
#include <stddef.h>
#include <stdint.h>

/* One source's result line on stdout. status: "imported" or "stored" (records went into the
 * store), "skipped" (its content was there: the stored runs) or "refused" (nothing stored,
 * errors already on stderr; written under --json only). ids: run IDs separated by spaces.
 * JSON: {"source","status","records","runs":[...]}; text: none under -q. */
void bl_say_result(int json, const char *source, const char *status, size_t n_records,
                   const char *ids);

/* "benchlog CMD: ..." on stderr unless -q: a note, not an error. */
void bl_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A store upgrade's progress (core/store.h's bl_store_progress_fn, registered by main):
 * nothing for a store under 20,000 records (it takes under a second) or under -q; on a
 * terminal one line rewritten as it goes, else a line when it starts and one when done. */
void bl_say_store_progress(const char *path, const char *what, int64_t done, int64_t total);
/* A library's notes (core/diag.h), each "SOURCE: message", unless -q. */
void bl_notes_print(const bl_diags *d);

#endif
