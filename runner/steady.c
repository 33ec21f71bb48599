#include "steady.h"
#include "../core/strbuf.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bl_ss_parse(const char *v, bl_ss_opts *o, char *err, size_t n)
{
    static const struct {
        const char *name;
        bool bw, slope;
    } kinds[] = {{"iops", 0, 0}, {"bw", 1, 0}, {"iops_slope", 0, 1}, {"bw_slope", 1, 1}};
    const char *colon = v ? strchr(v, ':') : NULL;
    size_t len = colon ? (size_t)(colon - v) : 0;
    for (size_t i = 0; colon && i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strlen(kinds[i].name) != len || strncmp(v, kinds[i].name, len) != 0)
            continue;
        char *end;
        double x = strtod(colon + 1, &end);
        bool pct = *end == '%';
        if (end == colon + 1 || (pct ? end[1] != '\0' : *end != '\0') || !(x >= 0) ||
            !isfinite(x)) {
            snprintf(err, n, "'%s': the limit is a number, or a percentage with %%", v);
            return -1;
        }
        o->on = true;
        o->bw = kinds[i].bw;
        o->slope = kinds[i].slope;
        o->pct = pct;
        o->limit = x;
        return 0;
    }
    snprintf(err, n,
             "'%s' is not iops:X, bw:X, iops_slope:X or bw_slope:X (X%% for a share of "
             "the mean)",
             v ? v : "");
    return -1;
}

const char *bl_ss_name(const bl_ss_opts *o, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s:%g%s", o->bw ? "bw" : "iops", o->slope ? "_slope" : "", o->limit,
             o->pct ? "%" : "");
    return buf;
}

bool bl_ss_add(bl_ss *s, const bl_ss_opts *o, double value, double t_s)
{
    int dur = o->dur_s;
    if (!s->v)
        s->v = bl_xcalloc((size_t)dur, sizeof *s->v);
    if (s->n == dur) {
        memmove(s->v, s->v + 1, (size_t)(dur - 1) * sizeof *s->v);
        s->v[dur - 1] = value;
    } else
        s->v[s->n++] = value;
    if (s->n < dur)
        return false;
    double sum = 0;
    for (int i = 0; i < dur; i++)
        sum += s->v[i];
    double mean = sum / dur, c;
    if (o->slope) {
        /* least squares over x = 0 .. dur-1 seconds, as fio (equal spacing assumed) */
        double sx = dur * (dur - 1) / 2.0, sxx = (dur - 1.0) * dur * (2.0 * dur - 1) / 6.0, sxy = 0;
        for (int i = 0; i < dur; i++)
            sxy += i * s->v[i];
        c = (sxy - sx * sum / dur) / (sxx - sx * sx / dur);
    } else {
        c = 0;
        for (int i = 0; i < dur; i++)
            c = fmax(c, fabs(s->v[i] - mean));
    }
    if (o->pct)
        c = mean > 0 ? 100.0 * c / mean : INFINITY;
    s->criterion = c;
    if (fabs(c) < o->limit) {
        s->attained = true;
        s->at_s = t_s;
    }
    return s->attained;
}

void bl_ss_free(bl_ss *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}
