/* libFuzzer target: the CSV writers (report --csv, with and without --metric, through
 * report/csv.c; export --csv's rows, core/csv.c) on strings from the input. Oracle, reading
 * the output as RFC 4180: every row has the header's number of fields, and no field begins
 * with = + - @ tab or CR unless it is a finite number (one the writer produced). */
#include "../../core/csv.h"
#include "../../report/render.h"
#include "fuzz_out.h"
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_field(const char *v, size_t n)
{
    if (n == 0 || !strchr("=+-@\t\r", v[0]))
        return;
    char buf[64];
    if (n >= sizeof buf)
        abort();
    memcpy(buf, v, n);
    buf[n] = 0;
    char *end;
    double d = strtod(buf, &end);
    if (*end || !isfinite(d))
        abort(); /* a formula, or an infinity the writer should never print */
}

/* Fields of each row; aborts on a malformed quote or a row of another width. */
static void check_csv(const char *s, size_t len)
{
    bl_strbuf field;
    bl_strbuf_init(&field);
    size_t want = 0, fields = 0, rows = 0;
    const char *p = s, *e = s + len;
    while (p < e) {
        bl_strbuf_reset(&field);
        if (*p == '"') {
            for (p++;; p++) {
                if (p >= e)
                    abort(); /* unterminated quote */
                if (*p == '"' && p + 1 < e && p[1] == '"') {
                    bl_strbuf_putc(&field, '"');
                    p++;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    bl_strbuf_putc(&field, *p);
                }
            }
            /* a quoted field was written as text: its first character is checked as well */
        } else {
            while (p < e && *p != ',' && *p != '\n') {
                if (*p == '"' || *p == '\r')
                    abort(); /* a quote or CR in an unquoted field */
                bl_strbuf_putc(&field, *p++);
            }
        }
        check_field(field.s ? field.s : "", field.len);
        fields++;
        if (p < e && *p == ',') {
            p++;
            continue;
        }
        if (p >= e || *p != '\n')
            abort(); /* text after a closing quote, or no line end */
        p++;
        if (rows++ == 0)
            want = fields;
        else if (fields != want)
            abort();
        fields = 0;
    }
    bl_strbuf_free(&field);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_out f;
    if (fuzz_out_init(&f, data, size) != 0) {
        fuzz_out_free(&f);
        return 0;
    }
    static const bl_metric ms[] = {BL_M_BW, BL_M_IOPS, BL_M_VALUE};
    bl_strbuf out;
    bl_strbuf_init(&out);
    for (int form = 0; form < 2; form++) {
        bl_report_opts o = {.format = BL_REPORT_CSV, .lat = 1};
        if (form) {
            o.metrics = ms;
            o.n_metrics = 3;
        }
        bl_strbuf_reset(&out);
        bl_report_render(f.t, &o, &out);
        check_csv(out.s, out.len);
    }
    bl_strbuf_reset(&out);
    bl_csv_header(&out);
    for (size_t i = 0; i < f.recs.n; i++)
        bl_csv_row(&out, f.recs.v[i]);
    check_csv(out.s, out.len);
    bl_strbuf_free(&out);
    fuzz_out_free(&f);
    return 0;
}
