/* CrystalDiskMark-style results in tables: fio-cdm's Markdown tables, comparison tables
 * flattened from HTML (cells split across lines, captions between groups of rows), and rows
 * whose figures were run together without separators (cdm_runon.c). Each adds runs from
 * *run + 1 on and leaves *run at the last one it used. */
#ifndef BL_CDM_TABLE_H
#define BL_CDM_TABLE_H

#include "parser.h"

void bl_cdm_parse_fio_cdm(const bl_text *t, bl_parse_out *o, int64_t *run);
void bl_cdm_parse_grid(const bl_text *t, bl_parse_out *o, int64_t *run);

/* True for the header row of run-together test names ("シーケンシャルランダム512k..."). */
int bl_cdm_runon_header(const char *line);
void bl_cdm_parse_runon(const bl_text *t, bl_parse_out *o, int64_t *run);

#endif
