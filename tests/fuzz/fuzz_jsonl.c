/* libFuzzer target: the JSON Lines reader, and the writer on whatever it accepted (a record
 * read back must serialise and read again to the same text). The fast reader
 * (core/record_decode.h) must answer as jansson's path does wherever it answers: never a
 * record jansson refuses, never a different one. */
#include "../../core/jsonl.h"
#include "../../core/record_decode.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fast_is_dom(const char *text, size_t len)
{
    bl_record *fast = bl_record_decode_fast(text, len);
    if (!fast)
        return;
    bl_record *dom = bl_record_from_json_dom(text, len, NULL, 0);
    if (!dom)
        abort();
    bl_strbuf a, b;
    bl_strbuf_init(&a);
    bl_strbuf_init(&b);
    bl_record_to_json(dom, &a);
    bl_record_to_json(fast, &b);
    if (strcmp(a.s, b.s) != 0)
        abort();
    bl_strbuf_free(&a);
    bl_strbuf_free(&b);
    bl_record_free(dom);
    bl_record_free(fast);
}

/* the store's per-row labels (core/store_query.c): fast, or jansson's reading of
 * {"labels":TEXT} */
static void labels_are_dom(const char *text, size_t len)
{
    bl_record *fast = bl_labels_decode_fast(text, len);
    if (!fast)
        return;
    bl_strbuf w;
    bl_strbuf_init(&w);
    bl_strbuf_puts(&w, "{\"labels\":");
    bl_strbuf_putn(&w, text, len);
    bl_strbuf_putc(&w, '}');
    bl_record *dom = bl_record_from_json_dom(w.s, w.len, NULL, 0);
    if (!dom || dom->n_labels != fast->n_labels)
        abort();
    for (size_t i = 0; i < dom->n_labels; i++)
        if (strcmp(dom->labels[i].key, fast->labels[i].key) != 0 ||
            strcmp(dom->labels[i].value, fast->labels[i].value) != 0)
            abort();
    bl_record_free(dom);
    bl_record_free(fast);
    bl_strbuf_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fast_is_dom((const char *)data, size);
    labels_are_dom((const char *)data, size);
    bl_record *r = bl_record_from_json((const char *)data, size, NULL, 0);
    if (!r)
        return 0;
    bl_strbuf a, b;
    bl_strbuf_init(&a);
    bl_strbuf_init(&b);
    bl_record_to_json(r, &a);
    fast_is_dom(a.s, a.len);
    bl_record *again = bl_record_from_json(a.s, a.len, NULL, 0);
    if (!again)
        abort();
    bl_record_to_json(again, &b);
    if (strcmp(a.s, b.s) != 0)
        abort();
    bl_record_free(again);
    bl_record_free(r);
    bl_strbuf_free(&a);
    bl_strbuf_free(&b);
    return 0;
}
