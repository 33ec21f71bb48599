/* The page's Sources table and language, gathered as the records are walked. */
#include "../core/strbuf.h"
#include "../compare/fmt.h"
#include "page.h"
#include <stdlib.h>
#include <string.h>

/* The run read so far as a row: file, run, least line, tool, records, shared labels. */
static void finish_run(bl_page_recs *p)
{
    const bl_run_digest *d = &p->run;
    const bl_record *r = d->head;
    if (!r)
        return;
    bl_strbuf *out = &p->rows;
    bl_strbuf_puts(out, "<tr><th title=\"");
    bl_page_esc(out, r->source ? r->source : "");
    bl_strbuf_puts(out, "\">");
    bl_page_esc(out, bl_basename(r->source ? r->source : ""));
    bl_strbuf_printf(out, "</th><td>%lld</td><td>", (long long)r->run);
    if (d->line > 0)
        bl_strbuf_printf(out, "%lld", (long long)d->line);
    bl_strbuf_puts(out, "</td><td>");
    bl_page_esc(out, r->tool ? r->tool : "");
    bl_strbuf_printf(out, "</td><td>%zu</td><td>", d->n);
    for (size_t k = 0; k < r->n_labels; k++) {
        if (!d->same[k])
            continue;
        bl_page_esc(out, r->labels[k].key);
        bl_strbuf_putc(out, '=');
        bl_page_esc(out, r->labels[k].value);
        bl_strbuf_puts(out, k + 1 < r->n_labels ? "; " : "");
    }
    bl_strbuf_puts(out, "</td></tr>\n");
    p->runs++;
    bl_run_digest_clear(&p->run);
}

void bl_page_recs_add(bl_page_recs *p, const bl_record *r)
{
    for (size_t k = 0; k < r->n_labels; k++)
        bl_page_lang_of(r->labels[k].value, &p->kana, &p->han, &p->hangul);
    if (bl_run_digest_other(&p->run, r))
        finish_run(p);
    bl_run_digest_add(&p->run, r);
}

void bl_page_put_sources(bl_page_recs *p, bl_strbuf *out)
{
    finish_run(p);
    bl_strbuf_printf(out,
                     "<details class=\"sources\"><summary><h2 style=\"display:inline\">Sources: "
                     "%zu run%s</h2></summary>\n<table class=\"src\"><thead><tr><th>File</th>"
                     "<th>Run</th><th>Line</th><th>Tool</th><th>Records</th><th>Labels</th>"
                     "</tr></thead><tbody>\n",
                     p->runs, p->runs == 1 ? "" : "s");
    if (p->rows.len)
        bl_strbuf_putn(out, p->rows.s, p->rows.len);
    bl_strbuf_puts(out, "</tbody></table></details>\n");
}

void bl_page_recs_free(bl_page_recs *p)
{
    bl_run_digest_clear(&p->run);
    bl_strbuf_free(&p->rows);
    memset(p, 0, sizeof *p);
}
