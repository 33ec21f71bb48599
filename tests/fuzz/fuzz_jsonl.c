/* libFuzzer target: the JSON Lines reader, and the writer on whatever it accepted (a record
 * read back must serialise and read again to the same text). */
#include "../../core/jsonl.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bl_record *r = bl_record_from_json((const char *)data, size, NULL, 0);
    if (!r)
        return 0;
    bl_strbuf a, b;
    bl_strbuf_init(&a);
    bl_strbuf_init(&b);
    bl_record_to_json(r, &a);
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
