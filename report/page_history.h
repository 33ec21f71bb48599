/* The page's history (report --html): for each set-up and test with more than one time point,
 * its trend as inline SVG (each point's mean with its 95% CI, the mean of each segment between
 * changes as a line, each change dashed and labelled with its per cent and p) and its points in
 * a collapsible table. The series and their changes are compare/history.h's, as `benchlog
 * history` finds them: the page draws, it computes nothing. A group (one source) links to the
 * trends its records are part of, and each trend back to its groups. */
#ifndef BL_REPORT_PAGE_HISTORY_H
#define BL_REPORT_PAGE_HISTORY_H

#include "../compare/group.h"
#include "../compare/history.h"
#include "../core/strbuf.h"

/* The History section; nothing when h is NULL or no series has two points. gs: the page's
 * groups (NULL: the page is not grouped), for the links back; h built with opts.sources. */
void bl_page_history(bl_strbuf *out, const bl_history *h, const bl_groups *gs);
/* In group g's section: a line linking to the trends of the series its source is in. */
void bl_page_history_links(bl_strbuf *out, const bl_history *h, const bl_group *g);

#endif
