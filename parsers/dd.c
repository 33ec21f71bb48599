/* dd of GNU coreutils (any locale), busybox, BSD and macOS: the summary line
 *   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s
 *   1073741824 bytes (1.1 GB) copied, 1.70473 s, 630 MB/s      (coreutils < 8.24)
 *   4 bytes copied, 1.00373 s, 0.0 kB/s                         (under 1000 bytes)
 * One line is one run. dd prints its rate rounded to 2-3 digits; the record's bw_bytes_s is
 * bytes / seconds, the same quantity to the precision of the two exact figures. The
 * direction comes from the command line when it is in the text above (of=/dev/null reads,
 * if=/dev/zero writes); otherwise the test is "seq-copy". */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct dd_line {
    double bytes, seconds, rate;
    int negative;       /* a figure of the line carries a minus sign */
    int whole_seconds;  /* seconds printed without decimals, as status=progress does */
    double paren_bytes; /* the "(1.1 GB, ...)" figure, or 0 */
} dd_line;

/* What each line of the text is to dd. */
enum { DD_OTHER, DD_SUMMARY, DD_PROGRESS, DD_RECORDS, DD_BLANK };

static const char *next_digit(const char *p)
{
    while (*p && !isdigit((unsigned char)*p))
        p++;
    return p;
}

/* dd's seconds word in the locales it is translated to, and BSD's "secs". */
static int seconds_word(const char *p)
{
    static const char *const words[] = {"seconds", "secs", "sec", "s", "秒", "с", "sek", "saniye"};
    while (*p == ' ')
        p++;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (strncmp(p, words[i], n) == 0 && (p[n] == '\0' || p[n] == ',' || p[n] == ' ' ||
                                             (unsigned char)p[n] >= 0x80 || p[n] == ')'))
            return 1;
    }
    return 0;
}

/* "1.1 GB" or "2,1 GB" or "8.0MB" in the parentheses, in bytes; 0 when the unit is not one
 * of these (a translated unit is then simply not checked). */
static double paren_size(const char *p)
{
    const char *e;
    double x;
    int flags = 0;
    const char *q = p + strspn(p, "0123456789");
    if (*q == ',' && isdigit((unsigned char)q[1]))
        flags = BL_DECIMAL_COMMA;
    if (!bl_parse_number(p, flags, &x, &e))
        return 0;
    e += strspn(e, " ");
    static const char prefixes[] = "kKMGTPE";
    const char *k = *e ? strchr(prefixes, *e) : NULL;
    int power = !k ? 0 : k - prefixes < 2 ? 1 : (int)(k - prefixes);
    e += power > 0;
    double base = *e == 'i' ? 1024 : 1000, mult = 1;
    e += *e == 'i';
    for (int i = 0; i < power; i++)
        mult *= base;
    return *e == 'B' ? x * mult : 0;
}

/* The summary line in any locale and dialect: bytes first (after the translated "copied"
 * in Ukrainian), then an optional "(1.1 GB, 1.0 GiB)", then the seconds and the rate:
 *   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s        GNU, C locale
 *   10737418240 バイト (11 GB) コピーされました、 16.747 秒、 641 MB/秒        GNU, ja
 *   2147483648 Bytes (2,1 GB, 2,0 GiB) kopiert, 0,0444149 s, 48,4 GB/s     GNU, de
 *   8388608 bytes (8.0MB) copied, 10.029590 seconds, 816.8KB/s             busybox
 *   8192000000 bytes transferred in 159.062003 secs (51501929 bytes/sec)   BSD, macOS
 * status=progress lines (joined by carriage returns) are not summaries. */
static int dd_summary(const char *s, dd_line *d)
{
    if (strchr(s, '\r'))
        return 0;
    const char *p = s, *b = NULL, *seen = s;
    int depth = 0; /* the byte count never stands inside "(67 MB, 64 MiB)" */
    for (p = next_digit(p); *p; p = next_digit(p)) {
        for (; seen < p; seen++)
            depth += (*seen == '(') - (*seen == ')');
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (depth <= 0 && (p == s || p[-1] == ' ' || p[-1] == '-') && *q == ' ' && q[1] &&
            !isdigit((unsigned char)q[1]) && q[1] != '+') {
            b = p;
            break;
        }
        p = q;
    }
    if (!b)
        return 0;
    if (strncmp(b + strspn(b, "0123456789"), " MB in ", 7) == 0)
        return 0; /* hdparm's "440 MB in 3.01 seconds = 146.42 MB/sec" */
    const char *e;
    if (!bl_parse_number(b, 0, &d->bytes, &e))
        return 0;
    d->negative = b > s && b[-1] == '-';
    const char *t = next_digit(e);
    const char *open = memchr(e, '(', (size_t)(t - e));
    d->paren_bytes = 0;
    if (open && *t) {
        const char *close = strchr(t, ')');
        if (!close)
            return 0;
        d->paren_bytes = paren_size(t);
        t = next_digit(close);
    }
    if (!*t)
        return 0;
    const char *te = t;
    while (isdigit((unsigned char)*te))
        te++;
    int flags = (*te == ',' && isdigit((unsigned char)te[1])) ? BL_DECIMAL_COMMA : 0;
    if (!bl_parse_number(t, flags, &d->seconds, &e) || !seconds_word(e))
        return 0;
    d->whole_seconds = e == te;
    d->negative |= t[-1] == '-';
    const char *r = next_digit(e);
    if (!*r)
        return 0;
    d->negative |= r[-1] == '-';
    return bl_parse_bandwidth(r, BL_SI | flags, &d->rate, NULL);
}

