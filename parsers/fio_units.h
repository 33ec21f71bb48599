/* fio 3's figure pairs: `BW=369MB/s (352MiB/s)`, `io=73.7GB (68.6GiB)`.
 *
 * fio 3 prints each rate and group io twice, first in the units of kb_base (binary by default,
 * SI with kb_base=1000) and in brackets in the other (stat.c: num2str(x, ..., i2p) then
 * num2str(x, ..., !i2p)). The unit text says which is which: KiB/MiB/GiB (and the bare Ki/Mi of
 * the "All clients" block) are 2^10ths; kB/MB/GB standing beside an IEC figure are 10^3ths.
 * The first figure is taken; the bracketed one must agree with it within print precision (old
 * fio printed the fraction loosely: a figure a.b means somewhere in [a, a+1]), else the pair
 * is refused. A figure without a partner (fio 2.x `bw=367715KB/s`, the io of a 3.x job line)
 * is in the base the caller says. */
#ifndef BL_FIO_UNITS_H
#define BL_FIO_UNITS_H

enum { BL_FIO_FIG_BAD = 0, BL_FIO_FIG_OK = 1, BL_FIO_FIG_DISAGREE = -1 };

/* Reads the figure (or pair) at s: bytes or bytes/s in *x; *si (may be NULL) is set to 1
 * when the first figure is SI, 0 when binary, left alone when it has no prefix; base_si
 * says what a lone K/M/G means. `end` (may be NULL) gets the first character after it.
 * Returns BL_FIO_FIG_OK, BL_FIO_FIG_BAD (no figure) or BL_FIO_FIG_DISAGREE. */
int bl_fio_figure(const char *s, int base_si, double *x, int *si, const char **end);

/* The same for the figure after "key=" in s (a word start); BL_FIO_FIG_BAD when absent. */
int bl_fio_figure_after(const char *s, const char *key, int base_si, double *x, int *si);

/* Multiplier of fio 3's bandwidth-sample line unit "(  kB/s)", "(  MiB/s)" given kb_base:
 * fio keeps those samples in KiB/s whatever kb_base says and divides them by kb_base once
 * when large (stat.c: label "kB" or "KiB", then "MiB"), so "kB" is 1024 and "MiB" with
 * kb_base=1000 is 1024000. 0 when the unit is none of these. */
double bl_fio_sample_unit(const char *unit, int kb_base_si);

/* strtod's value and end for s, computed directly for a plain decimal of at most 15 digits
 * ("61.91", "250", ".5": digits over a power of ten, both exact, one correctly rounded
 * division, so the same double strtod gives); anything else is strtod's. */
double bl_fio_strtod(const char *s, char **end);

#endif
