/* How long E-Divisive (compare/changepoint.h) takes on long series: N points (default 10000)
 * of noise with steps at N/3 and 2N/3, and of noise alone, from a fixed seed.
 *
 *   cc -O2 -D_GNU_SOURCE -o build/bench_changepoint bench/changepoint.c build/libbenchlog.a -lm
 *   build/bench_changepoint [N] */
#include "../compare/changepoint.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t state = 99;
static double uniform01(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void one(const char *what, const double *x, size_t n)
{
    bl_cp_opts o = {0};
    bl_cp_result r;
    double t0 = seconds();
    bl_changepoints(x, n, &o, 0, &r);
    double t = seconds() - t0;
    printf("%-12s n=%zu: %zu change%s", what, n, r.n, r.n == 1 ? "" : "s");
    for (size_t i = 0; i < r.n; i++)
        printf("%s%zu (%+.1f%%)", i ? ", " : " at ", r.v[i].at, r.v[i].pct);
    printf(", %.3f s (%zu permutations a test)\n", t, r.n_perm);
    bl_cp_result_free(&r);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
    double *steps = malloc(n * sizeof *steps), *flat = malloc(n * sizeof *flat);
    for (size_t i = 0; i < n; i++) {
        double noise = sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
        steps[i] = (i < n / 3 ? 500 : i < 2 * n / 3 ? 450 : 520) + 20 * noise;
        flat[i] = 500 + 20 * noise;
    }
    one("two steps", steps, n);
    one("noise alone", flat, n);
    free(steps);
    free(flat);
    return 0;
}
