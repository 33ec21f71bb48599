/* What the bonnie++ formats share: one run of the twelve tests, the cell syntax, the CSV
 * lines of both generations, and the records a run becomes.
 *
 * Units: the transfer tests are kept in bytes/s (bonnie++ prints K/sec = 1024 bytes/s, or
 * "1141k"/"12.3m"/"1.2g" in 2.00's human table), seeks in ops/s, file tests in files/s,
 * latencies in ns. "+++++" is a test that ran too fast to measure: it is kept with no value
 * and a note, never as 0. An empty cell is a test that was not run: no record. */
#ifndef BL_BONNIE_COMMON_H
#define BL_BONNIE_COMMON_H

#include "parser.h"

enum { BL_BONNIE_NTESTS = 12, BL_BONNIE_NIO = 6 };

enum { BL_CELL_EMPTY = 0, BL_CELL_VALUE = 1, BL_CELL_PLUS = 2 };

typedef struct bl_bonnie_cell {
    int state;
    double value;  /* model units (see above) */
    double cpu;    /* %CP, BL_ABSENT for "+++" or none */
    double lat_ns; /* BL_ABSENT when not reported */
    double step;   /* one unit of the value's last printed digit ("12.3m": 0.1 MiB/s) */
    long line;
} bl_bonnie_cell;

typedef struct bl_bonnie_run {
    char version[32];
    char host[128];
    char size[64];                 /* the size column as printed: "8096M", "1G:32k" */
    char files[64];                /* the files column: "16", "256:1024:1024/16" */
    char seeks[24], seek_procs[8]; /* 1.98 CSV: seeks per seeker and seeker processes */
    int64_t chunk;                 /* bytes, -1 when unknown */
    int64_t concurrency;
    long line;      /* first line of the run */
    long last_line; /* last line that belongs to it */
    int has_io, has_files;
    bl_bonnie_cell cell[BL_BONNIE_NTESTS];
    char *section_hint; /* heading above the table (owned by whoever holds the run) */
} bl_bonnie_run;

void bl_bonnie_run_init(bl_bonnie_run *r);

/* Parses one cell: value text and %CP text. kind: 0 transfer (plain number = K/sec), 1 seeks,
 * 2 files. Returns 0 when the value text is neither a number nor "+++++". */
int bl_bonnie_cell_parse(const char *val, size_t vlen, const char *cpu, size_t clen, int test,
                         bl_bonnie_cell *c, long line);

/* A CSV line of any generation (1.0x: host first; 1.9x/2.00: format version first).
 * Returns 1 and fills r, 0 when the line is not a bonnie++ CSV line, -1 when it looks like
 * one but is malformed (message in err). */
int bl_bonnie_csv_line(const char *s, long line, bl_bonnie_run *r, char *err, size_t errlen);

/* Whether two printings of a run (a table row and its CSV line) give the same figures: every
 * test both measured agrees within the coarser print's last digit, and a "+++++" is one in
 * both. bonnie++ prints both forms of one run; a CSV line of another run never matches. */
int bl_bonnie_same_figures(const bl_bonnie_run *a, const bl_bonnie_run *b);

/* Appends the run's records (one per test that ran) with run number `run`. */
void bl_bonnie_emit(bl_parse_out *o, const bl_bonnie_run *r, int64_t run, const char *section);

/* The canonical test name of column i (0..11). */
const char *bl_bonnie_test_name(int i);

#endif
