#include "dist.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio computes zeta(n) over at most this many terms: beyond, the tail changes little. */
#define ZIPF_MAX_TERMS 10000000ull

static uint64_t xs(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Uniform in [0, 1). */
static double uni(uint64_t *s)
{
    return (double)(xs(s) >> 11) * 0x1.0p-53;
}

/* fio: "normal" is dev 0 (the plain mean of 12 draws), "normal:DEV" with 0 <= DEV < 100. A
 * centre (normal:DEV:CENTER) would only move the hashed hot blocks: refused, not ignored. */
static int parse_normal(const char *v, const char *colon, bl_dist_kind *kind, double *param,
                        char *err, size_t n)
{
    double x = 0;
    if (colon) {
        char *end = NULL;
        x = strtod(colon + 1, &end);
        if (end == colon + 1 || *end) {
            snprintf(err, n, "'%s': normal takes one deviation in %% (normal:10)", v);
            return -1;
        }
    }
    if (!(x >= 0 && x < 100)) {
        snprintf(err, n, "'%s': the normal deviation must be 0 <= dev < 100", v);
        return -1;
    }
    *kind = BL_DIST_NORMAL;
    *param = x;
    return 0;
}

int bl_dist_parse(const char *v, bl_dist_kind *kind, double *param, char *err, size_t n)
{
    if (!v)
        v = "";
    if (strcmp(v, "random") == 0) {
        *kind = BL_DIST_RANDOM;
        *param = 0;
        return 0;
    }
    const char *colon = strchr(v, ':');
    size_t len = colon ? (size_t)(colon - v) : strlen(v);
    bool zipf = len == 4 && strncmp(v, "zipf", 4) == 0;
    bool pareto = len == 6 && strncmp(v, "pareto", 6) == 0;
    if (len == 6 && strncmp(v, "normal", 6) == 0)
        return parse_normal(v, colon, kind, param, err, n);
    if (!zipf && !pareto) {
        snprintf(err, n,
                 "'%s' is not supported by benchlog's runner (random, zipf:THETA, "
                 "pareto:H, normal[:DEV])",
                 v);
        return -1;
    }
    char *end = NULL;
    double x = colon ? strtod(colon + 1, &end) : NAN;
    if (!colon || end == colon + 1 || *end) {
        snprintf(err, n, "'%s': %s needs its parameter (%s)", v, zipf ? "zipf" : "pareto",
                 zipf ? "zipf:1.2" : "pareto:0.2");
        return -1;
    }
    /* fio's limits: theta > 0 and not 1 (the generator divides by 1 - theta); 0 < h < 1. */
    if (zipf ? !(x > 0 && x != 1.0 && x <= 100) : !(x > 0 && x < 1)) {
        snprintf(err, n, "'%s': %s", v,
                 zipf ? "theta must be above 0, not 1, up to 100" : "h must be between 0 and 1");
        return -1;
    }
    *kind = zipf ? BL_DIST_ZIPF : BL_DIST_PARETO;
    *param = x;
    return 0;
}

const char *bl_dist_name(bl_dist_kind kind, double param, char *buf, size_t n)
{
    if (kind == BL_DIST_RANDOM)
        snprintf(buf, n, "random");
    else
        snprintf(buf, n, "%s:%g",
                 kind == BL_DIST_ZIPF     ? "zipf"
                 : kind == BL_DIST_PARETO ? "pareto"
                                          : "normal",
                 param);
    return buf;
}

void bl_dist_init(bl_randdist *d, bl_dist_kind kind, double param, uint64_t nblocks, uint64_t *rng)
{
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->n = nblocks ? nblocks : 1;
    uint64_t m = 1;
    while (m < d->n)
        m <<= 1;
    d->mask = m - 1;
    d->mul = (xs(rng) | 1) & d->mask;
    if (d->mul == 0)
        d->mul = 1;
    d->off = xs(rng) & d->mask;
    if (kind == BL_DIST_ZIPF) {
        d->theta = param;
        uint64_t terms = d->n < ZIPF_MAX_TERMS ? d->n : ZIPF_MAX_TERMS;
        for (uint64_t i = 1; i <= terms; i++)
            d->zetan += pow(1.0 / (double)i, param);
        d->half_pow = pow(0.5, param);
        d->zeta2 = 1.0 + d->half_pow;
        d->alpha = 1.0 / (1.0 - param);
        d->eta = (1.0 - pow(2.0 / (double)d->n, 1.0 - param)) / (1.0 - d->zeta2 / d->zetan);
    } else if (kind == BL_DIST_PARETO)
        d->pareto_pow = log(param) / log(1.0 - param);
    else if (kind == BL_DIST_NORMAL && param != 0.0) {
        d->gauss_dev = (uint64_t)ceil((double)d->n * param / 100.0);
        if (d->gauss_dev > d->n / 2)
            d->gauss_dev = d->n / 2;
    }
}

#define GAUSS_ITERS 12

/* fio's gauss_next before its hash: the rounded-up mean of 12 draws over [0, n], moved by a
 * jitter in [-dev/2, dev/2) that is halved until the sum stays in [0, n) (fio's unsigned
 * compare halves a jitter below 0 the same way). */
static uint64_t gauss_rank(const bl_randdist *d, uint64_t *rng)
{
    uint64_t sum = 0;
    for (int i = 0; i < GAUSS_ITERS; i++)
        sum += xs(rng) % (d->n + 1);
    sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
    if (d->gauss_dev) {
        int64_t dev = (int64_t)(uni(rng) * (double)d->gauss_dev) - (int64_t)(d->gauss_dev / 2);
        while (dev != 0 && ((int64_t)sum + dev < 0 || (uint64_t)((int64_t)sum + dev) >= d->n))
            dev /= 2;
        sum = (uint64_t)((int64_t)sum + dev);
    }
    return sum;
}

/* Rank (0 = hottest) to block: a permutation of [0, mask] walked until it lands below n. */
static uint64_t scatter(const bl_randdist *d, uint64_t x)
{
    do
        x = (x * d->mul + d->off) & d->mask;
    while (x >= d->n);
    return x;
}

uint64_t bl_dist_next(const bl_randdist *d, uint64_t *rng)
{
    double u = uni(rng);
    uint64_t rank;
    if (d->kind == BL_DIST_NORMAL)
        rank = gauss_rank(d, rng);
    else if (d->kind == BL_DIST_ZIPF) {
        double z = u * d->zetan;
        if (z < 1.0)
            rank = 0;
        else if (z < 1.0 + d->half_pow)
            rank = 1;
        else
            rank = (uint64_t)((double)d->n * pow(d->eta * u - d->eta + 1.0, d->alpha));
    } else if (d->kind == BL_DIST_PARETO)
        rank = (uint64_t)((double)(d->n - 1) * pow(u, d->pareto_pow));
    else
        return xs(rng) % d->n;
    if (rank >= d->n)
        rank = d->n - 1;
    return scatter(d, rank);
}
