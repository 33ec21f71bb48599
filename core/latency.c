#include "latency.h"
#include "strbuf.h"
#include <stdlib.h>
#include <string.h>

const double bl_fio_default_pcts[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
const size_t bl_fio_default_npcts = sizeof bl_fio_default_pcts / sizeof bl_fio_default_pcts[0];

uint64_t bl_lat_bin_total(const bl_lat *l)
{
    uint64_t total = 0;
    for (size_t i = 0; i < l->n_bins; i++)
        total += l->bins[i].count;
    return total;
}

void bl_bins_percentiles(const bl_bin *bins, size_t n, const double *pcts, size_t npcts,
                         double *out)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += bins[i].count;
    for (size_t p = 0; p < npcts; p++) {
        out[p] = BL_ABSENT;
        if (total == 0)
            continue;
        double need = pcts[p] / 100.0 * (double)total;
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            sum += bins[i].count;
            if ((double)sum >= need && bins[i].count) {
                out[p] = bins[i].value;
                break;
            }
        }
    }
}

void bl_lat_merge_bins(bl_lat *dst, const bl_lat *src)
{
    if (!src->n_bins)
        return;
    /* Both are ascending: one merge pass into a new array. */
    bl_bin *m = bl_xmalloc((dst->n_bins + src->n_bins) * sizeof *m);
    size_t i = 0, j = 0, k = 0;
    while (i < dst->n_bins || j < src->n_bins) {
        if (j == src->n_bins || (i < dst->n_bins && dst->bins[i].value < src->bins[j].value))
            m[k++] = dst->bins[i++];
        else if (i == dst->n_bins || src->bins[j].value < dst->bins[i].value)
            m[k++] = src->bins[j++];
        else {
            m[k] = dst->bins[i++];
            m[k++].count += src->bins[j++].count;
        }
    }
    free(dst->bins);
    dst->bins = m;
    dst->n_bins = k;
    dst->present = true;
}

void bl_lat_percentiles_from_bins(bl_lat *l)
{
    double v[32];
    bl_bins_percentiles(l->bins, l->n_bins, bl_fio_default_pcts, bl_fio_default_npcts, v);
    free(l->pct);
    l->pct = NULL;
    l->n_pct = 0;
    for (size_t p = 0; p < bl_fio_default_npcts; p++)
        if (bl_present(v[p]))
            bl_lat_add_pct(l, bl_fio_default_pcts[p], v[p]);
}

unsigned bl_plat_val_to_idx(uint64_t val)
{
    unsigned msb = val ? 63u - (unsigned)__builtin_clzll(val) : 0;
    /* Up to 2^(BITS+1)-1 every value has its own bin. */
    if (msb <= BL_PLAT_BITS)
        return (unsigned)val;
    unsigned error_bits = msb - BL_PLAT_BITS;
    unsigned base = (error_bits + 1) << BL_PLAT_BITS;
    unsigned offset = (BL_PLAT_VAL - 1) & (unsigned)(val >> error_bits);
    unsigned idx = base + offset;
    return idx < BL_PLAT_NR - 1 ? idx : BL_PLAT_NR - 1;
}

uint64_t bl_plat_idx_to_val(unsigned idx)
{
    if (idx >= BL_PLAT_NR)
        idx = BL_PLAT_NR - 1;
    if (idx < (BL_PLAT_VAL << 1))
        return idx;
    unsigned error_bits = (idx >> BL_PLAT_BITS) - 1;
    uint64_t base = (uint64_t)1 << (error_bits + BL_PLAT_BITS);
    uint64_t k = idx % BL_PLAT_VAL;
    /* The middle of the bin's range, truncated like fio's integer result. */
    return base + (uint64_t)(((double)k + 0.5) * (double)((uint64_t)1 << error_bits));
}
