/* The self-contained page (page.h): its structure, CSS and script. The metric choice works
 * through one attribute on <body> (data-metric) that the CSS reads, so the page shows the
 * main figures without its script; the script sorts, hides set-ups and switches metrics. */
#include "page.h"
#include "page_history.h"
#include "../charts/canvas.h"
#include "../core/escape.h"
#include "../compare/diff.h"
#include "../compare/fmt.h"
#include "../compare/group.h"
#include "render.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bl_page_esc(bl_strbuf *out, const char *s)
{
    bl_esc_xml(out, s);
}

static const char css[] =
    "body{font-family:system-ui,'Noto Sans CJK JP','Noto Sans',sans-serif;margin:1.5rem;"
    "color:#1d2330;background:#fff;line-height:1.4}\n"
    "h1{font-size:1.4rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}\n"
    "p.meta,p.what,footer{color:#5b6475;font-size:.88rem;max-width:60rem}\n"
    ".controls{display:flex;flex-wrap:wrap;gap:.6rem 1.4rem;align-items:flex-start;"
    "margin:.8rem 0}\n"
    ".controls details{max-width:100%}.controls summary{cursor:pointer}\n"
    ".setups{display:flex;flex-wrap:wrap;gap:.2rem .9rem;margin:.4rem 0;font-size:.85rem}\n"
    ".sw{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.3em}\n"
    ".scroll{overflow:auto;max-height:75vh;border:1px solid #e3e6ec;max-width:100%}\n"
    "table{border-collapse:separate;border-spacing:0;font-size:.88rem}\n"
    "th,td{padding:.3rem .6rem;border-bottom:1px solid #e3e6ec;white-space:nowrap;"
    "background:#fff}\n"
    "thead th{position:sticky;top:0;z-index:2;background:#f3f5f9;vertical-align:bottom;"
    "white-space:normal;min-width:7rem;max-width:14rem;text-align:right}\n"
    "th:first-child{position:sticky;left:0;z-index:1;text-align:left;background:#f8f9fb;"
    "border-right:1px solid #e3e6ec}\n"
    "thead th:first-child{z-index:3}\n"
    "th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;"
    "text-align:inherit;color:inherit}\n"
    "td{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td sub{color:#5b6475;font-size:.72em;margin-left:.2em}\n"
    "td .flag,text.flag{color:#c0392b;fill:#c0392b;font-weight:600}\n"
    "td .ratio{color:#5b6475;font-size:.85em}\n"
    ".m{display:none}.chart{display:none}.off,.gone{display:none}table.long{display:none}\n"
    "svg.bars{width:100%;max-width:760px;height:auto;font-size:14px}\n"
    "table.keys{font-size:.85rem;margin:.4rem 0}table.keys "
    "th{text-align:left;min-width:0;width:3rem;"
    "white-space:nowrap;position:static;background:none;border:0}table.keys td{text-align:left;"
    "white-space:normal;overflow-wrap:anywhere;border:0}\n"
    "svg .test{font-weight:600;font-size:15px}svg .ci{stroke:#1d2330;stroke-width:1.2;"
    "fill:none}\n"
    "svg text{fill:#1d2330}svg text.v{fill:#5b6475}svg text.v.flag{fill:#c0392b}\n"
    "table.src td{text-align:left;white-space:normal}\n"
    "nav.groups{max-height:9.5rem;overflow:auto;overflow-wrap:anywhere;border:1px solid "
    "#e3e6ec;padding:.2rem .6rem;"
    "font-size:.85rem;max-width:60rem}nav.groups ol{margin:0;padding-left:2.2rem}"
    "nav.groups .cnt{color:#5b6475}section.group{border-top:2px solid #1d2330;margin-top:1.2rem}"
    "section.group h2{overflow-wrap:anywhere}"
    "#gfilter{font:inherit;padding:.15rem .4rem;min-width:14rem;max-width:100%}\n"
    "@media (max-width:640px){body{margin:.6rem}.scroll{max-height:65vh}"
    "thead th{min-width:5.5rem}"
    "th:first-child{white-space:normal;min-width:6rem;max-width:7rem;"
    "font-size:.8rem}}\n"
    "@media print{.controls,.noprint,.scroll{display:none}table.long{display:table;"
    "font-size:8pt;width:100%}table.long td{white-space:normal;text-align:right}"
    "table.long td:nth-child(2){text-align:left;width:40%}table.long thead "
    "th{min-width:0;white-space:nowrap;"
    "max-width:none;text-align:left}tr.first>*{border-top:1px solid #888}"
    "thead{display:table-header-group}tr,g{break-inside:avoid}"
    "thead th,th:first-child{position:static}body{margin:0}.chart{break-before:page}"
    "details>*{display:block}}\n";

