/* A big fio JSON file read without loading it as a text: memory holds one job and the
 * records, not the file (see fio_json_stream.h). */
#ifndef BL_FIO_JSON_FILE_H
#define BL_FIO_JSON_FILE_H

#include "fio_json_stream.h"

/* Reads the file at path when it is one plain document (printable ASCII, nothing a text's
 * clean-up would change, nothing but whitespace after it) with an array `key`, handing it
 * to ops as bl_fj_stream_doc does: 1. 0: not such a file, read as a text; ops may have made
 * records already (the bytes are checked as the document is read), which the caller drops.
 * -1: read, but more follows it; the caller drops what ops made. */
int bl_fj_file_read(const char *path, const char *key, const bl_fj_stream *ops, void *ctx);

#endif
