#include "fmt.h"
#include <math.h>
#include <string.h>

void bl_fmt_fig(bl_strbuf *sb, double v)
{
    double a = fabs(v);
    int dec = a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 2 : a >= 0.001 || a == 0 ? 3 : 6;
    if (a >= 10000) /* five digits say enough: 49223 files/s, not 49223.0 */
        dec = 0;
    bl_strbuf_printf(sb, "%.*f", dec, v);
}

void bl_fmt_iops(bl_strbuf *sb, double v)
{
    if (fabs(v) >= 1000)
        bl_strbuf_printf(sb, "%.0f", v);
    else
        bl_fmt_fig(sb, v);
}

void bl_fmt_size(bl_strbuf *sb, int64_t b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (v == floor(v))
        bl_strbuf_printf(sb, "%.0f%s", v, unit[u]);
    else
        bl_strbuf_printf(sb, "%.1f%s", v, unit[u]);
}

void bl_fmt_ns(bl_strbuf *sb, double ns)
{
    static const char *const unit[] = {"ns", "µs", "ms", "s"};
    double v = ns;
    int u = 0;
    while (fabs(v) >= 1000 && u < 3) {
        v /= 1000;
        u++;
    }
    bl_fmt_fig(sb, v);
    bl_strbuf_printf(sb, " %s", unit[u]);
}

/* Wide ranges of Unicode's East Asian Width (W and F): CJK, kana, hangul, fullwidth forms,
 * emoji. Checked by hand against EastAsianWidth.txt for the blocks blog posts use. */
static const struct {
    unsigned lo, hi;
} wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
    {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
    {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static int char_width(unsigned c)
{
    if (c == 0)
        return 0;
    /* Combining marks and zero-width joiners/variation selectors take no column. */
    if ((c >= 0x0300 && c <= 0x036F) || (c >= 0x200B && c <= 0x200F) ||
        (c >= 0xFE00 && c <= 0xFE0F) || c == 0x3099 || c == 0x309A)
        return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (c >= wide[i].lo && c <= wide[i].hi)
            return 2;
    return 1;
}

size_t bl_display_width(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t w = 0;
    while (*p) {
        unsigned c = *p;
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        if (len > 1) {
            unsigned v = c & (0x7F >> len);
            int ok = 1;
            for (int i = 1; i < len; i++) {
                if ((p[i] & 0xC0) != 0x80) {
                    ok = 0;
                    break;
                }
                v = (v << 6) | (p[i] & 0x3F);
            }
            if (!ok) {
                len = 1;
                v = c;
            }
            c = v;
        }
        w += (size_t)char_width(c);
        p += len;
    }
    return w;
}

const char *bl_basename(const char *path)
{
    if (!path)
        return "";
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}
