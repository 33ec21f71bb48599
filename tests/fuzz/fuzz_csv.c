/* libFuzzer target: export --csv's direct reading of stored JSON text (core/csv.h) against
 * the decoder: where the decoder reads a record, the row must be the decoded record's row;
 * where it refuses the text, no row. */
#include "../../core/csv.h"
#include "../../core/jsonl.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bl_strbuf direct, decoded;
    bl_strbuf_init(&direct);
    bl_strbuf_init(&decoded);
    int rc = bl_csv_row_json(&direct, (const char *)data, size);
    bl_record *r = bl_record_from_json((const char *)data, size, NULL, 0);
    if (r) {
        bl_csv_row(&decoded, r);
        if (rc != 0 || direct.len != decoded.len || memcmp(direct.s, decoded.s, direct.len) != 0)
            abort();
    } else if (rc != -1 || direct.len != 0) {
        abort();
    }
    bl_record_free(r);
    bl_strbuf_free(&direct);
    bl_strbuf_free(&decoded);
    return 0;
}
