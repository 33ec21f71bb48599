/* The comparison options report, chart, xlsx and compare share: --metric (repeatable),
 * --repeats and --wide. Kept in one group (one getopt entry list, one handler) so that a
 * shared option layer can take them over whole. */
#ifndef BL_CMP_ARGS_H
#define BL_CMP_ARGS_H

#include "../report/table.h"
#include <getopt.h>

enum { BL_CMP_METRIC = 0x1000, BL_CMP_REPEATS, BL_CMP_WIDE };

#define BL_CMP_OPTIONS                                                                             \
    {"metric", required_argument, 0, BL_CMP_METRIC},                                               \
        {"repeats", required_argument, 0, BL_CMP_REPEATS},                                         \
    {                                                                                              \
        "wide", no_argument, 0, BL_CMP_WIDE                                                        \
    }

typedef struct bl_cmp_args {
    bl_metric metrics[BL_M_COUNT]; /* in the order given, each once */
    size_t n_metrics;
    bl_repeats repeats;
    int wide;
} bl_cmp_args;

/* Takes one of the options above; returns 0, or 2 with a usage message for a bad value. */
int bl_cmp_option(bl_cmp_args *a, int opt, const char *value, const char *cmd);
/* $COLUMNS when it is a sensible number, else 120. */
int bl_cmp_term_width(void);
/* Says on stderr which columns are records lacking the --by label. */
void bl_cmp_warn_unlabelled(const bl_table *t, const char *cmd);

#endif
