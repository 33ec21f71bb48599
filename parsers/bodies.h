/* Several result bodies of one tool in one text: runs, not repeats, unless the text says so.
 *
 * A heading that only numbers a run ("Run 2", "run 2 of 3", "2nd run", "Pass 1", "2回目") says
 * the bodies below such headings are the same test run again: it is the label `run_heading`,
 * not a `section` that would make each a set-up of its own. Bodies of a tool that prints no
 * command (CrystalDiskMark, KDiskMark) that nothing else tells apart (no heading, the same
 * drive, profile and tests) get `body` = "1/2", "2/2": kept apart, never taken for repeats. */
#ifndef BL_BODIES_H
#define BL_BODIES_H

#include "parser.h"

/* Whether heading h only numbers a run. */
int bl_heading_numbers_run(const char *h);

/* Labels `body` K/N on the bodies of out (records grouped by run) as above. */
void bl_label_bodies(bl_parse_out *out);

#endif
