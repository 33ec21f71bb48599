/* random_distribution: which block a random I/O goes to when it is not uniform. zipf:theta,
 * pareto:h and normal:dev as fio draws them (Gray et al.'s zipf generator with fio's cap of 10
 * million terms for zeta(n); fio's pareto power log(h)/log(1-h); fio's gauss.c: the rounded-up
 * mean of 12 uniform draws over [0, n], plus, for dev > 0, a uniform jitter of ceil(n x dev /
 * 100) blocks (at most n/2) centred on 0, halved until it stays inside); the hot blocks are
 * scattered over the region by a bijection, so the shape (share of I/Os on the hottest x% of
 * blocks) is fio's while the hot blocks' places are ours. As in fio, such jobs run without the
 * random map. */
#ifndef BL_RUNNER_DIST_H
#define BL_RUNNER_DIST_H

#include <stddef.h>
#include <stdint.h>

typedef enum { BL_DIST_RANDOM = 0, BL_DIST_ZIPF, BL_DIST_PARETO, BL_DIST_NORMAL } bl_dist_kind;

typedef struct bl_randdist {
    bl_dist_kind kind;
    uint64_t n;
    double theta, zetan, zeta2, alpha, eta, half_pow; /* zipf */
    double pareto_pow;
    uint64_t gauss_dev;      /* normal: width of the jitter in blocks; 0 = none */
    uint64_t mask, mul, off; /* the scatter: x -> (x*mul + off) & mask, walked below n */
} bl_randdist;

/* "random", "zipf:1.2", "pareto:0.2", "normal" or "normal:5" (dev in %, 0 <= dev < 100); 0, or -1
 * with the reason in err. */
int bl_dist_parse(const char *v, bl_dist_kind *kind, double *param, char *err, size_t n);
/* "zipf:1.2" for labels; buf of at least 32 bytes. */
const char *bl_dist_name(bl_dist_kind kind, double param, char *buf, size_t n);
void bl_dist_init(bl_randdist *d, bl_dist_kind kind, double param, uint64_t nblocks, uint64_t *rng);
/* The next block in [0, n), drawing from the xorshift state rng. */
uint64_t bl_dist_next(const bl_randdist *d, uint64_t *rng);

#endif
