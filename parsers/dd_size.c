/* dd's sizes (bs=, count=) in GNU and BSD dialects; see dd_size.h. */
#include "dd_size.h"
#include "../core/units.h"
#include <ctype.h>
#include <string.h>

/* One factor of a dd size, its value in *out and its end in *end: digits (GNU also allows
 * none before a suffix: "xM" = M), then a suffix. GNU (coreutils xstrtol): c=1 w=2 b=512,
 * k/K M G T P E powers of 1024, or of 1000 when "B" follows ("kB", "MB"), "KiB" = K, and a
 * plain "B" after digits is bytes. BSD (FreeBSD/macOS get_num): b/B=512, k m g t (either case)
 * powers of 1024 up to p, w/W=4 (an int), octal and hex numbers (not read here). Lower-case m/g/t
 * are BSD's; GNU refuses them, so they can only mean BSD's sizes. */
static int dd_factor(const char *v, int bsd, const char **end, double *out)
{
    double n = 1;
    const char *p = v;
    if (bsd && p[0] == '0' && (isdigit((unsigned char)p[1]) || p[1] == 'x' || p[1] == 'X'))
        return 0; /* BSD reads "010" as octal and "0x10" as hex (strtoumax base 0): not guessed */
    if (isdigit((unsigned char)*p)) {
        n = 0;
        for (; isdigit((unsigned char)*p); p++)
            n = n * 10 + (*p - '0');
    } else if (bsd || !isalpha((unsigned char)*p))
        return 0;
    static const char powers[] = "KMGTPE";
    const char *k = *p ? strchr(powers, toupper((unsigned char)*p)) : NULL;
    double mult = 1;
    if (k && bsd && *k == 'E')
        return 0; /* BSD stops at P */
    if (k) {
        int power = (int)(k - powers) + 1;
        double base = 1024;
        p++;
        if (!bsd && p[0] == 'i' && p[1] == 'B')
            p += 2;
        else if (!bsd && (*p == 'B' || *p == 'D'))
            base = 1000, p++;
        for (int i = 0; i < power; i++)
            mult *= base;
    } else if (*p == 'b' || (bsd && *p == 'B'))
        mult = 512, p++;
    else if (*p == 'w' || (bsd && *p == 'W'))
        mult = bsd ? 4 : 2, p++;
    else if (!bsd && *p == 'c')
        p++;
    else if (!bsd && *p == 'B' && p > v)
        p++;
    *out = n * mult;
    *end = p;
    return p > v;
}

/* A dd size with its products ("2x512", GNU's "1xM", BSD's "4k*2"), in bytes; -1 when dd
 * would not read it (an unknown suffix is never taken for bytes). */
int64_t bl_dd_size(const char *v, int bsd)
{
    if (!v)
        return -1;
    double total = 1, f;
    const char *e = v;
    for (;;) {
        if (!dd_factor(e, bsd, &e, &f))
            return -1;
        total *= f;
        if (*e == 'x' || (bsd && (*e == 'X' || *e == '*')))
            e++;
        else
            break;
    }
    int64_t bytes;
    return (*e == '\0' || *e == ' ' || *e == '\t') && bl_to_count(total, &bytes) ? bytes : -1;
}
