/* Reading fio's JSON documents, shared by the fio-json and fio-client formats. */
#ifndef BL_FIO_JSONUTIL_H
#define BL_FIO_JSONUTIL_H

#include "../core/record.h"
#include "../core/text.h"
#include <jansson.h>

/* A member as a number (BL_ABSENT when missing or not a number) or a string (NULL). */
double bl_fj_num(json_t *o, const char *key);
const char *bl_fj_str(json_t *o, const char *key);
/* An option of a job: its own "job options" (key, else alt), else the document's
 * "global options". */
const char *bl_fj_option(json_t *job, json_t *global, const char *key, const char *alt);
/* A latency object {"min","max","mean","stddev","N","percentile","bins"} whose values are
 * in `unit` ns (1 for *_ns fields, 1000 for fio 2.x usec ones) into l, bins of both eras. */
void bl_fj_read_lat(json_t *o, double unit, bl_lat *l);
/* The 1-based line of byte offset off in t's text. */
long bl_fj_line_at(const bl_text *t, size_t off);

#endif
