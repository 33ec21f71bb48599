/* hdparm's read timings (-t, -T, --direct), under the device line hdparm prints first:
 *   /dev/sda:
 *    Timing cached reads:   15596 MB in  2.00 seconds = 7805.35 MB/sec
 *    Timing buffered disk reads: 362 MB in  3.01 seconds = 120.33 MB/sec
 *    Timing O_DIRECT disk reads (offset 2 GB): 2186 MB in  3.01 seconds = 725.28 MB/sec
 *    Timing buffer-cache reads:   128 MB in  1.49 seconds = 85.91 MB/sec     (hdparm < 6)
 *   2 MB in  3.52 seconds = 581.82 kB/sec                                     (under 1 MB/s)
 * hdparm's "MB" is 2^20 bytes and its "kB" 2^10 (hdparm.c: total_MB / elapsed * 1024).
 * Warnings on stderr ("BLKFLSBUF failed: ...") may split the label from its figures; the
 * figures are then read from the next lines. One device line is one run; a timing whose
 * three figures disagree beyond hdparm's rounding is refused. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB 1048576.0

typedef struct hd_kind {
    const char *label; /* the words between "Timing " and " reads" */
    const char *test;
    int direct;
} hd_kind;

static const hd_kind kinds[] = {
    {"cached", "cached-read", BL_FALSE},       {"O_DIRECT cached", "cached-read", BL_TRUE},
    {"buffer-cache", "cached-read", BL_FALSE}, {"buffered disk", "seq-read", BL_FALSE},
    {"O_DIRECT disk", "seq-read", BL_TRUE},
};

typedef struct hd_figs {
    double mb, seconds, rate_bytes_s;
} hd_figs;

/* The kind of a " Timing ... reads" line and where its text after the colon starts. */
static const hd_kind *timing_kind(const char *s, const char **after)
{
    s += strspn(s, " \t>");
    if (strncmp(s, "Timing ", 7) != 0)
        return NULL;
    s += 7;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].label);
        if (strncmp(s, kinds[i].label, n) == 0 && strncmp(s + n, " reads", 6) == 0) {
            const char *colon = strchr(s + n + 6, ':');
            if (!colon)
                return NULL;
            *after = colon + 1;
            return &kinds[i];
        }
    }
    return NULL;
}

/* "362 MB in  3.01 seconds = 120.33 MB/sec" at the start of s (after blanks). Some mail
 * archives show "=3D" for "=". */
static int figures(const char *s, hd_figs *f)
{
    const char *e;
    s += strspn(s, " \t");
    if (!isdigit((unsigned char)*s) || !bl_parse_number(s, 0, &f->mb, &e))
        return 0;
    if (strncmp(e, " MB in ", 7) != 0)
        return 0;
    s = e + 7 + strspn(e + 7, " ");
    if (!bl_parse_number(s, 0, &f->seconds, &e) || strncmp(e, " seconds =", 10) != 0)
        return 0;
    s = e + 10;
    if (strncmp(s, "3D", 2) == 0)
        s += 2;
    s += strspn(s, " ");
    double rate;
    if (!bl_parse_number(s, 0, &rate, &e))
        return 0;
    if (strncmp(e, " MB/sec", 7) == 0)
        f->rate_bytes_s = rate * MIB;
    else if (strncmp(e, " kB/sec", 7) == 0)
        f->rate_bytes_s = rate * 1024;
    else
        return 0;
    return 1;
}

/* True when the rate is MB / seconds to the two decimals hdparm prints the seconds with
 * (and the rate's own 0.01 rounding). */
static int figures_agree(const hd_figs *f)
{
    if (!(f->seconds > 0) || !(f->mb > 0))
        return 0;
    double mbs = f->rate_bytes_s / MIB, slack = 0.006 + mbs * 1e-6;
    double lo = f->mb / (f->seconds + 0.005) - slack;
    double hi = f->seconds > 0.005 ? f->mb / (f->seconds - 0.005) + slack : INFINITY;
    return mbs >= lo && mbs <= hi;
}

