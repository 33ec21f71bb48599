/* When a run ran: the record's `when` (UTC, ISO 8601 "2026-12-02T12:28:07Z", so that text
 * order is time order) and `when_from`, where that time came from:
 *   text   the output's own time (fio's job header and JSON, CrystalDiskMark's Date: line,
 *          DiskSpd's "start time: 2026/12/04 17:00:00 UTC")
 *   run    the start of `benchlog run`
 *   given  import --when TIME
 *   file   the file's modification time
 *   import the time it was imported (records stored before `when` existed)
 * Times without a zone (fio's "Wed Dec  2 12:28:07 2026", "2021/06/27 17:28:12") are local
 * times of the process reading them (TZ), as the tools print the local time of theirs. */
#ifndef BL_WHEN_H
#define BL_WHEN_H

#include "record.h"
#include <stddef.h>
#include <time.h>

#define BL_WHEN_LEN 21 /* "2026-12-02T12:28:07Z" + NUL */

/* Reads "2026-12-02T12:28:07Z", "2026-12-02 12:28[:07][+01:00| UTC]", "2026-12-02",
 * "2021/06/27 17:28:12", "Wed Dec  2 12:28:07 2026" or "@1680135576" (seconds since the
 * epoch), surrounding blanks allowed; 0 and *t on success, -1 for anything else. */
int bl_when_parse(const char *s, time_t *t);
/* t as "2026-12-02T12:28:07Z" into buf (BL_WHEN_LEN bytes). */
void bl_when_format(time_t t, char *buf);
/* Sets r's when to t and when_from to from. */
void bl_when_set(bl_record *r, time_t t, const char *from);
/* r's when as seconds since the epoch; -1 when it has none (or not one this reads). */
int bl_when_get(const bl_record *r, time_t *t);
/* A record without a time takes the one of its "date" label (what the parser read from the
 * text) when that is a time bl_when_parse reads; when_from "text". */
void bl_when_from_date_label(bl_record *r);
/* The last "date" label read and the time it gave, so that the records of one run (and of
 * runs started the same second) are not read and printed again each: start zeroed. */
typedef struct bl_when_cache {
    char date[48]; /* the label; "" when none is held (a longer one is not held) */
    char when[BL_WHEN_LEN];
    int ok; /* whether bl_when_parse read it */
} bl_when_cache;
/* bl_when_from_date_label through c: the same result. */
void bl_when_from_date_label_cached(bl_record *r, bl_when_cache *c);

#endif
