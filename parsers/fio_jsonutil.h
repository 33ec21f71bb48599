/* Reading fio's JSON documents, shared by the fio-json and fio-client formats. */
#ifndef BL_FIO_JSONUTIL_H
#define BL_FIO_JSONUTIL_H

#include "../core/record.h"
#include "../core/text.h"
#include "fio_json_stream.h"
#include "fio_jsonview.h"
#include "parser.h"
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
/* A job's "sync" object (fio >= 3.x: fsync/fdatasync latency in "lat_ns") into l, when it
 * counted any call; left absent otherwise. */
void bl_fj_read_sync(json_t *job, bl_lat *l);
/* The same over views (fio_jsonview.h); those above read their value through these. */
const char *bl_fj_option_v(const bl_jv_node *job, const bl_jv_node *global, const char *key,
                           const char *alt);
void bl_fj_read_lat_v(const bl_jv_node *o, double unit, bl_lat *l);
void bl_fj_read_sync_v(const bl_jv_node *job, bl_lat *l);
/* The 1-based line of byte offset off in t's text. */
long bl_fj_line_at(const bl_text *t, size_t off);

/* Walks the JSON documents in t (alone or pasted among other text): fn gets each object
 * whose member `key` is an array, with its first and last line. A "{" that does not parse
 * is reported as "WHAT: jansson's message" only when looks(t, line index) says it was ours,
 * since prose is full of braces. */
typedef void (*bl_fj_doc_fn)(json_t *doc, long first, long last, void *ctx);
typedef int (*bl_fj_looks_fn)(const bl_text *t, size_t i);
void bl_fj_each_doc(const bl_text *t, bl_parse_out *out, const char *key, const char *what,
                    bl_fj_looks_fn looks, bl_fj_doc_fn fn, void *ctx);
/* The same, each document read an element of its array at a time where it is strict JSON
 * (fio_json_stream.h), else read whole and handed to ops alike. */
void bl_fj_each_doc_stream(const bl_text *t, bl_parse_out *out, const char *key, const char *what,
                           bl_fj_looks_fn looks, const bl_fj_stream *ops, void *ctx);

#endif
