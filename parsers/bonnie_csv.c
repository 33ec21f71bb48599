/* bonnie++ CSV lines of every generation: 1.0x (host first, 27 fields), 1.96/1.97 (format
 * version first, 48 fields with latencies) and 1.98 from bonnie++ 2.00 (50 fields).
 * Texts that also hold a human table are left to the `bonnie` format, which merges each CSV
 * line into the table row it repeats. */
#include "bonnie_common.h"
#include "bonnie_table.h"
#include "sections.h"
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static int has_table(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (bl_bonnie_table_start(t->line[i]))
            return 1;
    return 0;
}

/* A text with a human table is the bonnie format's; the table is looked for only once a
 * CSV line is found, as most texts have none. */
static int probe(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++) {
        bl_bonnie_run r;
        char err[160];
        if (bl_bonnie_csv_line(t->line[i], (long)i + 1, &r, err, sizeof err) != 0)
            return has_table(t) ? 0 : 80;
    }
    return 0;
}

/* Whether the probe may find a line of its own in the run s with `commas` commas:
 * bl_bonnie_csv_line reads no line of fewer than 5 (6 fields), nor one of fewer than 19
 * that does not start "1.9" or "2.0" after its blanks (the versions that print short lines). */
static int csv_run(const char *s, size_t commas)
{
    if (commas < 5)
        return 0;
    s += strspn(s, " \t");
    return commas >= 19 || strncmp(s, "1.9", 3) == 0 || strncmp(s, "2.0", 3) == 0;
}

/* The bits set in x < 2^16 (without -mpopcnt, __builtin_popcount is a call). */
static size_t bits16(unsigned x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (x + (x >> 8)) & 0x1fu;
}

/* 0 when no line of t can be a CSV line (csv_run), else 1: one pass over the buffer counting
 * each NUL-ended run's commas 16 bytes at a time, where the probe splits every line of fio's
 * output ("IO depths : 1=0.1%, 2=0.1%, ...") at its commas. A run that is no line (after a
 * CR) is looked at too: that only answers 1 more often. */
static int may_claim(const bl_text *t)
{
    if (!bl_text_lines_are_runs(t))
        return 1;
    const char *b = t->buf;
    size_t n = t->len + 1, i = 0, start = 0, commas = 0; /* the last NUL ends the last run */
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(','), nul = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
        unsigned c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma));
        unsigned z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nul));
        for (; z; z &= z - 1) { /* each run that ends in these 16 bytes */
            unsigned at = (unsigned)__builtin_ctz(z), before = (1u << at) - 1;
            commas += c & before ? bits16(c & before) : 0;
            if (csv_run(b + start, commas))
                return 1;
            c &= ~(before | (1u << at));
            start = i + at + 1;
            commas = 0;
        }
        commas += c ? bits16(c) : 0;
    }
#endif
    for (; i < n; i++) {
        if (b[i] == ',')
            commas++;
        else if (b[i] == '\0') {
            if (csv_run(b + start, commas))
                return 1;
            start = i + 1;
            commas = 0;
        }
    }
    return 0;
}

/* Consecutive CSV lines (bonnie++ -x N, or a pasted list) share the heading above the first;
 * the driver alone would give it to the first run only. */
static void parse(const bl_text *t, bl_parse_out *o)
{
    int64_t run = 0;
    size_t prev_end = 0;
    char *section = NULL;
    int in_block = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        bl_bonnie_run r;
        char err[160];
        int rc = bl_bonnie_csv_line(t->line[i], (long)i + 1, &r, err, sizeof err);
        if (rc < 0)
            bl_out_error(o, (long)i + 1, "%s", err);
        if (rc <= 0) {
            if (in_block)
                prev_end = i;
            in_block = 0;
            continue;
        }
        if (!in_block) {
            free(section);
            section = bl_heading_above(t, (long)i + 1, (long)prev_end + 1);
            in_block = 1;
        }
        bl_bonnie_emit(o, &r, ++run, section);
    }
    free(section);
}

const bl_format bl_format_bonnie_csv = {
    .name = "bonnie-csv",
    .summary = "bonnie++ CSV lines (1.0x, 1.96/1.97, 1.98 of bonnie++ 2.00)",
    .family = "bonnie",
    .rank = 1,
    .probe = probe,
    .parse = parse,
    .may_claim = may_claim,
};
