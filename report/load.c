#include "load.h"
#include "../core/filter.h"
#include "../core/store.h"
#include <stdio.h>

int bl_report_load(const char *db, int nterms, char **terms, bl_records *out, char *err,
                   size_t errlen)
{
    bl_filter f = {0};
    for (int i = 0; i < nterms; i++) {
        if (bl_filter_add(&f, terms[i], err, errlen) != 0) {
            bl_filter_free(&f);
            return 2;
        }
    }
    bl_store *s = bl_store_open_existing(db, err, errlen);
    int rc = 1;
    if (s) {
        rc = bl_store_query(s, &f, out, err, errlen) == 0 ? 0 : 1;
        bl_store_close(s);
        if (rc == 0 && out->n == 0) {
            snprintf(err, errlen, "no stored record matches");
            rc = 1;
        }
    }
    bl_filter_free(&f);
    return rc;
}