static const char *arg_value(const char *cmd, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strstr(cmd, key); p; p = strstr(p + 1, key))
        if (p == cmd || p[-1] == ' ')
            return p + n;
    return NULL;
}

static char *arg_copy(const char *v)
{
    return v ? bl_xstrndup(v, strcspn(v, " \t")) : NULL;
}

/* The dd command line above the summary, if any: up to 6 lines of other text, any number of
 * its own progress and "records in/out" lines. */
static const char *dd_command_above(const bl_text *t, const unsigned char *kind, size_t i)
{
    size_t other = 0;
    for (size_t k = i; k > 0 && other < 6; k--) {
        if (kind[k - 1] == DD_SUMMARY)
            return NULL; /* the previous run's output: its command is not ours */
        if (kind[k - 1] != DD_OTHER)
            continue;
        other++;
        const char *s = t->line[k - 1];
        const char *dd = strstr(s, "dd ");
        if (dd && (dd == s || !isalnum((unsigned char)dd[-1])) &&
            (strstr(dd, "if=") || strstr(dd, "of=")))
            return dd;
    }
    return NULL;
}

/* dd's block size suffixes: c=1 w=2 b=512 kB=1000 K=1024 MB=10^6 M=2^20 ... */
static int64_t dd_size(const char *v)
{
    double n;
    const char *e;
    if (!v || !bl_parse_number(v, 0, &n, &e))
        return -1;
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {{"kB", 1e3},         {"MB", 1e6}, {"GB", 1e9}, {"KiB", 1024},  {"MiB", 1048576},
                 {"GiB", 1073741824}, {"k", 1024}, {"K", 1024}, {"M", 1048576}, {"G", 1073741824},
                 {"b", 512},          {"w", 2},    {"c", 1}};
    double mult = 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strncmp(e, units[i].suffix, strlen(units[i].suffix)) == 0) {
            mult = units[i].mult;
            break;
        }
    }
    int64_t bytes;
    return bl_to_count(n * mult, &bytes) ? bytes : -1;
}

static void label_from_command(bl_record *r, const char *cmd)
{
    char *in = arg_copy(arg_value(cmd, "if=")), *out = arg_copy(arg_value(cmd, "of="));
    const char *test = "seq-copy", *op = NULL;
    if (out && strcmp(out, "/dev/null") == 0)
        test = "seq-read", op = "read";
    else if (in && (strncmp(in, "/dev/zero", 9) == 0 || strncmp(in, "/dev/urandom", 12) == 0 ||
                    strncmp(in, "/dev/random", 11) == 0))
        test = "seq-write", op = "write";
    bl_record_set_str(&r->test, test);
    bl_record_set_str(&r->op, op);
    static const char *const keys[] = {"if=", "of=", "bs=", "count=", "oflag=", "iflag=", "conv="};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char *v = arg_copy(arg_value(cmd, keys[i]));
        if (!v)
            continue;
        char k[16];
        snprintf(k, sizeof k, "dd_%.*s", (int)strlen(keys[i]) - 1, keys[i]);
        bl_record_set_label(r, k, v);
        free(v);
    }
    r->bs = dd_size(arg_value(cmd, "bs="));
    const char *flags = arg_value(cmd, "oflag=");
    if (!flags)
        flags = arg_value(cmd, "iflag=");
    if (flags && strncmp(flags, "direct", 6) == 0)
        r->direct = BL_TRUE;
    free(in);
    free(out);
}

/* The shell's `time` report after a dd ("real 0m16.749s", bash and BSD layouts): kept as
 * labels, since it includes the sync that dd's own time may not. */
static void label_time(bl_record *r, const bl_text *t, size_t i)
{
    static const char *const keys[] = {"real", "user", "sys"};
    for (size_t k = i + 1; k < t->nlines && k <= i + 6; k++) {
        const char *s = t->line[k];
        s += strspn(s, " \t");
        for (size_t j = 0; j < 3; j++) {
            size_t n = strlen(keys[j]);
            if (strncmp(s, keys[j], n) != 0 || (s[n] != ' ' && s[n] != '\t'))
                continue;
            const char *v = s + n + strspn(s + n, " \t");
            if (isdigit((unsigned char)*v)) {
                char key[16];
                snprintf(key, sizeof key, "time_%s", keys[j]);
                bl_record_set_label(r, key, v);
            }
        }
        dd_line d;
        if (dd_summary(t->line[k], &d))
            break;
    }
}

/* "1500+0 records in": full and partial records, then words (any locale). The line may
 * start with data dd copied to the same terminal ("abcd0+2 records in"). */
