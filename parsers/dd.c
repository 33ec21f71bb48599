/* dd of GNU coreutils (any locale), busybox, BSD and macOS: the summary line
 *   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.70473 s, 630 MB/s
 *   1073741824 bytes (1.1 GB) copied, 1.70473 s, 630 MB/s      (coreutils < 8.24)
 *   4 bytes copied, 1.00373 s, 0.0 kB/s                         (under 1000 bytes)
 * One line is one run. dd prints its rate rounded to 2-3 digits; the record's bw_bytes_s is
 * bytes / seconds, the same quantity to the precision of the two exact figures. A line whose
 * printed rate falls outside what its bytes and seconds allow (one unit of the last printed
 * digit of each) was retyped or damaged: refused with its line. The direction comes from the
 * command line when it is in the text above (of=/dev/null reads, if=/dev/zero writes);
 * otherwise the test is "seq-copy". Its bs= is checked against the "N+0 records out" line
 * (N x bs = bytes) or count= (bytes <= count x bs); a contradiction drops bs with a note.
 * FreeBSD's status=progress line ("3145728000 bytes (3146 MB, 3000 MiB) transferred 3.002s,
 * 1048 MB/s") is progress like GNU's. sysbench's "67108864 bytes written in 0.18 seconds (350.60
 * MiB/sec)." (fileio prepare creating its files) is no dd line. */
#include "../core/strbuf.h"
#include "../core/units.h"
#include "dd_size.h"
#include "parser.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dd_line {
    double bytes, seconds, rate;
    double seconds_step, rate_step; /* one unit of the last printed digit (s, bytes/s) */
    int negative;                   /* a figure of the line carries a minus sign */
    int whole_seconds;              /* seconds printed without decimals, as status=progress does */
    int bsd;                        /* "bytes transferred in": BSD's dd, whose bs suffixes differ */
    int bsd_progress;   /* "bytes (...) transferred 3.002s": FreeBSD's status=progress */
    double paren_bytes; /* the "(1.1 GB, ...)" figure, or 0 */
} dd_line;

/* What each line of the text is to dd. */
enum { DD_OTHER, DD_SUMMARY, DD_PROGRESS, DD_RECORDS, DD_BLANK };

