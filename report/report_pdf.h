/* `benchlog report --pdf`: the report for vendors, through cairo's PDF surface and pango (text
 * stays text; Noto Sans CJK renders Japanese). A4 landscape pages:
 *   - a title page: title, date, what was measured (tools, tests, metrics), how repeats
 *     combine, and an overview of the comparison groups (compare/group.h);
 *   - the contents: each group with its counts, linked; the outline (bookmarks) lists them;
 *   - each group in turn, from the contents' last page (small ones share a page; a single
 *     set-up's narrow table goes in one of two columns): its table in long form (one line per
 *     test × set-up, only the figure columns it fills: MB/s, IOPS, mean and p99 latency, n,
 *     95% CI) and its bar chart of the main figure, every set-up (ten to a chart), as tall as
 *     its bars (denser past a page), tests split over pages when they must;
 *   - a sources appendix, three columns under each folder: each file, its tool, its first
 *     runs with their lines (the first with its labels), its last run and how many.
 * Built on the comparison model (table.h) and the records it was built from, which are walked
 * (twice: what the title page and the charts' titles say of them, then the sources) and never
 * held. */
#ifndef BL_REPORT_REPORT_PDF_H
#define BL_REPORT_REPORT_PDF_H

#include "../core/record.h"
#include "../compare/load.h"
#include "../compare/table.h"
#include <stddef.h>

typedef struct bl_pdf_opts {
    const char *title; /* NULL: "Storage benchmark comparison" */
    const char *by;    /* as the table was built: the charts group the same way */
    bl_repeats repeats;
    int across; /* the records were chosen (a filter): one group across sources (group.h) */
} bl_pdf_opts;

/* Writes the PDF to path from the table and a walk of the records it was built from
 * (compare/load.h); returns 0, or 1 with err saying why. *pages (when not NULL) is set to the
 * page count. */
int bl_report_pdf_walk(const char *path, const bl_table *t, bl_rec_walk_fn walk, void *src,
                       const bl_pdf_opts *o, size_t *pages, char *err, size_t errlen);
/* The same from records held (the table's records). */
int bl_report_pdf(const char *path, const bl_table *t, const bl_records *recs, const bl_pdf_opts *o,
                  size_t *pages, char *err, size_t errlen);

#endif
