/* `benchlog compare`'s two sides, folded as the store is walked (fine.h) and never held as
 * records: each side's records matching its FILTER terms, labelled compare=ARG, into one set of
 * fine groups (A's records first, as one list would have them), then the table by "compare".
 * A side given as run IDs is named by the labels its records share and the other side's do not
 * ("column=10 GbE"), as a run ID says nothing to the reader. Memory holds the groups (and a
 * median's values, as doubles), the labels of each side's first record and its sources. */
#ifndef BL_COMPARE_SIDES_H
#define BL_COMPARE_SIDES_H

#include "table.h"
#include <stddef.h>

typedef struct bl_sides bl_sides;

/* keep: keep each value (--repeats median or all). */
bl_sides *bl_sides_new(int keep);
/* Walks side (0 A, 1 B, in that order) of the store db: the records matching terms, labelled
 * compare=arg; *nsources: the distinct sources they came from. Returns as bl_report_load
 * (load.h), err saying why. */
int bl_sides_walk(bl_sides *s, const char *db, int side, const char *arg, int nterms, char **terms,
                  size_t *nsources, char *err, size_t errlen);
/* The table of both sides (o->by is "compare"), each side named as said above when both get a
 * name and they differ; NULL with err as bl_table_build. */
bl_table *bl_sides_table(bl_sides *s, const bl_table_opts *o, char *err, size_t errlen);
/* A name for side given as arg against the other side's, as above; NULL when arg is a FILTER
 * term or no label tells the sides apart. Caller frees. */
char *bl_sides_name(const bl_sides *s, int side);
void bl_sides_free(bl_sides *s);

#endif
