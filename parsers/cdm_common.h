/* What the CrystalDiskMark-style formats share: reading a test name of any generation
 * ("Random Read 4KB (QD=32)", "Sequential Read (Q= 32,T= 1)", "RND    4KiB (Q= 32, T=16)",
 * "SEQ1M Q8 T1", "4KQD32", "ランダム4k QD32") into block size, queue depth and threads, and
 * writing one cell (MB/s = 10^6 bytes/s, IOPS, mean latency in us) as a record. */
#ifndef BL_CDM_COMMON_H
#define BL_CDM_COMMON_H

#include "parser.h"

typedef struct bl_cdm_test {
    int op;     /* 'r' read, 'w' write, 'm' mix, 0 not named (from the [Read] section) */
    int seq;    /* 1 sequential, 0 random */
    int64_t bs; /* bytes */
    int64_t qd, threads;
    char name[80]; /* canonical CrystalDiskMark 8 style: "SEQ1M Q8T1", "RND4K Q32T16" */
} bl_cdm_test;

/* Parses a test name (n bytes at s). major is the CrystalDiskMark major version (3, 5, 6,
 * 7, 8; 0 when unknown) and picks the defaults a name leaves out. Returns 0 when s is not a
 * test name. */
int bl_cdm_test_parse(const char *s, size_t n, int major, bl_cdm_test *out);

/* Parses "73.698 MB/s [ 3119.5 IOPS] < 2371.96 us>" (IOPS and latency optional). Returns the
 * number of bytes used, 0 when s does not start with a figure in MB/s. */
size_t bl_cdm_value_parse(const char *s, double *bw, double *iops, double *lat_us);
/* The same, with prec[0] and prec[1] the value of one unit of the last printed digit of the
 * bandwidth (bytes/s) and of the IOPS (BL_ABSENT when not printed). */
size_t bl_cdm_value_parse_prec(const char *s, double *bw, double *iops, double *lat_us,
                               double prec[2]);

typedef struct bl_cdm_meta {
    const char *tool;    /* "CrystalDiskMark", "KDiskMark", "fio-cdm" */
    const char *version; /* may be NULL */
    size_t n_labels;
    bl_label labels[12];
} bl_cdm_meta;

void bl_cdm_meta_label(bl_cdm_meta *m, const char *key, const char *value, size_t n);
void bl_cdm_meta_free(bl_cdm_meta *m);

/* One record; op overrides t->op when t->op is 0. bw in bytes/s, iops and lat_us may be
 * BL_ABSENT. */
bl_record *bl_cdm_emit(bl_parse_out *o, long line, int64_t run, const bl_cdm_meta *m,
                       const bl_cdm_test *t, int op, double bw, double iops, double lat_us);

/* The major version in "3.0.2" (0 when none). */
int bl_cdm_major(const char *version);

#endif