static const char *next_digit(const char *p)
{
    return p + strcspn(p, "0123456789"); /* isdigit's set in every locale */
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

/* One unit of the last digit of the number printed in [p, e): 0.01 for "4.50", 1 for "630". */
static double last_digit_unit(const char *p, const char *e)
{
    const char *sep = NULL;
    for (const char *q = p; q < e; q++)
        if (*q == '.' || *q == ',')
            sep = q;
        else if (!isdigit((unsigned char)*q))
            return 1; /* "1e-05": no digit count to trust, the widest step */
    return sep ? pow(10, -(double)(e - sep - 1)) : 1;
}

/* The rate at r and one unit of its last digit in bytes/s. GNU prints "630 MB/s" (SI, a space
 * before the unit); busybox "816.8KB/s" (no space: its K is 1024); BSD "(51501929 bytes/sec)";
 * toybox (Android, QNX) "31 M/s" (M = MiB). */
static int read_rate(const char *r, int flags, dd_line *d)
{
    double x;
    const char *e;
    if (!bl_parse_number(r, flags, &x, &e))
        return 0;
    /* toybox prints "31 M/s": a space, then K/M/G alone, of powers of 1024 (human_readable) */
    int toybox = *e == ' ' && strchr("KMGTPE", e[1]) && e[1] && strncmp(e + 2, "/s", 2) == 0;
    int kilo = isalpha((unsigned char)*e) || toybox ? BL_BINARY : BL_SI;
    if (!bl_parse_bandwidth(r, kilo | flags, &d->rate, NULL))
        return 0;
    double unit = x > 0 ? d->rate / x : 0;
    if (!(x > 0)) { /* "0.0 kB/s": the unit from "1 kB/s" */
        char one[32];
        snprintf(one, sizeof one, "1%.*s", (int)strnlen(e, sizeof one - 2), e);
        if (!bl_parse_bandwidth(one, kilo | flags, &unit, NULL))
            unit = 1;
    }
    d->rate_step = last_digit_unit(r, e) * unit;
    return 1;
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
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        int word = (*q == ' ' && q[1] && !isdigit((unsigned char)q[1]) && q[1] != '+') ||
                   (unsigned char)*q >= 0xC0; /* zh_CN of CentOS 6/7: "1073741824字节" */
        if (!word || !(p == s || p[-1] == ' ' || p[-1] == '-')) {
            p = q;
            continue; /* no candidate: the depth is counted up to where one is */
        }
        for (; seen < p; seen++)
            depth += (*seen == '(') - (*seen == ')');
        if (depth <= 0) {
            b = p;
            break;
        }
        p = q;
    }
    if (!b)
        return 0;
    if (strncmp(b + strspn(b, "0123456789"), " MB in ", 7) == 0)
        return 0; /* hdparm's "440 MB in 3.01 seconds = 146.42 MB/sec" */
    if (strncmp(b + strspn(b, "0123456789"), " bytes written in ", 18) == 0)
        return 0; /* sysbench fileio prepare's file creation, not a result */
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
    d->seconds_step = last_digit_unit(t, e);
    d->negative |= t[-1] == '-';
    d->bsd = strstr(s, " transferred in ") != NULL;
    d->bsd_progress = !d->bsd && t - s >= 12 && strncmp(t - 12, "transferred ", 12) == 0;
    const char *r = next_digit(e);
    if (!*r)
        return 0;
    d->negative |= r[-1] == '-';
    return read_rate(r, flags, d);
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

static void label_from_command(bl_record *r, const char *cmd, int bsd)
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
    r->bs = bl_dd_size(arg_value(cmd, "bs="), bsd);
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
 * with whole seconds (GNU) or in FreeBSD's progress form that the same transfer's next
 * summary or its "records in" line follows, not one that a "records out" line announces
 * (FreeBSD's form never ends a run). Each becomes DD_PROGRESS. */
static void mark_progress(unsigned char *kind, const dd_line *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (kind[i] != DD_SUMMARY || !(d[i].whole_seconds || d[i].bsd_progress))
            continue;
        size_t above = i;
        while (above > 0 && kind[above - 1] == DD_BLANK)
            above--;
        if (above > 0 && kind[above - 1] == DD_RECORDS && !d[i].bsd_progress)
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

/* Whether the printed rate is bytes / seconds to the precision of the three printed figures:
 * each may be off by one unit of its last digit (dd rounds, progress lines truncate), and
 * 0.1% more for a time taken from another clock reading than the rate's (pasted BSD lines
 * differ in the 7th digit); a retyped figure is off by far more. */
enum { RATE_SLACK_PPM = 1000 };

static int rate_fits(const dd_line *d)
{
    if (!(d->seconds > 0))
        return 1;
    double slack = RATE_SLACK_PPM * 1e-6;
    double lo = d->bytes / (d->seconds + d->seconds_step) * (1 - slack) - d->rate_step;
    double hi = d->seconds > d->seconds_step ? d->bytes / (d->seconds - d->seconds_step) : INFINITY;
    return d->rate >= lo && d->rate <= hi * (1 + slack) + d->rate_step;
}

/* uutils dd prints 1000 x (bytes / whole milliseconds) in integers: "0 B/s" for fewer bytes
 * than milliseconds, which its printed digits alone do not allow. A printed 0 is then any rate
 * under 1000 bytes/s. */
static int zero_rate_of_slow_bytes(const dd_line *d)
{
    return d->rate == 0 && d->seconds > 0 && d->bytes / d->seconds < 1000 && !rate_fits(d);
}

static int rate_agrees(const dd_line *d)
{
    return rate_fits(d) || zero_rate_of_slow_bytes(d);
}

/* Whether s has what every summary has: a digit, blanks and a seconds word (seconds_word's
 * words start with 's', or with the first byte of "秒" or "с"). Most lines of other tools'
 * outputs have none, and are then not read as summaries, which costs far more. */
static int seconds_after_digit(const char *s)
{
    for (const char *w = s; (w = strpbrk(w, "s\xe7\xd1")); w++) {
        const char *p = w;
        while (p > s && p[-1] == ' ')
            p--;
        if (p > s && isdigit((unsigned char)p[-1]))
            return 1;
    }
    return 0;
}

static int dd_probe(const bl_text *t)
{
    dd_line d;
    for (size_t i = 0; i < t->nlines; i++)
        if (seconds_after_digit(t->line[i]) && dd_summary(t->line[i], &d))
            return 80;
    return 0;
}

static void add_note(bl_record *r, const char *note)
{
    if (!r->note) {
        bl_record_set_str(&r->note, note);
        return;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s; %s", r->note, note);
    char *both = bl_strbuf_take(&sb);
    bl_record_set_str(&r->note, both);
    free(both);
    bl_strbuf_free(&sb);
}

/* The "N+M records out" line right above summary i: N in *full, M in *partial; 0 if none. */
static int records_above(const bl_text *t, const unsigned char *kind, size_t i, double *full,
                         double *partial)
{
    while (i > 0 && kind[i - 1] == DD_BLANK)
        i--;
    if (i == 0 || kind[i - 1] != DD_RECORDS)
        return 0;
    const char *e, *p = next_digit(t->line[i - 1]);
    return bl_parse_number(p, 0, full, &e) && *e == '+' && bl_parse_number(e + 1, 0, partial, NULL);
}

/* bs= of the command against the bytes the summary counts: N full records out and none
 * partial are N x bs bytes; without that line, count= input blocks give at most count x bs.
 * When count= and the records line agree on N, the byte count is the odd one out and the
 * summary cannot be trusted (BLOCKS_REFUSE); otherwise the command line may be another run's
 * or its suffix another dialect's, and bs is dropped with a note (BLOCKS_NOTE). */
enum { BLOCKS_OK, BLOCKS_NOTE, BLOCKS_REFUSE };

static int check_blocks(const bl_text *t, const unsigned char *kind, size_t i, const char *cmd,
                        const dd_line *d, char *msg, size_t cap)
{
    double bs = (double)bl_dd_size(arg_value(cmd, "bs="), d->bsd), full, partial, n = -1;
    char *count = arg_copy(arg_value(cmd, "count=")), *iflag = arg_copy(arg_value(cmd, "iflag="));
    double blocks =
        count && !(iflag && strstr(iflag, "count_bytes")) ? (double)bl_dd_size(count, d->bsd) : -1;
    const char *how = "";
    int verdict = BLOCKS_OK;
    if (bs <= 0) {
    } else if (records_above(t, kind, i, &full, &partial)) {
        how = "full records out", n = full;
        if (partial == 0 && full * bs != d->bytes)
            verdict = blocks == full ? BLOCKS_REFUSE : BLOCKS_NOTE;
    } else if (blocks > 0 && d->bytes > blocks * bs) {
        how = "blocks of count= at most", n = blocks;
        verdict = BLOCKS_NOTE;
    }
    if (verdict != BLOCKS_OK) {
        char *bsv = arg_copy(arg_value(cmd, "bs="));
        snprintf(msg, cap, "dd's bs=%s x %.0f %s = %.0f bytes, but the summary says %.0f%s", bsv, n,
                 how, n * bs, d->bytes,
                 verdict == BLOCKS_NOTE ? ": bs not kept" : " (retyped or damaged), not a record");
        free(bsv);
    }
    free(count);
    free(iflag);
    return verdict;
}

/* blocks_note: why bs= cannot be kept, or NULL. */
static void dd_record(const bl_text *t, const unsigned char *kind, const dd_line *d, size_t i,
                      int64_t run, const char *blocks_note, bl_parse_out *out)
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
        label_from_command(r, cmd, d->bsd);
    else
        bl_record_set_str(&r->test, "seq-copy");
    label_time(r, t, i);
    if (blocks_note) {
        r->bs = -1;
        add_note(r, blocks_note);
        bl_out_warn(out, (long)i + 1, "%s", blocks_note);
    }
    if (d->bsd_progress || (i > 0 && kind[i - 1] == DD_PROGRESS))
        add_note(r, d->whole_seconds ? "dd's last status=progress line: the final summary is not "
                                       "in the text (time in whole seconds)"
                                     : "dd's last status=progress line: the final summary is not "
                                       "in the text");
    if (d->seconds <= 0)
        bl_out_error(out, (long)i + 1, "dd reports a time of 0 s; the rate is dd's own");
    else if (zero_rate_of_slow_bytes(d))
        add_note(r, "dd printed a rate of 0 (under 1000 bytes/s, as uutils dd rounds); the rate is "
                    "bytes / seconds");
}

static void dd_checked_record(const bl_text *t, const unsigned char *kind, const dd_line *d,
                              size_t i, int64_t *run, bl_parse_out *out)
{
    const char *cmd = dd_command_above(t, kind, i);
    char msg[256];
    int v = cmd ? check_blocks(t, kind, i, cmd, d, msg, sizeof msg) : BLOCKS_OK;
    if (v == BLOCKS_REFUSE)
        bl_out_error(out, (long)i + 1, "%s", msg);
    else
        dd_record(t, kind, d, i, ++*run, v == BLOCKS_NOTE ? msg : NULL, out);
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
        else if (!rate_agrees(&d[i]))
            bl_out_error(out, (long)i + 1,
                         "dd summary whose rate (%.0f bytes/s as printed) contradicts its own "
                         "%.0f bytes in %g s (%.0f bytes/s): retyped or damaged, not a record",
                         d[i].rate, d[i].bytes, d[i].seconds, d[i].bytes / d[i].seconds);
        else
            dd_checked_record(t, kind, &d[i], i, &run, out);
    }
    free(kind);
    free(d);
}

/* Between two summaries: the one above is no status=progress line (its kind depends on the
 * line below), a command or a records line is looked for above a summary only up to the
 * summary before, and a `time` report below one stops at the next summary. */
static int dd_cut_after(const char *line, const char *next)
{
    dd_line a = {0}, b = {0};
    return dd_summary(line, &a) && !a.whole_seconds && !a.bsd_progress && dd_summary(next, &b);
}

const bl_format bl_format_dd = {
    .name = "dd",
    .summary = "dd summary lines: GNU (any locale, status=progress), busybox, BSD/macOS",
    .family = "dd",
    .rank = 1,
    .probe = dd_probe,
    .parse = dd_parse,
    .cut_after = dd_cut_after,
};
