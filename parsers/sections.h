/* Labels from the text around a result: the nearest heading or caption above a block. */
#ifndef BL_SECTIONS_H
#define BL_SECTIONS_H

#include "../core/record.h"
#include "../core/text.h"
#include "parser.h"

/* The heading that stands above line `line` (1-based), in a static-lifetime-free copy the
 * caller frees, or NULL when there is none. `stop_line` is the lowest line to look at
 * (1-based; headings above it belong to an earlier block). */
char *bl_heading_above(const bl_text *t, long line, long stop_line);

/* The line of prose nearest above `line` (down to stop_line) that introduces the block
 * below it: a line ending in a colon alone between blank lines ("After tuning, CSV only:"),
 * without its colon, or NULL. Not a heading: "and hdparm:" continues the set-up above. */
char *bl_intro_above(const bl_text *t, long line, long stop_line);

/* Whether heading h only names the test every record of recs[0..n) ran ("シーケンシャルリード",
 * "Random read 4k"): its words are all of a test's name and agree with each record's pattern,
 * direction and (when it gives one) block size. Such a heading titles a test, not a set-up. */
int bl_heading_names_test(const char *h, bl_record *const *recs, size_t n);

/* Labels each run of out (records grouped by run, in text order) with the nearest heading
 * above it: `section`, or `test_heading` for a heading that only names the run's test. A run
 * with no heading of its own stands under the one of the run above, unless that heading
 * titled another test or named another tool; a record whose parser gave a section keeps it. */
void bl_label_sections(const bl_text *t, bl_parse_out *out);

#endif
