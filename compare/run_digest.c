#include "run_digest.h"
#include "../core/strbuf.h"
#include <stdlib.h>
#include <string.h>

static const char *src_of(const bl_record *r)
{
    return r->source ? r->source : "";
}

int bl_run_digest_other(const bl_run_digest *d, const bl_record *r)
{
    return d->head && (d->head->run != r->run || strcmp(src_of(d->head), src_of(r)) != 0);
}

void bl_run_digest_add(bl_run_digest *d, const bl_record *r)
{
    if (!d->head) {
        d->head = bl_record_new();
        bl_record_set_str(&d->head->source, r->source);
        bl_record_set_str(&d->head->tool, r->tool);
        d->head->run = r->run;
        for (size_t k = 0; k < r->n_labels; k++)
            bl_record_set_label(d->head, r->labels[k].key, r->labels[k].value);
        d->same = bl_xmalloc(r->n_labels + 1);
        memset(d->same, 1, r->n_labels + 1);
        d->n = 0;
        d->line = -1;
    } else {
        for (size_t k = 0; k < d->head->n_labels; k++) {
            const char *v = d->same[k] ? bl_record_label(r, d->head->labels[k].key) : NULL;
            d->same[k] = v && strcmp(v, d->head->labels[k].value) == 0;
        }
    }
    d->n++;
    if (r->line > 0 && (d->line < 0 || r->line < d->line))
        d->line = r->line;
}

void bl_run_digest_clear(bl_run_digest *d)
{
    bl_record_free(d->head);
    free(d->same);
    memset(d, 0, sizeof *d);
}
