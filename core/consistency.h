/* Whether a record's figures agree with each other: bandwidth against IOPS x block size.
 *
 * It applies to a record with bw_bytes_s, iops and one block size (bs > 0), whatever tool
 * or format it came from. They agree when |bw - IOPS x bs| is no more than printing
 * explains: bw_prec + iops_prec x bs where the parser set them, else 0.5% of bw (three
 * significant digits) and the larger of 0.5% of IOPS and one whole IO/s (fio prints
 * truncated integer IOPS). A unit misread (10^6 for 2^20, KiB for kB: 2.4% and more) does
 * not agree; neither do sources whose own figures disagree, which are kept as printed. */
#ifndef BL_CONSISTENCY_H
#define BL_CONSISTENCY_H

#include "record.h"

typedef struct bl_consistency {
    bool applies;   /* the record has bandwidth, IOPS and one block size */
    bool agrees;    /* true when it does not apply */
    double ratio;   /* bw / (IOPS x bs); INFINITY when IOPS x bs is 0 but bw is not */
    double allowed; /* largest |ratio - 1| printing explains */
} bl_consistency;

bl_consistency bl_check_consistency(const bl_record *r);

/* Checks r; when its figures disagree, adds a sentence to its note, writes a one-line
 * description (no file or line) to msg and returns true. */
bool bl_check_and_note(bl_record *r, char *msg, size_t cap);

#endif