/* The script: sort by any column (by the figure of the metric shown), set-ups on/off, the
 * metric choice, the sources opened for printing. */
static const char js[] =
    "(function(){var b=document.body,t=document.getElementById('cmp'),tb=t.tBodies[0],"
    "dir={};\n"
    "function val(r,k){if(!k)return +r.dataset.i;var s=r.cells[k].querySelector('.m-'+"
    "b.dataset.metric);return s?parseFloat(s.dataset.v):NaN}\n"
    "[].forEach.call(t.tHead.rows[0].cells,function(th,k){var bt=th.querySelector('button');"
    "bt.onclick=function(){var d=dir[k]=dir[k]==1?-1:1,rs=[].slice.call(tb.rows);"
    "rs.sort(function(x,y){var a=val(x,k),c=val(y,k);if(isNaN(a))return isNaN(c)?0:1;"
    "if(isNaN(c))return -1;return d*(a-c)});rs.forEach(function(r){tb.appendChild(r)});"
    "[].forEach.call(t.tHead.rows[0].cells,function(h){h.removeAttribute('aria-sort')});"
    "th.setAttribute('aria-sort',d>0?'ascending':'descending')}});\n"
    "document.getElementById('metric').onchange=function(){b.dataset.metric=this.value};\n"
    "[].forEach.call(document.querySelectorAll('input[data-col]'),function(cb){"
    "cb.onchange=function(){[].forEach.call(document.querySelectorAll('[data-col=\"'+"
    "cb.dataset.col+'\"]:not(input)'),function(e){e.classList.toggle('off',!cb.checked)});"
    "pack()}});\n"
    /* The bars of hidden set-ups leave no gaps: what follows moves up, the chart shrinks. */
    "function pack(){[].forEach.call(document.querySelectorAll('svg.bars'),function(s){"
    "var up=0,bh=+s.dataset.bar;[].forEach.call(s.children,function(e){var r=e.dataset.row;"
    "if(e.classList.contains('test'))e.classList.toggle('off',!s.querySelector("
    "'g[data-row=\"'+r+'\"]:not(.off)'));if(e.classList.contains('off'))up+=r&&!e.dataset."
    "col?+s.dataset.group:bh;else e.setAttribute('transform','translate(0,'+(-up)+')')});var "
    "h=+s.dataset.h-up;s.setAttribute('viewBox','0 0 '+s.viewBox.baseVal."
    "width+' '+h);s.setAttribute('height',h)})}\n"
    /* The filter hides the groups it does not match, and with them their set-ups' columns
     * of the table and the tests none of the columns left has a figure for ('gone', apart
     * from a set-up's own on/off). */
    "var gf=document.getElementById('gfilter');if(gf)gf.oninput=function(){var q=gf.value."
    "toLowerCase(),on={};[].forEach.call(document.querySelectorAll('[data-find]'),function(e)"
    "{var hit=!q||e.dataset.find.indexOf(q)>=0;e.classList.toggle('off',!hit);if(hit)e."
    "dataset.cols.split(' ').forEach(function(c){on[c]=1})});[].forEach.call(t.querySelector"
    "All('[data-col]'),function(e){e.classList.toggle('gone',!on[e.dataset.col])});[].forEach"
    ".call(tb.rows,function(r){var any=0;[].forEach.call(r.cells,function(c,k){if(k&&!c."
    "classList.contains('gone')&&c.textContent.trim())any=1});r.classList.toggle('gone',!any)"
    "})};\n"
    "window.addEventListener('beforeprint',function(){[].forEach.call("
    "document.querySelectorAll('details'),function(d){d.open=true})})})();\n";

/* Japanese when there is kana, else Chinese for ideographs, Korean for hangul, else English:
 * screen readers and CJK font selection follow lang. */
