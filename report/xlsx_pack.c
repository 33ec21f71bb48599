/* The finished workbook: libxlsxwriter's zip copied entry by entry without recompressing
 * (minizip's raw mode), each own sheet's entry made of its placeholder's head, the deflated
 * rows and the placeholder's end. */
#include "xlsx_own_int.h"
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unzip.h>
#include <zip.h>
#include <zlib.h>

#define COPY_BUF (256 * 1024)

void bl_xown_close_rows(lxw_workbook *wb, bl_xown *const *own, size_t n)
{
    lxw_sheet *sheet;
    unsigned index = 1;
    STAILQ_FOREACH(sheet, wb->sheets, list_pointers)
    {
        if (sheet->is_chartsheet)
            continue;
        lxw_worksheet *ws = sheet->u.worksheet;
        bl_xown *mine = NULL;
        for (size_t i = 0; i < n && !mine; i++)
            if (own[i]->ws == ws)
                mine = own[i];
        if (mine) {
            bl_xown_finish(mine);
            snprintf(mine->entry, sizeof mine->entry, "xl/worksheets/sheet%u.xml", index);
        } else if (ws->optimize_row) {
            lxw_worksheet_write_single_row(ws); /* what _write_worksheet_files does first */
        }
        index++;
    }
}

typedef struct {
    zipFile zf;
    int err;
} zsink;

static int to_zip(void *ctx, const void *p, size_t n)
{
    zsink *z = ctx;
    if (zipWriteInFileInZip(z->zf, p, (unsigned)n) != ZIP_OK)
        z->err = 1;
    return z->err ? -1 : 0;
}

static int parse_cell(const char *p, const char *end, lxw_row_t *row, lxw_col_t *col)
{
    unsigned c = 0, r = 0;
    const char *q = p;
    while (q < end && *q >= 'A' && *q <= 'Z')
        c = c * 26 + (unsigned)(*q++ - 'A' + 1);
    if (q == p || q == end || *q < '1' || *q > '9')
        return -1;
    while (q < end && *q >= '0' && *q <= '9')
        r = r * 10 + (unsigned)(*q++ - '0');
    *row = (lxw_row_t)(r - 1);
    *col = (lxw_col_t)(c - 1);
    return q == end ? 0 : -1;
}

/* The placeholder's dimension widened by the rows' cells: "A1:AE1" and a new ref. */
static int widen(const char *xml, size_t len, const bl_xown *s, size_t *at, size_t *old_len,
                 char *ref)
{
    static const char key[] = "<dimension ref=\"";
    const char *p = memmem(xml, len, key, sizeof key - 1);
    if (!p)
        return -1;
    p += sizeof key - 1;
    const char *end = memchr(p, '"', len - (size_t)(p - xml));
    if (!end)
        return -1;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    lxw_row_t r0, r1;
    lxw_col_t c0, c1;
    if (parse_cell(p, colon ? colon : end, &r0, &c0) != 0)
        return -1;
    if (!colon) {
        r1 = r0;
        c1 = c0;
    } else if (parse_cell(colon + 1, end, &r1, &c1) != 0) {
        return -1;
    }
    if (s->any) {
        r0 = s->rmin < r0 ? s->rmin : r0;
        r1 = s->rmax > r1 ? s->rmax : r1;
        c0 = s->cmin_all < c0 ? s->cmin_all : c0;
        c1 = s->cmax_all > c1 ? s->cmax_all : c1;
    }
    lxw_rowcol_to_range(ref, r0, c0, r1, c1);
    *at = (size_t)(p - xml);
    *old_len = (size_t)(end - p);
    return 0;
}

typedef struct {
    struct isal_zstream z;
    unsigned char *lvl, *out;
} piece_z;

/* A piece of the entry deflated on its own: pieces join as deflate allows, each but the last
 * sync-flushed (byte aligned, not final). */
static int piece(piece_z *pz, const void *p, size_t n, int last, zsink *zs)
{
    isal_deflate_init(&pz->z);
    pz->z.level = 1;
    pz->z.level_buf = pz->lvl;
    pz->z.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    return bl_xown_deflate(&pz->z, p, n, last ? NO_FLUSH : SYNC_FLUSH, last, pz->out, COPY_BUF,
                           to_zip, zs);
}

/* "WHAT NAME", and the system's reason when a write failed with one (a full disk). */
static void said(char *err, size_t errlen, const char *what, const char *name)
{
    if (errno)
        snprintf(err, errlen, "%s %s: %s", what, name, strerror(errno));
    else
        snprintf(err, errlen, "%s %s", what, name);
}

