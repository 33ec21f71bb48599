/* A dd operand size ("1M", "1m", "64k", "2x512", GNU's "1xM", BSD's "4k*2") in bytes, by the
 * rules of GNU coreutils (bsd 0) or FreeBSD/macOS (bsd 1): -1 when that dd would refuse the
 * text, so an unknown suffix never reads as bytes. The value ends at a blank or the end. */
#ifndef BL_DD_SIZE_H
#define BL_DD_SIZE_H

#include <stdint.h>

int64_t bl_dd_size(const char *v, int bsd);

#endif
