/* bonnie++ human tables: the fixed-width table of 1.0x, 1.9x and 2.00 (and bon_csv2txt),
 * with Latency rows, and tables re-typed into a page as `| 157586(100) | ... |`.
 *
 * A text that holds a human table usually holds its CSV line too (bonnie++ prints both):
 * this format then reads the CSV lines as well, merges each into the table row it repeats
 * (the CSV has the full host name and unrounded figures) and keeps the others as runs of
 * their own; bonnie-csv claims only texts without a human table, so one run is never
 * given twice. */
#include "bonnie_common.h"
#include "bonnie_table.h"
#include "sections.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int probe(const bl_text *t)
{
    for (size_t i = 0; i < t->nlines; i++)
        if (bl_bonnie_table_start(t->line[i]))
            return 90;
    return 0;
}

typedef struct run_list {
    bl_bonnie_run *v;
    size_t n, cap;
} run_list;

static int same_size(const char *a, const char *b)
{
    size_t la = strcspn(a, ":"), lb = strcspn(b, ":");
    return !*a || !*b || (la == lb && strncmp(a, b, la) == 0);
}

/* The table row that a CSV line repeats: unmatched, above it and close, same host (bonnie++
 * truncates long names in the table), size and figures. A CSV line of a later run of the
 * same machine (b4: "Before tuning" table, "After tuning" CSV) is a run of its own. */
static bl_bonnie_run *find_twin(run_list *rl, const bl_bonnie_run *csv, const char *used)
{
    for (size_t i = 0; i < rl->n; i++) {
        bl_bonnie_run *r = &rl->v[i];
        if (used[i] || r->last_line >= csv->line || csv->line - r->last_line > 40)
            continue;
        if (r->host[0] && strncmp(csv->host, r->host, strlen(r->host)) != 0)
            continue;
        if (!same_size(r->size, csv->size) || !bl_bonnie_same_figures(r, csv))
            continue;
        return r;
    }
    return NULL;
}

/* "bonnie++ 1.03e" said in the prose above a re-typed table gives its version. */
static void version_from_prose(const bl_text *t, size_t upto, char *version, size_t cap)
{
    for (size_t i = upto; i-- > 0;) {
        const char *p = strstr(t->line[i], "bonnie++");
        if (!p)
            continue;
        p += strlen("bonnie++");
        p += strspn(p, " \tvV");
        if (!isdigit((unsigned char)p[0]) || p[1] != '.')
            continue;
        size_t n = strspn(p, "0123456789.abcdefghijklmnopqrstuvwxyz");
        if (n < cap) {
            memcpy(version, p, n);
            version[n] = '\0';
        }
        return;
    }
}

static int cmp_run(const void *a, const void *b)
{
    const bl_bonnie_run *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

static void parse(const bl_text *t, bl_parse_out *o)
{
    run_list rl = {0};
    size_t prev_end = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        if (!bl_bonnie_table_start(t->line[i]))
            continue;
        size_t first = rl.n;
        size_t end = bl_bonnie_table_parse(t, i, o, &rl.v, &rl.n, &rl.cap);
        for (size_t k = first; k < rl.n; k++)
            if (!rl.v[k].version[0])
                version_from_prose(t, i, rl.v[k].version, sizeof rl.v[k].version);
        if (rl.n > first) {
            char *sec = bl_heading_above(t, (long)i + 1, (long)prev_end + 1);
            for (size_t k = first; k < rl.n; k++) {
                free(rl.v[k].section_hint);
                rl.v[k].section_hint = sec ? bl_xstrdup(sec) : NULL;
            }
            free(sec);
        }
        prev_end = end;
        if (end > i)
            i = end - 1;
    }
    char *used = bl_xcalloc(rl.n + 1, 1);
    bl_bonnie_run *extra = NULL;
    size_t nextra = 0, capextra = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        bl_bonnie_run csv;
        char err[160];
        int rc = bl_bonnie_csv_line(t->line[i], (long)i + 1, &csv, err, sizeof err);
        if (rc < 0)
            bl_out_error(o, (long)i + 1, "%s", err);
        if (rc <= 0)
            continue;
        bl_bonnie_run *twin = find_twin(&rl, &csv, used);
        if (twin) {
            used[twin - rl.v] = 1;
            csv.line = twin->line;
            csv.section_hint = twin->section_hint;
            *twin = csv;
        } else {
            void *p = extra;
            bl_grow(&p, &capextra, nextra + 1, sizeof *extra);
            extra = p;
            extra[nextra++] = csv;
        }
    }
    free(used);
    for (size_t i = 0; i < nextra; i++) {
        void *p = rl.v;
        bl_grow(&p, &rl.cap, rl.n + 1, sizeof *rl.v);
        rl.v = p;
        rl.v[rl.n++] = extra[i];
    }
    free(extra);
    if (rl.n)
        qsort(rl.v, rl.n, sizeof *rl.v, cmp_run);
    for (size_t i = 0; i < rl.n; i++) {
        bl_bonnie_emit(o, &rl.v[i], (int64_t)i + 1, rl.v[i].section_hint);
        free(rl.v[i].section_hint);
    }
    free(rl.v);
}

/* bl_bonnie_table_start needs it in both kinds of heading. */
static const char *const bonnie_needles[] = {"Sequential ", NULL};

const bl_format bl_format_bonnie = {
    .name = "bonnie",
    .summary =
        "bonnie++ human table (1.0x, 1.9x, 2.00, bon_csv2txt, re-typed | tables) with its CSV",
    .family = "bonnie",
    .rank = 2,
    .probe = probe,
    .parse = parse,
    .needles = bonnie_needles,
};
