/* One run of records as a walk brings them (a run's records follow one another): its head
 * (source, run, tool, labels), how many records, the least line, and which of the head's
 * labels every record shares. What the HTML page's and the PDF's Sources list of each run,
 * gathered without holding the run's records. */
#ifndef BL_COMPARE_RUN_DIGEST_H
#define BL_COMPARE_RUN_DIGEST_H

#include "../core/record.h"
#include <stddef.h>
#include <stdint.h>

typedef struct {
    bl_record *head;     /* source, run, tool and labels of the run's first record; NULL: none */
    size_t n;            /* its records */
    int64_t line;        /* their least line, -1 when none has one */
    unsigned char *same; /* same[k]: every record has head's label k with its value */
} bl_run_digest;

/* Whether r belongs to another run than the one d holds (0 when d holds none). */
int bl_run_digest_other(const bl_run_digest *d, const bl_record *r);
/* Adds r to d's run (its first record starts it). */
void bl_run_digest_add(bl_run_digest *d, const bl_record *r);
/* Empties d (for the next run, or at the end). */
void bl_run_digest_clear(bl_run_digest *d);

#endif
