/* libFuzzer target: report --md (report/render.c through core/escape.h) on strings from the
 * input. Oracle: the table keeps its shape (a header, its rule and one line a test, each with
 * the same number of cell ends), and nothing in it is Markdown or HTML benchlog did not write:
 * no '<', no unescaped \ ` * [ ] ~ |, no '_' but between letters, '&' only in an entity. */
#include "../../report/render.h"
#include "fuzz_out.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The number of cell ends of a table line; aborts on markup benchlog did not write. */
static size_t check_line(const char *s, const char *e)
{
    size_t bars = 0;
    for (const char *p = s; p < e; p++) {
        char c = *p;
        if (c == '\\') {
            if (p + 1 >= e || !strchr("\\`*_[]~|", p[1]))
                abort(); /* a backslash of the text itself is escaped */
            p++;
        } else if (c == '|') {
            bars++;
        } else if (c == '<' || c == '>' || c == '"' || c == '\n' || c == '\r' || c == '`' ||
                   c == '*' || c == '[' || c == ']' || c == '~') {
            abort();
        } else if (c == '_' && !(p > s && alnum(p[-1]) && p + 1 < e && alnum(p[1]))) {
            abort();
        } else if (c == '&') {
            static const char *const ent[] = {"&amp;", "&lt;", "&gt;", "&quot;"};
            int ok = 0;
            for (int k = 0; k < 4; k++)
                ok |= (size_t)(e - p) >= strlen(ent[k]) && !memcmp(p, ent[k], strlen(ent[k]));
            if (!ok && p + 2 < e && p[1] == '#') {
                const char *q = p + 2;
                while (q < e && *q >= '0' && *q <= '9')
                    q++;
                ok = q > p + 2 && q < e && *q == ';';
            }
            if (!ok)
                abort();
        }
    }
    return bars;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_out f;
    if (fuzz_out_init(&f, data, size) != 0) {
        fuzz_out_free(&f);
        return 0;
    }
    static const bl_metric ms[] = {BL_M_BW, BL_M_P99};
    bl_report_opts o = {.format = BL_REPORT_MD, .title = f.s[FZ_TITLE], .lat = 1};
    if (f.h & 1) {
        o.metrics = ms;
        o.n_metrics = 2;
    }
    bl_strbuf out;
    bl_strbuf_init(&out);
    bl_report_render(f.t, &o, &out);
    const char *p = out.s;
    /* "## TITLE" */
    const char *nl = strchr(p, '\n');
    if (strncmp(p, "## ", 3) != 0 || !nl || nl[1] != '\n')
        abort();
    check_line(p + 3, nl);
    p = nl + 2;
    size_t lines = 0, bars = 0;
    while (*p == '|') {
        nl = strchr(p, '\n');
        if (!nl)
            abort();
        size_t b = check_line(p, nl);
        if (lines && b != bars)
            abort();
        bars = b;
        lines++;
        p = nl + 1;
    }
    if (lines != 2 + f.t->nrows || *p != '\n')
        abort();
    if (strchr(out.s, '<'))
        abort();
    bl_strbuf_free(&out);
    fuzz_out_free(&f);
    return 0;
}
