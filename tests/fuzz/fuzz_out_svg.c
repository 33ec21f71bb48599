/* libFuzzer target: the page's inline SVG charts (report/page_svg.c) on strings from the
 * input. Oracle: the SVG parses as XML (libxml2) and holds only the elements and attributes
 * the writer writes (fuzz_xml.h). Chart files (charts/canvas.c) escape their texts with the
 * same core/escape.h function; cairo and pango are too slow to fuzz (a chart a second), so
 * tests/test_escape.c checks a chart file of the hostile strings with libxml2 instead. */
#include "../../report/page.h"
#include "fuzz_out.h"
#include "fuzz_xml.h"
#include <libxml/parser.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static const char *const svg_elements[] = {
    "svg",    "g",        "path", "rect",           "text",           "tspan",    "title",
    "defs",   "clipPath", "use",  "symbol",         "line",           "polyline", "polygon",
    "circle", "ellipse",  "mask", "linearGradient", "radialGradient", "stop",     "pattern",
    "style",  NULL};

static void check_svg(const char *s, size_t len)
{
    xmlDoc *doc = xmlReadMemory(s, (int)len, "fuzz.svg", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc)
        abort(); /* no well-formed XML */
    size_t scripts = 0;
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || strcmp((const char *)root->name, "svg") != 0)
        abort();
    fx_walk(root, svg_elements, &scripts);
    if (scripts)
        abort();
    xmlFreeDoc(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_out f;
    if (fuzz_out_init(&f, data, size) != 0) {
        fuzz_out_free(&f);
        return 0;
    }
    bl_strbuf out;
    bl_strbuf_init(&out);
    static const bl_metric ms[] = {BL_M_BW, BL_M_LAT, BL_M_VALUE};
    for (int k = 0; k < 3; k++) {
        bl_strbuf_reset(&out);
        if (bl_page_svg_chart(f.t, ms[k], &out))
            check_svg(out.s, out.len);
    }
    bl_strbuf_free(&out);
    fuzz_out_free(&f);
    return 0;
}