static const char *lang_of(const char *s, int *kana, int *han, int *hangul)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        if ((*p & 0xF0) != 0xE0 || !p[1] || !p[2])
            continue;
        unsigned cp = (unsigned)(p[0] & 0x0F) << 12 | (unsigned)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
        *kana |= (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0xFF66 && cp <= 0xFF9F);
        *han |= cp >= 0x4E00 && cp <= 0x9FFF;
        *hangul |= cp >= 0xAC00 && cp <= 0xD7A3;
    }
    return *kana ? "ja" : *han ? "zh" : *hangul ? "ko" : "en";
}

const char *bl_page_lang_of(const char *s, int *kana, int *han, int *hangul)
{
    return lang_of(s, kana, han, hangul);
}

static const char *page_lang(const bl_table *t, const bl_page_recs *p, const char *title)
{
    int kana = p ? p->kana : 0, han = p ? p->han : 0, hangul = p ? p->hangul : 0;
    const char *lang = lang_of(title, &kana, &han, &hangul);
    for (size_t j = 0; j < t->ncols; j++)
        lang = lang_of(t->cols[j].title, &kana, &han, &hangul);
    return lang;
}

/* Metrics some cell has, in the model's order; returns the count. */
static size_t present_metrics(const bl_table *t, bl_metric *ms)
{
    size_t n = 0;
    for (int m = 0; m < BL_M_COUNT; m++)
        for (size_t i = 0; i < t->nrows; i++)
            if (bl_row_has(t, i, (bl_metric)m)) {
                ms[n++] = (bl_metric)m;
                break;
            }
    return n;
}

static void put_css(bl_strbuf *out, size_t nm)
{
    bl_strbuf_puts(out, css);
    bl_strbuf_puts(out, "[data-metric=main] .m-main,[data-metric=main] .chart");
    for (size_t k = 0; k < nm; k++) {
        /* "p99.9" is no CSS identifier: classes use the metric's index on the page. */
        bl_strbuf_printf(out, ",[data-metric=m%zu] .m-m%zu,[data-metric=m%zu] .c-m%zu", k, k, k, k);
    }
    bl_strbuf_puts(out, "{display:block}\ntd .m{display:none}");
    bl_strbuf_puts(out, "\n[data-metric=main] td .m-main");
    for (size_t k = 0; k < nm; k++)
        bl_strbuf_printf(out, ",[data-metric=m%zu] td .m-m%zu", k, k);
    bl_strbuf_puts(out, "{display:inline}\n");
    for (size_t k = 0; k < nm; k++)
        bl_strbuf_printf(out, "[data-metric=m%zu] #cmp tbody tr:not(.h-m%zu){display:none}\n", k,
                         k);
}

/* One figure of a cell: the display text, data-v for sorting, the repeats on hover. */
static void put_fig(bl_strbuf *out, const bl_table *t, size_t i, size_t j, bl_metric m,
                    const char *cls)
{
    const bl_cell *c = bl_table_cell(t, i, j);
    const bl_stat *s = &c->m[m];
    if (!s->n)
        return;
    bl_strbuf_printf(out, "<span class=\"m %s\" data-v=\"%.17g\" title=\"", cls, s->fig);
    bl_strbuf tip;
    bl_strbuf_init(&tip);
    bl_metric_text(t, i, j, m, &tip);
    if (s->n > 1 && bl_present(s->ci)) {
        bl_strbuf_printf(&tip, "\nn=%zu; 95%% CI of the mean: ", s->n);
        bl_page_fig(&tip, m, s->mean - s->ci, c->unit);
        bl_strbuf_puts(&tip, " – ");
        bl_page_fig(&tip, m, s->mean + s->ci, c->unit);
    }
    if (bl_present(c->flag) && m == bl_row_main(&t->rows[i]))
        bl_strbuf_printf(&tip, "\nimplausible: %.3g× the median of this test elsewhere", c->flag);
    bl_page_esc(out, tip.s);
    bl_strbuf_free(&tip);
    bl_strbuf_puts(out, "\">");
    bl_strbuf fig;
    bl_strbuf_init(&fig);
    bl_page_fig(&fig, m, s->fig, c->unit);
    bl_page_esc(out, fig.s);
    if (s->n > 1) { /* visible too: touch screens and paper have no hover */
        bl_strbuf_printf(out, "<sub>n=%zu", s->n);
        if (bl_present(s->ci)) {
            bl_strbuf_reset(&fig);
            bl_page_fig(&fig, m, s->ci, c->unit);
            bl_strbuf_puts(out, ", CI ±");
            bl_page_esc(out, fig.s);
        }
        bl_strbuf_puts(out, "</sub>");
    }
    bl_strbuf_free(&fig);
    if (bl_present(c->flag) && m == bl_row_main(&t->rows[i]))
        bl_strbuf_puts(out, " <b class=\"flag\">!</b>");
    bl_strbuf_puts(out, "</span>");
}

