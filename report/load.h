/* Reading the records a report, chart or workbook is made of: the store's records matching
 * the FILTER terms given on the command line, in import order. */
#ifndef BL_REPORT_LOAD_H
#define BL_REPORT_LOAD_H

#include "../core/record.h"
#include <stddef.h>

/* Returns 0, 1 when the store could not be read or no record matches, 2 for a bad FILTER
 * term; err says why. */
int bl_report_load(const char *db, int nterms, char **terms, bl_records *out, char *err,
                   size_t errlen);

#endif