/* "/dev/sda:" as hdparm prints it before its figures. */
static char *device_line(const char *s)
{
    s += strspn(s, " \t");
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n < 2 || s[n - 1] != ':' || s[0] != '/')
        return NULL;
    for (size_t k = 0; k + 1 < n; k++)
        if (isspace((unsigned char)s[k]))
            return NULL;
    return bl_xstrndup(s, n - 1);
}

/* The device line of timing line i: the nearest above, past other timings and warnings. */
static long device_above(const bl_text *t, size_t i, char **dev)
{
    for (size_t k = i; k > 0 && i - k < 8; k--) {
        if ((*dev = device_line(t->line[k - 1])))
            return (long)k;
    }
    *dev = NULL;
    return -1;
}

/* The figures of timing line i: on its own line, or at the start of one of the next few
 * lines when stderr warnings came between. Returns the 0-based line they were on, or -1. */
static long figures_of(const bl_text *t, size_t i, const char *after, hd_figs *f)
{
    if (figures(after, f))
        return (long)i;
    for (size_t k = i + 1; k < t->nlines && k <= i + 3; k++) {
        const char *dummy;
        if (timing_kind(t->line[k], &dummy))
            return -1;
        if (figures(t->line[k], f))
            return (long)k;
    }
    return -1;
}

static int hdparm_probe(const bl_text *t)
{
    const char *after;
    for (size_t i = 0; i < t->nlines; i++)
        if (timing_kind(t->line[i], &after))
            return 90;
    return 0;
}

static void set_offset_label(bl_record *r, const char *line)
{
    const char *o = strstr(line, "(offset ");
    if (!o)
        return;
    o += 8;
    size_t n = strcspn(o, ")");
    if (o[n] != ')')
        return;
    char *v = bl_xstrndup(o, n);
    bl_record_set_label(r, "offset", v);
    free(v);
}

static void hdparm_parse(const bl_text *t, bl_parse_out *out)
{
    int64_t run = 0;
    long run_device_line = -2;
    for (size_t i = 0; i < t->nlines; i++) {
        const char *after;
        const hd_kind *kind = timing_kind(t->line[i], &after);
        if (!kind)
            continue;
        hd_figs f;
        long at = figures_of(t, i, after, &f);
        if (at < 0) {
            bl_out_error(out, (long)i + 1, "hdparm timing without its figures");
            continue;
        }
        if (!figures_agree(&f)) {
            bl_out_error(out, at + 1,
                         "hdparm figures disagree: %.0f MB in %.2f s is not %.2f MB/sec", f.mb,
                         f.seconds, f.rate_bytes_s / MIB);
            continue;
        }
        char *dev;
        long dev_line = device_above(t, i, &dev);
        if (dev_line < 0 || dev_line != run_device_line)
            run++;
        run_device_line = dev_line;
        bl_record *r = bl_out_record(out, at + 1);
        r->run = run;
        bl_record_set_str(&r->tool, "hdparm");
        bl_record_set_str(&r->test, kind->test);
        bl_record_set_str(&r->op, "read");
        bl_record_set_str(&r->pattern, "seq");
        r->direct = kind->direct;
        r->iodepth = 1;
        r->numjobs = 1;
        r->io_bytes = (int64_t)llround(f.mb * MIB);
        r->runtime_s = f.seconds;
        r->bw_bytes_s = f.rate_bytes_s;
        if (dev)
            bl_record_set_label(r, "device", dev);
        bl_record_set_label(r, "hdparm_timing", kind->label);
        set_offset_label(r, t->line[i]);
        free(dev);
        for (size_t k = (size_t)at + 1; k < t->nlines && k <= (size_t)at + 2; k++)
            if (strstr(t->line[k], "suspicious results"))
                bl_record_set_str(&r->note, "hdparm: suspicious results (not enough free "
                                            "memory for a proper test)");
    }
}

/* timing_kind needs "Timing " at the start of the line. */
static const char *const hdparm_needles[] = {"Timing ", NULL};

const bl_format bl_format_hdparm = {
    .name = "hdparm",
    .summary = "hdparm -t/-T/--direct read timings under their device line",
    .family = "hdparm",
    .rank = 1,
    .probe = hdparm_probe,
    .parse = hdparm_parse,
    .needles = hdparm_needles,
};
