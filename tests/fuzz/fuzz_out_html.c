/* libFuzzer target: the HTML page (report/page.c, with its sources list and inline charts)
 * on strings from the input. Oracle: libxml2's HTML parser finds only the elements the page
 * writes, its one <script>, and no event handler or outside link (fuzz_xml.h). */
#include "../../report/page.h"
#include "fuzz_out.h"
#include "fuzz_xml.h"
#include <libxml/HTMLparser.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static const char *const page_elements[] = {
    "html",   "head",  "meta",  "title",  "style",   "body",   "h1",      "h2",
    "h3",     "p",     "div",   "label",  "select",  "option", "details", "summary",
    "span",   "input", "table", "thead",  "tbody",   "tr",     "th",      "td",
    "button", "sub",   "b",     "footer", "section", "svg",    "g",       "rect",
    "text",   "path",  "line",  "script", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_out f;
    if (fuzz_out_init(&f, data, size) != 0) {
        fuzz_out_free(&f);
        return 0;
    }
    bl_strbuf out;
    bl_strbuf_init(&out);
    bl_page_opts o = {.title = f.s[FZ_TITLE], .charts = 1, .metric = (f.h & 1) ? BL_M_P99 : -1};
    bl_page_html(f.t, &f.recs, &o, &out);
    htmlDocPtr doc = htmlReadMemory(out.s, (int)out.len, "fuzz.html", "UTF-8",
                                    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    if (!doc)
        abort();
    size_t scripts = 0;
    fx_walk(xmlDocGetRootElement(doc), page_elements, &scripts);
    if (scripts != 1)
        abort(); /* the page's own script, no other */
    xmlFreeDoc(doc);
    bl_strbuf_free(&out);
    fuzz_out_free(&f);
    return 0;
}
