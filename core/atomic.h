/* Writing a file whole or not at all: the data goes to a temporary file in the target's
 * folder, is flushed to disk, and is renamed over the target only when complete. A write
 * that fails part-way (full disk, quota, I/O error) removes the temporary file and leaves
 * the old target as it was. The new file keeps the old one's permissions, or gets the
 * usual 0666 less the umask. */
#ifndef BL_ATOMIC_H
#define BL_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

typedef struct bl_atomic {
    char *path; /* the target */
    char *tmp;  /* the temporary file beside it */
    FILE *f;    /* open on tmp for writing; a library that writes by name may close it
                   (bl_atomic_close_stream) and write tmp itself */
} bl_atomic;

int bl_atomic_open(bl_atomic *a, const char *path, char *err, size_t errlen);
/* Closes a->f only, for a library that writes a->tmp by its name. */
void bl_atomic_close_stream(bl_atomic *a);
/* Flushes, syncs and renames into place; on any failure removes tmp, says why, returns -1. */
int bl_atomic_commit(bl_atomic *a, char *err, size_t errlen);
/* Gives up: removes tmp. */
void bl_atomic_abort(bl_atomic *a);

/* The whole of data to path, as above. */
int bl_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
