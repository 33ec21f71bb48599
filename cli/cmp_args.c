#include "cmp_args.h"
#include "../core/strbuf.h"
#include "args.h"
#include "global.h"
#include "say.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bl_cmp_opt_repeats(void *cmp, const char *arg, char *err, size_t errlen)
{
    bl_cmp_args *a = cmp;
    int r = bl_repeats_from_name(arg);
    if (r < 0) {
        snprintf(err, errlen, "--repeats wants mean, median, best or all, not '%s'", arg);
        return -1;
    }
    a->repeats = (bl_repeats)r;
    return 0;
}

int bl_cmp_opt_metric(void *cmp, const char *arg, char *err, size_t errlen)
{
    bl_cmp_args *a = cmp;
    int m = bl_metric_from_name(arg);
    if (m < 0 || m == BL_M_CPU) {
        snprintf(err, errlen, "--metric wants bw, iops, lat, p50, p99, p99.9 or value, not '%s'",
                 arg);
        return -1;
    }
    for (size_t i = 0; i < a->n_metrics; i++)
        if (a->metrics[i] == (bl_metric)m)
            return 0;
    a->metrics[a->n_metrics++] = (bl_metric)m;
    return 0;
}

int bl_cmp_opt_by(void *buf, const char *arg, char *err, size_t errlen)
{
    char *by = buf;
    size_t len = strlen(by);
    if (len + 1 + strlen(arg) >= BL_BY_MAX) {
        snprintf(err, errlen, "--by: too many labels");
        return -1;
    }
    snprintf(by + len, BL_BY_MAX - len, "%s%s", len ? "," : "", arg);
    size_t names = 0;
    int run = 0;
    for (const char *p = by;; p++) {
        size_t n = strcspn(p, ",");
        if (n == 0) {
            snprintf(err, errlen, "--by wants LABEL or LABEL,LABEL..., not '%s'", arg);
            return -1;
        }
        names++;
        run |= n == 3 && strncmp(p, "run", 3) == 0;
        p += n;
        if (!*p)
            break;
    }
    if (run && names > 1) {
        snprintf(err, errlen, "--by run gives one column per run and takes no other label");
        return -1;
    }
    return 0;
}

int bl_cmp_term_width(void)
{
    const char *c = getenv("COLUMNS");
    long w = c ? strtol(c, NULL, 10) : 0;
    return w >= 40 && w <= 100000 ? (int)w : 120;
}

void bl_cmp_warn_unlabelled(const bl_table *t, const char *cmd)
{
    if (!t->n_unlabelled || bl_quiet())
        return;
    fprintf(stderr, "benchlog %s: %s lack%s the label '%s'; not pooled, each is its own column:\n",
            cmd, bl_count(t->n_unlabelled, "set-up").s, t->n_unlabelled == 1 ? "s" : "", t->by);
    for (size_t j = 0; j < t->ncols; j++)
        if (t->cols[j].unlabelled)
            fprintf(stderr, "  %s\n", t->cols[j].title);
}
