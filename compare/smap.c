#include "smap.h"
#include "../core/strbuf.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void grow(bl_smap *m)
{
    bl_smap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->n = 0;
    m->k = bl_xcalloc(m->cap, sizeof *m->k);
    m->v = bl_xcalloc(m->cap, sizeof *m->v);
    for (size_t i = 0; i < old.cap; i++)
        if (old.k[i])
            bl_smap_put(m, old.k[i], old.v[i]);
    free(old.k);
    free(old.v);
}

void bl_smap_put(bl_smap *m, const char *k, size_t v)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    size_t i = hash(k) & (m->cap - 1);
    while (m->k[i])
        i = (i + 1) & (m->cap - 1);
    m->k[i] = k;
    m->v[i] = v;
    m->n++;
}

long bl_smap_get(const bl_smap *m, const char *k)
{
    if (!m->cap)
        return -1;
    size_t i = hash(k) & (m->cap - 1);
    for (; m->k[i]; i = (i + 1) & (m->cap - 1))
        if (strcmp(m->k[i], k) == 0)
            return (long)m->v[i];
    return -1;
}

void bl_smap_free(bl_smap *m)
{
    free(m->k);
    free(m->v);
}
