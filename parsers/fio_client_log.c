/* Per-host logs of fio's client mode: fio names them "<name as the server wrote it>.<host>"
 * (client.c, fio_client_handle_iolog), e.g. "job_clat.2.log.10.0.0.7" or
 * "job_bw.log.node7.example.com"; the host is what follows the last ".log." of the name. */
#include "../core/strbuf.h"
#include "driver.h"
#include "fio_client.h"
#include <stdlib.h>
#include <string.h>

char *bl_fio_client_log_host(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *host = NULL;
    for (const char *p = strstr(base, ".log."); p; p = strstr(p + 1, ".log."))
        host = p + 5;
    /* A host name holds no '/' and is not empty; "x.log.gz"-like endings are not hosts. */
    if (!host || !*host || strcmp(host, "gz") == 0 || strcmp(host, "fz") == 0)
        return NULL;
    return bl_xstrdup(host);
}

int bl_fio_client_read_log(const char *path, bl_parse_out *out)
{
    char *host = bl_fio_client_log_host(path);
    if (!host) {
        bl_out_error(out, 0, "not a per-host fio log: no \".log.<hostname>\" ending");
        return 2;
    }
    if (!bl_format_find("fio-log")) {
        bl_out_error(out, 0, "the fio-log format is not built in");
        free(host);
        return 2;
    }
    bl_label l = {.key = "host", .value = host};
    bl_parse_opts o = {.as = "fio-log", .n_labels = 1, .labels = &l};
    int rc = bl_parse_source(path, &o, out, NULL);
    free(host);
    return rc;
}