/* report --baseline: the column's main figure over the baseline column's, shown with the
 * main figure and the verdict's arrow the footnote explains, as the text report does
 * ("×5.16 ▲"; "better: 5.16× the figure of 1 GbE" on hover). */
static void put_ratio(bl_strbuf *out, const bl_table *t, size_t i, size_t j)
{
    double r = bl_table_ratio(t, i, j);
    if (t->baseline < 0 || (long)j == t->baseline || !bl_present(r))
        return;
    bl_verdict v = bl_baseline_verdict(t, i, j);
    bl_strbuf_printf(out, "<span class=\"m m-main ratio\" title=\"%s: %.3g× the figure of ",
                     bl_verdict_word(v), r);
    bl_page_esc(out, t->cols[t->baseline].label);
    bl_strbuf_printf(out, "\"> ×%.2f %s</span>", r, bl_verdict_arrow(v));
}

static void put_table(bl_strbuf *out, const bl_table *t, const bl_metric *ms, size_t nm)
{
    bl_strbuf_puts(out, "<div class=\"scroll\"><table id=\"cmp\">\n<thead><tr><th "
                        "scope=\"col\"><button type=\"button\">Test</button></th>");
    for (size_t j = 0; j < t->ncols; j++) {
        /* The set-up's labels where they tell it apart; its full name (source) on hover. */
        bl_strbuf_printf(out, "<th scope=\"col\" data-col=\"%zu\" title=\"", j);
        bl_page_esc(out, t->cols[j].title);
        bl_strbuf_printf(out,
                         "\"><button type=\"button\"><span class=\"sw\" "
                         "style=\"background:#%06X\"></span>",
                         bl_canvas_palette(j));
        bl_page_esc(out, t->cols[j].label);
        bl_strbuf_puts(out, "</button></th>");
    }
    bl_strbuf_puts(out, "</tr></thead>\n<tbody>\n");
    char cls[32];
    for (size_t i = 0; i < t->nrows; i++) {
        bl_strbuf_puts(out, "<tr class=\"");
        for (size_t k = 0; k < nm; k++)
            if (bl_row_has(t, i, ms[k]))
                bl_strbuf_printf(out, " h-m%zu", k);
        bl_strbuf_printf(out, "\" data-i=\"%zu\"><th scope=\"row\">", i);
        bl_page_esc(out, t->rows[i].title);
        bl_strbuf_puts(out, "</th>");
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_cell *c = bl_table_cell(t, i, j);
            bl_strbuf_printf(out, "<td data-col=\"%zu\">", j);
            put_fig(out, t, i, j, bl_row_main(&t->rows[i]), "m-main");
            put_ratio(out, t, i, j);
            if (!c->m[bl_row_main(&t->rows[i])].n && c->note)
                bl_page_esc(out, c->note); /* "+++++: too fast to measure" */
            for (size_t k = 0; k < nm; k++) {
                snprintf(cls, sizeof cls, "m-m%zu", k);
                put_fig(out, t, i, j, ms[k], cls);
            }
            bl_strbuf_puts(out, "</td>");
        }
        bl_strbuf_puts(out, "</tr>\n");
    }
    bl_strbuf_puts(out, "</tbody>\n</table></div>\n");
}

/* For paper: a set-up per line under each test (as the PDF report), since a page cannot hold
 * the screen table's columns; thead repeats on every printed page. */
