#include "filter.h"
#include "fields.h"
#include "strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool bl_is_run_id(const char *text)
{
    size_t n = strspn(text, "0123456789abcdef");
    return n == BL_RUN_ID_LEN && text[n] == 0;
}

int bl_filter_add(bl_filter *f, const char *text, char *err, size_t errlen)
{
    if (bl_is_run_id(text)) {
        f->t = bl_xrealloc(f->t, (f->n + 1) * sizeof *f->t);
        f->t[f->n++] = (bl_filter_term){bl_xstrdup("run"), '=', bl_xstrdup(text)};
        return 0;
    }
    const char *op = strpbrk(text, "=~");
    if (!op || op == text || (op == text + 1 && text[0] == '!')) {
        snprintf(err, errlen, "filter '%s' is not KEY=VALUE, KEY!=VALUE, KEY~TEXT or a run ID",
                 text);
        return -1;
    }
    size_t klen = (size_t)(op - text);
    char c = *op;
    if (c == '=' && op[-1] == '!') {
        c = '!';
        klen--;
    }
    f->t = bl_xrealloc(f->t, (f->n + 1) * sizeof *f->t);
    f->t[f->n++] = (bl_filter_term){bl_xstrndup(text, klen), c, bl_xstrdup(op + 1)};
    return 0;
}

void bl_filter_add_hint(bl_filter *f, const char *text)
{
    f->t = bl_xrealloc(f->t, (f->n + 1) * sizeof *f->t);
    f->t[f->n++] = (bl_filter_term){bl_xstrdup(""), 'h', bl_xstrdup(text)};
}

void bl_filter_free(bl_filter *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->t[i].key);
        free(f->t[i].value);
    }
    free(f->t);
    f->t = NULL;
    f->n = 0;
}

const char *bl_record_field_text(const bl_record *r, const char *key, char *buf, size_t n)
{
    const bl_field *f = bl_field_find(key);
    if (f && bl_field_is_scalar(f))
        return bl_field_text(f, r, buf, n);
    return bl_record_label(r, key);
}

static bool value_match(const bl_filter_term *t, const char *v)
{
    switch (t->op) {
    case '=':
        return v && strcmp(v, t->value) == 0;
    case '!':
        return !v || strcmp(v, t->value) != 0;
    default:
        return v && strcasestr(v, t->value) != NULL;
    }
}

static bool term_match(const bl_filter_term *t, const bl_record *r)
{
    char buf[64];
    if (strncmp(t->key, "label.", 6) == 0)
        return value_match(t, bl_record_label(r, t->key + 6));
    return value_match(t, bl_record_field_text(r, t->key, buf, sizeof buf));
}

bool bl_filter_match_run(const bl_filter *f, const bl_record *r, const char *run_id)
{
    if (!f)
        return true;
    int run_terms = 0, run_hit = 0;
    for (size_t i = 0; i < f->n; i++) {
        const bl_filter_term *t = &f->t[i];
        if (t->op == 'h')
            continue; /* a hint for the store, not a term */
        if (run_id && strcmp(t->key, "run") == 0 && t->op == '=') {
            run_terms++;
            run_hit |= strcmp(run_id, t->value) == 0;
        } else if (run_id && strcmp(t->key, "run") == 0) {
            if (!value_match(t, run_id))
                return false;
        } else if (!term_match(t, r)) {
            return false;
        }
    }
    return !run_terms || run_hit;
}

bool bl_filter_match(const bl_filter *f, const bl_record *r)
{
    return bl_filter_match_run(f, r, NULL);
}
