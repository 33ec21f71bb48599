/* How fast the content key (core/digest.h) reads a big file, against coreutils' sha256sum
 * of the same file (the anchor): a 1 GiB text of dd summary lines by default, from the page
 * cache (read once before the rounds), in alternating rounds.
 *
 *   cc -O2 -D_GNU_SOURCE -o build/bench_content_key bench/content_key.c build/libbenchlog.a \
 *      $(pkg-config --libs nettle) -lm
 *   build/bench_content_key [MIB] [ROUNDS] */
#include "../core/digest.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double time_key(const char *path, int want_fnv)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        exit(1);
    bl_content_key k = {.want_fnv = want_fnv};
    double t0 = seconds();
    bl_content_key_stream(f, &k);
    double t = seconds() - t0;
    fclose(f);
    return t;
}

static double time_cmd(const char *cmd)
{
    double t0 = seconds();
    if (system(cmd) != 0)
        exit(1);
    return seconds() - t0;
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 1024;
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    const char *path = "/tmp/benchlog-content-key.txt";
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    long written = 0;
    for (long i = 0; written < mib << 20; i++)
        written += fprintf(f, "%ld bytes (%ld kB, %ld KiB) copied, %ld.%03ld s, %ld MB/s\n",
                           i * 4096, i * 4, i * 4, i % 9, i % 1000, i % 700 + 1);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sha256sum %s > /dev/null", path);
    time_cmd(cmd); /* into the page cache */
    double best_key = 1e9, best_fnv = 1e9, best_anchor = 1e9;
    for (int r = 0; r < rounds; r++) {
        double a = time_cmd(cmd), k = time_key(path, 0), kf = time_key(path, 1);
        best_anchor = a < best_anchor ? a : best_anchor;
        best_key = k < best_key ? k : best_key;
        best_fnv = kf < best_fnv ? kf : best_fnv;
        printf("round %d: sha256sum %.2f s, content key %.2f s, with legacy FNV %.2f s\n", r + 1, a,
               k, kf);
    }
    double mb = (double)written / 1e6;
    printf("%.0f MB: sha256sum %.0f MB/s; content key %.0f MB/s (%.2fx the anchor's time); "
           "with the legacy FNV key %.0f MB/s\n",
           mb, mb / best_anchor, mb / best_key, best_key / best_anchor, mb / best_fnv);
    remove(path);
    return 0;
}
