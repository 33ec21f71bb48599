/* Internals shared by xlsx_own.c (the rows) and xlsx_pack.c (the finished zip). */
#ifndef BL_REPORT_XLSX_OWN_INT_H
#define BL_REPORT_XLSX_OWN_INT_H

#include "../core/strbuf.h"
#include "xlsx_own.h"
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdio.h>

enum { BL_XCELL_NONE, BL_XCELL_NUM, BL_XCELL_STR };

typedef struct bl_xcell {
    int type;
    lxw_format *f;
    double v;
    size_t soff, slen; /* a string's bytes in pstr */
} bl_xcell;

struct bl_xown {
    lxw_worksheet *ws;
    size_t expect;   /* data rows it will hold */
    lxw_row_t cur;   /* the pending row (0: the header, libxlsxwriter's) */
    int started;     /* a data row began (the header row written) */
    int pending;     /* cur has cells */
    bl_xcell *cells; /* of cur, by column */
    size_t ncells;
    lxw_col_t cmin, cmax; /* of cur's cells */
    bl_strbuf pstr;
    int any; /* the dimensions of the data cells, as _check_dimensions records them */
    lxw_row_t rmin, rmax;
    lxw_col_t cmin_all, cmax_all;
    char *text; /* XML not yet deflated; after bl_xown_finish, the tail (the last row) */
    size_t len, cap;
    struct isal_zstream *z; /* NULL between pieces */
    unsigned char *zout;
    FILE *body;       /* the deflated rows (sync-flushed pieces), NULL when none */
    uint64_t body_in; /* XML bytes in body */
    uint32_t crc;     /* of those */
    int failed;       /* body could not be written */
    char entry[64];   /* its zip entry, once bl_xown_close_rows named it */
};

/* Deflates n bytes (flush: NO_FLUSH or SYNC_FLUSH; last: the stream's end) through out,
 * handing each piece to sink. Returns 0 or -1. */
int bl_xown_deflate(struct isal_zstream *z, const unsigned char *in, size_t n, int flush, int last,
                    unsigned char *out, size_t outlen, int (*sink)(void *, const void *, size_t),
                    void *ctx);
int bl_xown_to_file(void *file, const void *p, size_t n);
/* The pending row into the tail, the body sealed. */
void bl_xown_finish(bl_xown *s);

#endif
