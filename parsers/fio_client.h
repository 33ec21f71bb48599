/* fio client/server mode: `fio --client=HOSTS --output-format=json+ JOBFILE` against
 * `fio --server` on every host.
 *
 * The format "fio-client" (fio_client.c) reads the JSON document, whose "client_stats"
 * array holds one entry per job per host (with "hostname" and "port") and fio's own
 * "All clients" sum. Records: one run per host (labels host, job), then one aggregate run
 * (host "all clients") with one record per job and direction, whose percentiles come from
 * the hosts' summed latency bins (never averaged percentiles); fio's own "All clients"
 * figures are kept in the note where they differ from ours.
 *
 * A host label is the hostname fio reports, or "hostname:port" when several servers of
 * the document share a hostname (several servers on one machine).
 *
 * Per-host logs: in client mode fio writes each log as `<log name>.<hostname>`
 * ("job_bw.1.log.node7"); the helpers below read them with the host label set. */
#ifndef BL_FIO_CLIENT_H
#define BL_FIO_CLIENT_H

#include "parser.h"

#define BL_FIO_ALL_CLIENTS "all clients" /* host label of the aggregate run */

/* The hostname suffix of a client-mode log path ("x/job_clat.2.log.10.0.0.7" ->
 * "10.0.0.7"), or NULL when the name has no ".log.<host>" ending. Caller frees. */
char *bl_fio_client_log_host(const char *path);

/* Parses one per-host log with the "fio-log" format and labels its records host=<suffix>.
 * Returns the driver's status (0 clean, 1 errors in out, 2 when the fio-log format is not
 * built in or the name has no host suffix). out is initialised by the caller. */
int bl_fio_client_read_log(const char *path, bl_parse_out *out);

/* Reads every per-host log in dir and moves its timelines (series) into the record of recs
 * with the same host label and direction: the one whose job is the log's name, else the
 * only one. Logs matching no record or several are left out (several servers sharing a
 * hostname overwrite each other's logs: their hosts are labelled hostname:port and get
 * none). Returns the number of series attached. */
size_t bl_fio_client_attach_logs(const char *dir, bl_records *recs);

#endif
