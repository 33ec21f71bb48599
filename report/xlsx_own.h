/* Detail sheets whose rows benchlog writes itself (constant-memory workbooks only, where
 * libxlsxwriter 1.1 spends most of the time formatting, allocating and deflating at zlib's
 * default level). The cells go in as to worksheet_write_number/_string and come out as the very
 * XML libxlsxwriter writes in constant-memory mode: inline strings escaped as it escapes them,
 * numbers as "%.16G", a row held until the next one begins and its formats numbered then
 * (lxw_format_get_xf_index numbers formats in order of first use), the dimensions it would
 * record; deflated by ISA-L into a temporary file. libxlsxwriter writes the workbook with
 * these sheets holding their header row only (styles, widths, panes, autofilter, workbook.xml
 * stay its own); bl_xown_pack then copies that zip entry by entry without recompressing and
 * splices each sheet's rows into its <sheetData>, widening its <dimension>. */
#ifndef BL_REPORT_XLSX_OWN_H
#define BL_REPORT_XLSX_OWN_H

#include <stddef.h>
#include <xlsxwriter.h>

typedef struct bl_xown bl_xown;

/* The rows of ws, a sheet of the workbook with its header row (row 0) written and nothing
 * else; rows: the data rows it will hold (its compressor is freed once the last begins). */
bl_xown *bl_xown_new(lxw_worksheet *ws, size_t rows);
void bl_xown_free(bl_xown *s);
/* As worksheet_write_number/_string in constant-memory mode; a NULL or empty string writes
 * nothing (the detail rows give strings no format, so libxlsxwriter's blank cell never
 * arises). */
void bl_xown_number(bl_xown *s, lxw_row_t row, lxw_col_t col, double v, lxw_format *f);
void bl_xown_string(bl_xown *s, lxw_row_t row, lxw_col_t col, const char *v, lxw_format *f);

/* Just before workbook_close: the last rows of every sheet of wb, in the order and at the
 * time workbook_close would write them (which numbers their formats), and each own sheet's
 * zip entry. */
void bl_xown_close_rows(lxw_workbook *wb, bl_xown *const *own, size_t n);
/* The zip at from (libxlsxwriter's) copied to to with the own sheets' rows. Returns 0, or -1
 * with err (to is then incomplete: the caller removes it). */
int bl_xown_pack(const char *from, const char *to, bl_xown *const *own, size_t n, char *err,
                 size_t errlen);

/* v as printf's "%.16G" writes it (what libxlsxwriter writes), exact; returns its length. */
size_t bl_xlsx_num_text(double v, char out[32]);

#endif
