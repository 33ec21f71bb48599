/* Many hosts: benchlog drives fio's own client/server mode rather than a network protocol
 * of its own. Every host runs `fio --server` (e.g. `fio --server=ip:0.0.0.0,8765`); this
 * side runs
 *     fio --client=HOSTS_FILE --output-format=json+ --output=fio-client.json JOBFILE
 * in a work folder and reads the result with the "fio-client" format: one run per host
 * (label host=<hostname>, or hostname:port when servers share a hostname) and one run
 * labelled host="all clients" whose percentiles come from the hosts' summed latency bins.
 *
 * HOSTS_FILE is fio's: one host a line, as fio's --client accepts it ("node7",
 * "10.0.0.7,8766", "ip:127.0.0.1,8766", "ip6:::1,8765"). The job file is sent to every
 * server by fio; paths in it are the servers' paths. Per-host logs the job asks for
 * (write_bw_log, write_lat_log...) are written by fio as <log>.<hostname> in the work
 * folder; their timelines are attached to the host's records (bl_fio_client_attach_logs).
 * Servers sharing a hostname overwrite each other's logs, a limit of fio. */
#ifndef BL_FIO_HOSTS_H
#define BL_FIO_HOSTS_H

#include "../core/record.h"
#include <stddef.h>

typedef struct bl_fio_hosts_opts {
    const char *fio_binary; /* NULL: $BENCHLOG_FIO, else "fio" on PATH */
    /* NULL: a temporary folder, removed afterwards (records then name the job file as
     * their source, line -1). Otherwise fio runs there and fio-client.json, fio's messages
     * (fio-client.out) and the per-host logs stay; records name fio-client.json. */
    const char *workdir;
    size_t n_labels;
    const bl_label *labels; /* added to every record (--label K=V) */
} bl_fio_hosts_opts;

/* Runs the job across the hosts and appends the records to out (which keeps them); o may
 * be NULL for the defaults.
 * Returns 0 when every host reported; 1 when fio failed, a host is missing from the
 * results or the output held errors (good records are still appended; err says what went
 * wrong in one line); 2 for a usage error (missing or empty hosts file, missing job file). */
int bl_run_fio_hosts(const char *hosts_file, const char *jobfile, const bl_fio_hosts_opts *o,
                     bl_records *out, char *err, size_t errlen);

/* Number of hosts in a fio hosts file (non-blank lines not starting with '#'), or -1 when
 * it cannot be read. */
int bl_fio_hosts_count(const char *hosts_file);

#endif
