#include "consistency.h"
#include <stdio.h>

/* Three significant digits, rounded: half a unit of the third is at most 0.5% of the value. */
#define BL_DEFAULT_REL 0.005

bl_consistency bl_check_consistency(const bl_record *r)
{
    bl_consistency c = {.applies = false, .agrees = true, .ratio = NAN, .allowed = NAN};
    if (!bl_present(r->bw_bytes_s) || !bl_present(r->iops) || r->bs <= 0 || r->bw_bytes_s < 0 ||
        r->iops < 0)
        return c;
    double bs = (double)r->bs, bw = r->bw_bytes_s, expect = r->iops * bs;
    double bw_prec = bl_present(r->bw_prec) ? r->bw_prec : BL_DEFAULT_REL * bw;
    double iops_prec =
        bl_present(r->iops_prec) ? r->iops_prec : fmax(BL_DEFAULT_REL * r->iops, 1.0);
    double slack = bw_prec + iops_prec * bs;
    c.applies = true;
    c.ratio = expect > 0 ? bw / expect : (bw > 0 ? INFINITY : 1.0);
    c.allowed = expect > 0 ? slack / expect : INFINITY;
    /* a hair over the slack for the binary rounding of the products above */
    c.agrees = fabs(bw - expect) <= slack * (1 + 1e-9) + 1e-6;
    return c;
}

bool bl_check_and_note(bl_record *r, char *msg, size_t cap)
{
    bl_consistency c = bl_check_consistency(r);
    if (c.agrees)
        return false;
    snprintf(msg, cap,
             "bandwidth %.0f bytes/s is %.4f x IOPS %.10g x block size %lld, where printing "
             "explains %.2f%%: the source's figures disagree (or a unit was misread)",
             r->bw_bytes_s, c.ratio, r->iops, (long long)r->bs, 100 * c.allowed);
    char note[160];
    snprintf(note, sizeof note,
             "bandwidth is %.4f x IOPS x block size in the source, beyond its printed precision",
             c.ratio);
    bl_record_add_note(r, note);
    return true;
}
