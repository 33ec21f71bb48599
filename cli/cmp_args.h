/* The comparison options report, chart, xlsx and compare share: --metric (repeatable),
 * --repeats and --wide, as entries of the shared option layer (options.h): a command puts
 * BL_CMP_OPTS(&args) in its table. */
#ifndef BL_CMP_ARGS_H
#define BL_CMP_ARGS_H

#include "../compare/table.h"
#include "options.h"

typedef struct bl_cmp_args {
    bl_metric metrics[BL_M_COUNT]; /* in the order given, each once */
    size_t n_metrics;
    bl_repeats repeats;
    int wide;
} bl_cmp_args;

/* --metric NAME and --repeats HOW into a bl_cmp_args; -1 with err for a bad value. */
int bl_cmp_opt_metric(void *cmp, const char *arg, char *err, size_t errlen);
int bl_cmp_opt_repeats(void *cmp, const char *arg, char *err, size_t errlen);

#define BL_CMP_OPT_METRIC(a)                                                                       \
    BL_OPT_FN(0, "metric", a, "NAME",                                                              \
              "show this figure per set-up: bw, iops, lat, p50, p99, p99.9, value\n"               \
              "(repeatable; latency is lat, else clat, as the footnote says)",                     \
              bl_cmp_opt_metric)
#define BL_CMP_OPT_REPEATS(a)                                                                      \
    BL_OPT_FN(0, "repeats", a, "HOW", "combine repeats by mean (default), median, best or all",    \
              bl_cmp_opt_repeats)
#define BL_CMP_OPT_WIDE(a)                                                                         \
    BL_OPT_BOOL(0, "wide", &(a)->wide,                                                             \
                "one table however wide (default: blocks that fit $COLUMNS, else\n"                \
                "120 columns, each repeating the test column)")
#define BL_CMP_OPTS(a) BL_CMP_OPT_METRIC(a), BL_CMP_OPT_REPEATS(a), BL_CMP_OPT_WIDE(a)

/* --by LABEL[,LABEL...], repeatable: the names appended, comma-joined, to a char[BL_BY_MAX]
 * ("proto,net": one column per pair of values). "run" stands alone. */
#define BL_BY_MAX 512
int bl_cmp_opt_by(void *buf, const char *arg, char *err, size_t errlen);
#define BL_CMP_OPT_BY(buf, h) BL_OPT_FN(0, "by", buf, "LABEL[,LABEL]", h, bl_cmp_opt_by)
#define BL_CMP_BY(buf) ((buf)[0] ? (const char *)(buf) : NULL)

/* $COLUMNS when it is a sensible number, else 120. */
int bl_cmp_term_width(void);
/* Says on stderr which columns are records lacking the --by label. */
void bl_cmp_warn_unlabelled(const bl_table *t, const char *cmd);

#endif