static void put_print_table(bl_strbuf *out, const bl_table *t)
{
    static const bl_metric shown[] = {BL_M_BW, BL_M_IOPS, BL_M_LAT, BL_M_P99};
    bl_strbuf_puts(out, "<table class=\"long\"><thead><tr><th>Test</th><th>Set-up</th><th>MB/s"
                        "</th><th>IOPS</th><th>Mean latency</th><th>p99 latency</th><th>n</th>"
                        "</tr></thead><tbody>\n");
    bl_strbuf fig;
    bl_strbuf_init(&fig);
    for (size_t i = 0; i < t->nrows; i++) {
        int first = 1;
        for (size_t j = 0; j < t->ncols; j++) {
            const bl_cell *c = bl_table_cell(t, i, j);
            if (!c->n_recs)
                continue;
            bl_strbuf_puts(out, first ? "<tr class=\"first\"><th>" : "<tr><th>");
            if (first)
                bl_page_esc(out, t->rows[i].title);
            bl_strbuf_puts(out, "</th><td>");
            bl_page_esc(out, t->cols[j].label);
            bl_strbuf_puts(out, "</td>");
            for (size_t k = 0; k < 4; k++) {
                bl_strbuf_reset(&fig);
                if (c->m[shown[k]].n)
                    bl_metric_text(t, i, j, shown[k], &fig);
                else if (k == 0 && c->m[BL_M_VALUE].n)
                    bl_metric_text(t, i, j, BL_M_VALUE, &fig);
                bl_strbuf_puts(out, "<td>");
                bl_page_esc(out, fig.s ? fig.s : "");
                bl_strbuf_puts(out, "</td>");
            }
            bl_strbuf_printf(out, "<td>%zu</td></tr>\n", c->n_recs);
            first = 0;
        }
    }
    bl_strbuf_free(&fig);
    bl_strbuf_puts(out, "</tbody></table>\n");
}

static void put_controls(bl_strbuf *out, const bl_table *t, const bl_metric *ms, size_t nm,
                         long open_on)
{
    bl_strbuf_printf(out,
                     "<div class=\"controls\"><label>Metric <select id=\"metric\">"
                     "<option value=\"main\"%s>main figure (MB/s, else IOPS, else "
                     "the test's own)</option>",
                     open_on < 0 ? " selected" : "");
    for (size_t k = 0; k < nm; k++)
        bl_strbuf_printf(out, "<option value=\"m%zu\"%s>%s</option>", k,
                         (long)k == open_on ? " selected" : "", bl_page_metric_label(ms[k]));
    bl_strbuf_printf(out,
                     "</select></label>\n<details id=\"setups\"><summary>Set-ups shown: "
                     "%zu (hide or show)</summary><div class=\"setups\">",
                     t->ncols);
    for (size_t j = 0; j < t->ncols; j++) {
        bl_strbuf_printf(out,
                         "<label><input type=\"checkbox\" checked data-col=\"%zu\"><span "
                         "class=\"sw\" style=\"background:#%06X\"></span>",
                         j, bl_canvas_palette(j));
        bl_page_esc(out, t->cols[j].label);
        bl_strbuf_puts(out, "</label>");
    }
    bl_strbuf_puts(out, "</div></details></div>\n");
}

static void put_charts(bl_strbuf *out, const bl_table *t, const bl_metric *ms, size_t nm)
{
    bl_strbuf_puts(out, "<h2 id=\"charts\">Charts</h2>\n");
    for (size_t k = 0; k < nm; k++) {
        bl_strbuf svg;
        bl_strbuf_init(&svg);
        if (bl_page_svg_chart(t, ms[k], &svg)) {
            bl_strbuf_printf(out, "<section class=\"chart c-m%zu\"><h3>", k);
            bl_page_esc(out, bl_page_metric_label(ms[k]));
            bl_strbuf_puts(out, "</h3><p class=\"what\">");
            bl_page_chart_text(t, ms[k], out);
            bl_strbuf_puts(out, "</p>\n");
            bl_page_svg_keys(t, ms[k], out);
            bl_strbuf_putn(out, svg.s, svg.len);
            bl_strbuf_puts(out, "</section>\n");
        }
        bl_strbuf_free(&svg);
    }
}

/* What a group's filter matches: its source, tools and set-up names, lower-case (ASCII); and
 * its columns of the table, hidden with it. */
