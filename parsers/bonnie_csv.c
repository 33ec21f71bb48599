/* bonnie++ CSV lines of every generation: 1.0x (host first, 27 fields), 1.96/1.97 (format
 * version first, 48 fields with latencies) and 1.98 from bonnie++ 2.00 (50 fields).
 * Texts that also hold a human table are left to the `bonnie` format, which merges each CSV
 * line into the table row it repeats. */
#include "bonnie_common.h"
#include "bonnie_table.h"
#include "sections.h"
#include <stdlib.h>

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
};