static int records_line(const char *s)
{
    const char *p = next_digit(s);
    if (!*p)
        return 0;
    p += strspn(p, "0123456789");
    if (*p++ != '+' || !isdigit((unsigned char)*p))
        return 0;
    p += strspn(p, "0123456789");
    return *p == ' ' && p[1] && !isdigit((unsigned char)p[1]);
}

static size_t next_nonblank(const unsigned char *kind, size_t n, size_t i)
{
    while (i < n && kind[i] == DD_BLANK)
        i++;
    return i;
}

/* status=progress lines pasted one a line (the carriage returns became newlines): a summary
 * with whole seconds that the same transfer's next summary or its "records in" line follows,
 * not one that a "records out" line announces. Each becomes DD_PROGRESS. */
static void mark_progress(unsigned char *kind, const dd_line *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (kind[i] != DD_SUMMARY || !d[i].whole_seconds)
            continue;
        size_t above = i;
        while (above > 0 && kind[above - 1] == DD_BLANK)
            above--;
        if (above > 0 && kind[above - 1] == DD_RECORDS)
            continue;
        size_t j = next_nonblank(kind, n, i + 1);
        if (j < n && (kind[j] == DD_RECORDS || (kind[j] == DD_SUMMARY && d[j].bytes >= d[i].bytes &&
                                                d[j].seconds >= d[i].seconds)))
            kind[i] = DD_PROGRESS;
    }
}

/* Each line's kind and, for summaries, its figures. The caller frees both arrays. */
static unsigned char *classify(const bl_text *t, dd_line **figures)
{
    unsigned char *kind = bl_xmalloc(t->nlines + 1);
    dd_line *d = bl_xcalloc(t->nlines + 1, sizeof *d);
    for (size_t i = 0; i < t->nlines; i++) {
        const char *s = t->line[i];
        if (dd_summary(s, &d[i]))
            kind[i] = DD_SUMMARY;
        else if (records_line(s))
            kind[i] = DD_RECORDS;
        else
            kind[i] = s[strspn(s, " \t")] ? DD_OTHER : DD_BLANK;
    }
    mark_progress(kind, d, t->nlines);
    *figures = d;
    return kind;
}

/* Why the figures of one summary cannot all be true, or NULL. dd derives the human size and
 * the "(1.1 GB, 1.0 GiB)" from the same exact count, so they agree far better than by a factor 2.
 */
static const char *impossible(const dd_line *d)
{
    int64_t bytes;
    if (d->negative)
        return "a negative figure";
    if (!bl_to_count(d->bytes, &bytes) || !(d->seconds >= 0) || isinf(d->seconds))
        return "a byte count or time out of range";
    if (d->paren_bytes > 0 && (d->paren_bytes > 2 * d->bytes || 2 * d->paren_bytes < d->bytes))
        return "a byte count its own size in parentheses contradicts";
    return NULL;
}

static int dd_probe(const bl_text *t)
{
    dd_line d;
    for (size_t i = 0; i < t->nlines; i++)
        if (dd_summary(t->line[i], &d))
            return 80;
    return 0;
}

static void dd_record(const bl_text *t, const unsigned char *kind, const dd_line *d, size_t i,
                      int64_t run, bl_parse_out *out)
{
    bl_record *r = bl_out_record(out, (long)i + 1);
    r->run = run;
    bl_record_set_str(&r->tool, "dd");
    bl_record_set_str(&r->pattern, "seq");
    r->io_bytes = (int64_t)d->bytes;
    r->runtime_s = d->seconds;
    r->bw_bytes_s = d->seconds > 0 ? d->bytes / d->seconds : d->rate;
    r->iodepth = 1;
    r->numjobs = 1;
    const char *cmd = dd_command_above(t, kind, i);
    if (cmd)
        label_from_command(r, cmd);
    else
        bl_record_set_str(&r->test, "seq-copy");
    label_time(r, t, i);
    if (i > 0 && kind[i - 1] == DD_PROGRESS)
        bl_record_set_str(&r->note, "dd's last status=progress line: the final summary is "
                                    "not in the text (time in whole seconds)");
    if (d->seconds <= 0)
        bl_out_error(out, (long)i + 1, "dd reports a time of 0 s; the rate is dd's own");
}

static void dd_parse(const bl_text *t, bl_parse_out *out)
{
    dd_line *d;
    unsigned char *kind = classify(t, &d);
    int64_t run = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        if (kind[i] != DD_SUMMARY)
            continue;
        const char *why = impossible(&d[i]);
        if (why)
            bl_out_error(out, (long)i + 1, "dd summary with %s; not a record", why);
        else
            dd_record(t, kind, &d[i], i, ++run, out);
    }
    free(kind);
    free(d);
}

const bl_format bl_format_dd = {
    .name = "dd",
    .summary = "dd summary lines: GNU (any locale, status=progress), busybox, BSD/macOS",
    .family = "dd",
    .rank = 1,
    .probe = dd_probe,
    .parse = dd_parse,
};