static void put_find(bl_strbuf *out, const bl_table *t, const bl_group *g)
{
    bl_strbuf f;
    bl_strbuf_init(&f);
    bl_strbuf_printf(&f, "%s", g->name);
    for (size_t k = 0; k < g->ncols; k++) {
        const bl_col *c = &t->cols[g->cols[k]];
        bl_strbuf_printf(&f, " %s %s", c->tool ? c->tool : "", c->label ? c->label : "");
    }
    for (char *p = f.s; p && *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    bl_strbuf_puts(out, " data-find=\"");
    bl_page_esc(out, f.s ? f.s : "");
    bl_strbuf_puts(out, "\" data-cols=\"");
    for (size_t k = 0; k < g->ncols; k++)
        bl_strbuf_printf(out, "%s%zu", k ? " " : "", g->cols[k]);
    bl_strbuf_puts(out, "\"");
    bl_strbuf_free(&f);
}

/* The overview: the groups with their counts, linked, and a filter by tool, label or source. */
static void put_overview(bl_strbuf *out, const bl_table *t, const bl_groups *gs)
{
    bl_strbuf_printf(out,
                     "<section id=\"overview\"><h2>Overview: %zu comparison groups</h2>"
                     "<p class=\"what\">A group is the set-ups meant to be compared: those of "
                     "one source document, with the tests they share. Each has its charts below; "
                     "the table of every set-up follows them. <label>Filter <input "
                     "id=\"gfilter\" type=\"search\" placeholder=\"tool, label or "
                     "source\"></label></p>\n<nav class=\"groups\"><ol>\n",
                     gs->n);
    for (size_t g = 0; g < gs->n; g++) {
        const bl_group *gr = &gs->v[g];
        bl_strbuf_puts(out, "<li");
        put_find(out, t, gr);
        bl_strbuf_printf(out, "><a href=\"#g%zu\">", g + 1);
        bl_page_esc(out, bl_basename(gr->name));
        bl_strbuf_printf(out,
                         "</a> <span class=\"cnt\">%zu set-up%s · %zu test%s · %zu "
                         "record%s</span></li>\n",
                         gr->ncols, gr->ncols == 1 ? "" : "s", gr->nrows, gr->nrows == 1 ? "" : "s",
                         gr->records, gr->records == 1 ? "" : "s");
    }
    bl_strbuf_puts(out, "</ol></nav></section>\n");
}

/* Each group: its heading and a chart per metric holding all its set-ups (keyed, whole names
 * in the legend); data-col stays the page's column so show/hide reaches its bars. */
static void put_group_charts(bl_strbuf *out, const bl_table *t, const bl_groups *gs,
                             const bl_metric *ms, size_t nm, const bl_history *h)
{
    for (size_t g = 0; g < gs->n; g++) {
        const bl_group *gr = &gs->v[g];
        bl_table *sub = bl_table_subset(t, gr->cols, gr->ncols);
        bl_strbuf_printf(out, "<section class=\"group\" id=\"g%zu\"", g + 1);
        put_find(out, t, gr);
        bl_strbuf_printf(out, "><h2>%zu. ", g + 1);
        bl_page_esc(out, gr->name);
        bl_strbuf_printf(out, "</h2><p class=\"meta\">%s · %s · %s</p>\n",
                         bl_count(gr->ncols, "set-up").s, bl_count(sub->nrows, "test").s,
                         bl_count(sub->n_records, "record").s);
        bl_page_history_links(out, h, gr);
        for (size_t k = 0; k < nm; k++) {
            bl_strbuf svg;
            bl_strbuf_init(&svg);
            if (bl_page_svg_chart_map(sub, ms[k], gr->cols, &svg)) {
                bl_strbuf_printf(out, "<section class=\"chart c-m%zu\"><h3>", k);
                bl_page_esc(out, bl_page_metric_label(ms[k]));
                bl_strbuf_puts(out, "</h3><p class=\"what\">");
                bl_page_chart_text(sub, ms[k], out);
                bl_strbuf_puts(out, "</p>\n");
                bl_page_svg_keys_map(sub, ms[k], gr->cols, out);
                bl_strbuf_putn(out, svg.s, svg.len);
                bl_strbuf_puts(out, "</section>\n");
            }
            bl_strbuf_free(&svg);
        }
        bl_strbuf_puts(out, "</section>\n");
        bl_table_free(sub);
    }
}

void bl_page_html(const bl_table *t, const bl_records *recs, const bl_page_opts *o, bl_strbuf *out)
{
    bl_page_recs p = {0};
    for (size_t i = 0; recs && i < recs->n; i++)
        bl_page_recs_add(&p, recs->v[i]);
    bl_page_html_recs(t, recs ? &p : NULL, o, out);
    bl_page_recs_free(&p);
}

void bl_page_html_recs(const bl_table *t, bl_page_recs *recs, const bl_page_opts *o, bl_strbuf *out)
{
    const char *title = o->title ? o->title : "Storage benchmark comparison";
    bl_metric ms[BL_M_COUNT];
    size_t nm = present_metrics(t, ms);
    long open_on = -1; /* --metric: its place among the page's metrics, when it has it */
    for (size_t k = 0; k < nm; k++)
        if (o->metric >= 0 && (int)ms[k] == o->metric)
            open_on = (long)k;
    bl_strbuf_printf(out,
                     "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"benchlog\">\n<title>",
                     page_lang(t, recs, title));
    bl_page_esc(out, title);
    bl_strbuf_puts(out, "</title>\n<style>\n");
    put_css(out, nm);
    if (open_on < 0)
        bl_strbuf_puts(out, "</style>\n</head>\n<body data-metric=\"main\">\n<h1>");
    else
        bl_strbuf_printf(out, "</style>\n</head>\n<body data-metric=\"m%ld\">\n<h1>", open_on);
    bl_page_esc(out, title);
    char date[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d", &tm);
    bl_strbuf_printf(out, "</h1>\n<p class=\"meta\">%s · %s · %s × %s", date,
                     bl_count(t->n_records, "record").s, bl_count(t->nrows, "test").s,
                     bl_count(t->ncols, "set-up").s);
    if (t->by) {
        bl_strbuf_puts(out, " (by ");
        bl_page_esc(out, t->by);
        bl_strbuf_puts(out, ")");
    } else {
        bl_strbuf_puts(out, " (a set-up: the runs of one source under one heading and table "
                            "column)");
    }
    bl_strbuf_printf(out, " · repeats: %s", bl_repeats_name(t->repeats));
    if (t->baseline >= 0) {
        bl_strbuf_puts(out, " · ×: the main figure over that of ");
        bl_page_esc(out, t->cols[t->baseline].label);
    }
    bl_strbuf_puts(out, "</p>\n");
    put_controls(out, t, ms, nm, open_on);
    /* More than one group: the overview and each group's charts come first, then the set-ups
     * over time, the table of every set-up (mostly empty across sources) after them. */
    bl_groups gs;
    bl_groups_make(t, o->across || t->by, &gs);
    int grouped = gs.n > 1 && o->charts;
    /* The history after the groups: the first screen is the overview and the first group's
     * figures (a store's first set-ups over time are rarely what a reader opens it for). */
    if (!grouped)
        bl_page_history(out, o->history, NULL);
    if (grouped) {
        put_overview(out, t, &gs);
        put_group_charts(out, t, &gs, ms, nm, o->history);
        bl_page_history(out, o->history, &gs);
        bl_strbuf_printf(out, "<h2 id=\"table\">Every set-up in one table (%s × %s)</h2>\n",
                         bl_count(t->nrows, "test").s, bl_count(t->ncols, "set-up").s);
    }
    bl_groups_free(&gs);
    bl_strbuf_puts(out, "<p class=\"what noprint\">Click a column's name to sort by it; hover a "
                        "figure for its repeats (n, stdev, 95% confidence interval).</p>\n");
    put_table(out, t, ms, nm);
    put_print_table(out, t);
    bl_strbuf_puts(out, "<footer><p>");
    bl_strbuf note;
    bl_strbuf_init(&note);
    bl_report_opts ro = {.format = BL_REPORT_HTML, .lat = 1}; /* the page shows latency */
    bl_report_footnote(t, &ro, &note, "");
    bl_page_esc(out, note.s);
    bl_strbuf_free(&note);
    bl_strbuf_puts(out, "</p></footer>\n");
    if (o->charts && !grouped)
        put_charts(out, t, ms, nm);
    if (recs)
        bl_page_put_sources(recs, out);
    bl_strbuf_printf(out,
                     "<footer><p>Made by benchlog. This page fetches nothing: its style, "
                     "script and charts are inside it.</p></footer>\n<script>\n%s</script>\n"
                     "</body>\n</html>\n",
                     js);
}