static int own_entry(unzFile uz, zipFile zf, const char *name, const zip_fileinfo *zi,
                     const unz_file_info64 *fi, bl_xown *s, piece_z *pz, char *err, size_t errlen)
{
    if (s->failed) {
        snprintf(err, errlen, "cannot write the rows of %s (temporary file)", name);
        return -1;
    }
    size_t len = (size_t)fi->uncompressed_size;
    char *xml = bl_xmalloc(len + 1);
    int rc = -1;
    if (unzOpenCurrentFile(uz) != UNZ_OK ||
        unzReadCurrentFile(uz, xml, (unsigned)len) != (int)len ||
        unzCloseCurrentFile(uz) != UNZ_OK) {
        snprintf(err, errlen, "cannot read %s back", name);
        free(xml);
        return -1;
    }
    xml[len] = 0;
    size_t at, old_len;
    char ref[64];
    const char *close = strstr(xml, "</sheetData>");
    if (!close || widen(xml, len, s, &at, &old_len, ref) != 0) {
        snprintf(err, errlen, "%s: no <sheetData> or <dimension> to put the rows in", name);
        free(xml);
        return -1;
    }
    /* head: up to the dimension's ref, the new ref, on to </sheetData> */
    size_t split = (size_t)(close - xml);
    bl_strbuf head;
    bl_strbuf_init(&head);
    bl_strbuf_putn(&head, xml, at);
    bl_strbuf_puts(&head, ref);
    bl_strbuf_putn(&head, xml + at + old_len, split - at - old_len);
    bl_strbuf rest; /* the last row, then </sheetData> on */
    bl_strbuf_init(&rest);
    bl_strbuf_putn(&rest, s->text ? s->text : "", s->len);
    bl_strbuf_putn(&rest, xml + split, len - split);
    uint64_t total = head.len + s->body_in + rest.len;
    uLong crc = crc32(0, (const Bytef *)head.s, (uInt)head.len);
    crc = crc32_combine64(crc, s->crc, (z_off64_t)s->body_in);
    crc =
        crc32_combine64(crc, crc32(0, (const Bytef *)rest.s, (uInt)rest.len), (z_off64_t)rest.len);
    zsink zs = {zf, 0};
    if (zipOpenNewFileInZip4_64(zf, name, zi, NULL, 0, NULL, 0, NULL, Z_DEFLATED, 1, 1, -MAX_WBITS,
                                DEF_MEM_LEVEL, Z_DEFAULT_STRATEGY, NULL, 0, 0, 0,
                                total >= 0xffffffffu) != ZIP_OK)
        goto out;
    if (piece(pz, head.s, head.len, 0, &zs) != 0)
        goto out;
    if (s->body) {
        rewind(s->body);
        size_t got;
        while ((got = fread(pz->out, 1, COPY_BUF, s->body)) > 0)
            if (to_zip(&zs, pz->out, got) != 0)
                goto out;
        if (ferror(s->body))
            goto out;
    }
    if (piece(pz, rest.s, rest.len, 1, &zs) != 0)
        goto out;
    if (zipCloseFileInZipRaw64(zf, total, crc) != ZIP_OK)
        goto out;
    rc = 0;
out:
    if (rc)
        said(err, errlen, "cannot write", name);
    bl_strbuf_free(&head);
    bl_strbuf_free(&rest);
    free(xml);
    return rc;
}

static int raw_entry(unzFile uz, zipFile zf, const char *name, const zip_fileinfo *zi,
                     const unz_file_info64 *fi, unsigned char *buf, char *err, size_t errlen)
{
    int method = 0, level = 0;
    if (unzOpenCurrentFile2(uz, &method, &level, 1) != UNZ_OK) {
        snprintf(err, errlen, "cannot read %s back", name);
        return -1;
    }
    int rc = -1, got;
    if (zipOpenNewFileInZip4_64(zf, name, zi, NULL, 0, NULL, 0, NULL, method, level, 1, -MAX_WBITS,
                                DEF_MEM_LEVEL, Z_DEFAULT_STRATEGY, NULL, 0, 0, 0,
                                fi->uncompressed_size >= 0xffffffffu) == ZIP_OK) {
        while ((got = unzReadCurrentFile(uz, buf, COPY_BUF)) > 0)
            if (zipWriteInFileInZip(zf, buf, (unsigned)got) != ZIP_OK)
                break;
        if (got == 0 && zipCloseFileInZipRaw64(zf, fi->uncompressed_size, fi->crc) == ZIP_OK)
            rc = 0;
    }
    if (unzCloseCurrentFile(uz) != UNZ_OK)
        rc = -1;
    if (rc)
        said(err, errlen, "cannot copy", name);
    return rc;
}

int bl_xown_pack(const char *from, const char *to, bl_xown *const *own, size_t n, char *err,
                 size_t errlen)
{
    unzFile uz = unzOpen64(from);
    if (!uz) {
        snprintf(err, errlen, "cannot read %s back", from);
        return -1;
    }
    zipFile zf = zipOpen64(to, APPEND_STATUS_CREATE);
    if (!zf) {
        unzClose(uz);
        snprintf(err, errlen, "cannot create %s", to);
        return -1;
    }
    piece_z pz = {.lvl = bl_xmalloc(ISAL_DEF_LVL1_DEFAULT), .out = bl_xmalloc(COPY_BUF)};
    int rc = 0, at;
    for (at = unzGoToFirstFile(uz); rc == 0 && at == UNZ_OK; at = unzGoToNextFile(uz)) {
        unz_file_info64 fi;
        char name[256];
        if (unzGetCurrentFileInfo64(uz, &fi, name, sizeof name, NULL, 0, NULL, 0) != UNZ_OK) {
            snprintf(err, errlen, "cannot read %s back", from);
            rc = -1;
            break;
        }
        zip_fileinfo zi = {
            .dosDate = fi.dosDate, .internal_fa = fi.internal_fa, .external_fa = fi.external_fa};
        bl_xown *mine = NULL;
        for (size_t i = 0; i < n && !mine; i++)
            if (strcmp(own[i]->entry, name) == 0)
                mine = own[i];
        errno = 0; /* the reason a write below fails, if the system gives one */
        rc = mine ? own_entry(uz, zf, name, &zi, &fi, mine, &pz, err, errlen)
                  : raw_entry(uz, zf, name, &zi, &fi, pz.out, err, errlen);
    }
    if (rc == 0 && at != UNZ_END_OF_LIST_OF_FILE) {
        snprintf(err, errlen, "cannot read %s back", from);
        rc = -1;
    }
    if (rc == 0)
        errno = 0;
    if (zipClose(zf, NULL) != ZIP_OK && rc == 0) {
        said(err, errlen, "cannot write", to);
        rc = -1;
    }
    unzClose(uz);
    free(pz.lvl);
    free(pz.out);
    return rc;
}
