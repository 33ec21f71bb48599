/* Small lookups shared by the bonnie++/CDM/blog tests (header-only, static). */
#ifndef BL_FORMATS_UTIL_H
#define BL_FORMATS_UTIL_H

#include "../parsers/parser.h"
#include <string.h>

/* The i-th record with this test name whose label key equals value (key NULL: any). */
static inline const bl_record *fu_find(const bl_parse_out *o, const char *test, const char *key,
                                       const char *value, size_t i)
{
    for (size_t k = 0; k < o->recs.n; k++) {
        const bl_record *r = o->recs.v[k];
        if (test && (!r->test || strcmp(r->test, test) != 0))
            continue;
        if (key) {
            const char *v = bl_record_label(r, key);
            if (!v || strcmp(v, value) != 0)
                continue;
        }
        if (i-- == 0)
            return r;
    }
    return NULL;
}

/* Records whose tool is tool (NULL: any) and label key equals value (key NULL: any). */
static inline size_t fu_count(const bl_parse_out *o, const char *tool, const char *key,
                              const char *value)
{
    size_t n = 0;
    for (size_t k = 0; k < o->recs.n; k++) {
        const bl_record *r = o->recs.v[k];
        if (tool && (!r->tool || strcmp(r->tool, tool) != 0))
            continue;
        if (key) {
            const char *v = bl_record_label(r, key);
            if (!v || strcmp(v, value) != 0)
                continue;
        }
        n++;
    }
    return n;
}

/* Distinct run numbers among the records of tool. */
static inline size_t fu_runs(const bl_parse_out *o, const char *tool)
{
    size_t n = 0;
    for (size_t k = 0; k < o->recs.n; k++) {
        const bl_record *r = o->recs.v[k];
        if (tool && (!r->tool || strcmp(r->tool, tool) != 0))
            continue;
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++) {
            const bl_record *q = o->recs.v[j];
            seen = q->run == r->run && (!tool || (q->tool && strcmp(q->tool, tool) == 0));
        }
        n += !seen;
    }
    return n;
}

#endif
