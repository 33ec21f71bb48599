/* A string -> index map (open addressing, FNV-1a hash): rows, columns and runs are looked up
 * once per record, and a 100,000-record store may hold thousands of runs. Keys are borrowed:
 * their owner keeps them alive while the map is used. Zero-initialise, then bl_smap_put. */
#ifndef BL_COMPARE_SMAP_H
#define BL_COMPARE_SMAP_H

#include <stddef.h>

typedef struct bl_smap {
    size_t cap, n;
    const char **k;
    size_t *v;
} bl_smap;

void bl_smap_put(bl_smap *m, const char *k, size_t v);
/* The value of k, or -1. */
long bl_smap_get(const bl_smap *m, const char *k);
void bl_smap_free(bl_smap *m);

#endif
