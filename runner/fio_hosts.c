/* benchlog run --hosts: fio's client mode, run as a child process, read back with the
 * fio-client format (see fio_hosts.h). */
#include "fio_hosts.h"
#include "../core/strbuf.h"
#include "../parsers/driver.h"
#include "../parsers/fio_client.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define JSON_NAME "fio-client.json"
#define OUT_NAME "fio-client.out"

int bl_fio_hosts_count(const char *hosts_file)
{
    FILE *f = fopen(hosts_file, "r");
    if (!f)
        return -1;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t\r\n");
        if (*p && *p != '#')
            n++;
    }
    fclose(f);
    return n;
}

/* A temporary work folder under $TMPDIR (or /tmp); NULL on failure. Caller frees. */
static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s/benchlog-hosts-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(sb.s)) {
        bl_strbuf_free(&sb);
        return NULL;
    }
    return bl_strbuf_take(&sb);
}

/* Removes the files fio left in a temporary folder (no subfolders are made), then it. */
static void remove_tmpdir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The last non-blank line of a file (fio's last message), into buf. */
static void last_line(const char *path, char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        size_t len = strlen(line);
        if (line[strspn(line, " \t")]) {
            len = len < n ? len : n - 1; /* keep the head of a long message */
            memcpy(buf, line, len);
            buf[len] = '\0';
        }
    }
    if (f)
        fclose(f);
}

/* Runs fio in dir with stdout and stderr to OUT_NAME; returns its exit status, 127 when it
 * could not be started, -1 when fork failed. */
static int run_fio(const char *fio, const char *dir, const char *hosts, const char *job)
{
    char *client = NULL, *out = NULL;
    if (asprintf(&client, "--client=%s", hosts) < 0 ||
        asprintf(&out, "--output=%s/%s", dir, JSON_NAME) < 0)
        abort();
    pid_t pid = fork();
    if (pid == 0) {
        char log[PATH_MAX];
        snprintf(log, sizeof log, "%s/%s", dir, OUT_NAME);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int devnull = open("/dev/null", O_RDONLY);
        if (fd < 0 || devnull < 0 || chdir(dir) != 0)
            _exit(127);
        dup2(devnull, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        char *argv[] = {(char *)fio, client, "--output-format=json+", out, (char *)job, NULL};
        execvp(fio, argv);
        dprintf(2, "cannot run %s: %s\n", fio, strerror(errno));
        _exit(127);
    }
    free(client);
    free(out);
    if (pid < 0)
        return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Distinct host labels among recs, not counting the aggregate. */
static int count_hosts(const bl_records *recs, size_t from)
{
    int n = 0;
    for (size_t i = from; i < recs->n; i++) {
        const char *h = bl_record_label(recs->v[i], "host");
        if (!h || strcmp(h, BL_FIO_ALL_CLIENTS) == 0)
            continue;
        size_t j = from;
        while (j < i && !(bl_record_label(recs->v[j], "host") &&
                          strcmp(bl_record_label(recs->v[j], "host"), h) == 0))
            j++;
        n += j == i;
    }
    return n;
}

int bl_run_fio_hosts(const char *hosts_file, const char *jobfile, const bl_fio_hosts_opts *o,
                     bl_records *out, char *err, size_t errlen)
{
    static const bl_fio_hosts_opts defaults = {0};
    if (!o)
        o = &defaults;
    const char *fio_binary = o->fio_binary, *workdir = o->workdir;
    char hosts[PATH_MAX], job[PATH_MAX];
    int nhosts = hosts_file ? bl_fio_hosts_count(hosts_file) : -1;
    if (nhosts <= 0 || !realpath(hosts_file, hosts)) {
        snprintf(err, errlen, "%s: %s", hosts_file ? hosts_file : "(no hosts file)",
                 nhosts == 0 ? "no hosts in it" : strerror(errno));
        return 2;
    }
    if (!jobfile || !realpath(jobfile, job)) {
        snprintf(err, errlen, "%s: %s", jobfile ? jobfile : "(no job file)", strerror(errno));
        return 2;
    }
    if (!fio_binary)
        fio_binary =
            getenv("BENCHLOG_FIO") && *getenv("BENCHLOG_FIO") ? getenv("BENCHLOG_FIO") : "fio";
    char *tmp = NULL;
    if (!workdir && !(workdir = tmp = make_tmpdir())) {
        snprintf(err, errlen, "cannot make a temporary folder: %s", strerror(errno));
        return 1;
    }
    if (tmp == NULL && mkdir(workdir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: %s", workdir, strerror(errno));
        return 2;
    }
    int rc = 0, st = run_fio(fio_binary, workdir, hosts, job);
    char msg[400], json[PATH_MAX + 32], log[PATH_MAX + 32];
    snprintf(json, sizeof json, "%s/%s", workdir, JSON_NAME);
    snprintf(log, sizeof log, "%s/%s", workdir, OUT_NAME);
    last_line(log, msg, sizeof msg);
    err[0] = '\0';
    if (st != 0) {
        snprintf(err, errlen, "%s exited with status %d%s%s", fio_binary, st, *msg ? ": " : "",
                 msg);
        rc = 1;
    }
    bl_parse_out po;
    bl_out_init(&po, tmp ? jobfile : json);
    bl_parse_opts opts = {.as = "fio-client", .n_labels = o->n_labels, .labels = o->labels};
    struct stat sb;
    if (stat(json, &sb) == 0 && sb.st_size > 0) {
        bl_text t;
        char terr[256];
        if (bl_text_load(&t, json, terr, sizeof terr) == 0) {
            if (bl_parse_text(&t, &opts, &po) != 0 && !rc) {
                snprintf(err, errlen, "%s:%ld: %s", po.source, po.n_diags ? po.diags[0].line : 0L,
                         po.n_diags ? po.diags[0].msg : "unreadable");
                rc = 1;
            }
            bl_text_free(&t);
        }
    } else if (!rc) {
        snprintf(err, errlen, "%s wrote no results%s%s", fio_binary, *msg ? ": " : "", msg);
        rc = 1;
    }
    size_t from = out->n;
    for (size_t i = 0; i < po.recs.n; i++) {
        if (tmp)
            po.recs.v[i]->line = -1; /* fio's JSON is gone: the job file is the source */
        bl_records_push(out, po.recs.v[i]);
    }
    po.recs.n = 0;
    bl_out_free(&po);
    bl_records mine = {.v = out->v + from, .n = out->n - from}; /* this run's records */
    bl_fio_client_attach_logs(workdir, &mine);
    int got = count_hosts(out, from);
    if (!rc && got < nhosts) {
        snprintf(err, errlen, "results from %d of the %d hosts in %s%s%s", got, nhosts, hosts_file,
                 *msg ? "; fio said: " : "", msg);
        rc = 1;
    }
    if (tmp) {
        remove_tmpdir(tmp);
        free(tmp);
    }
    return rc;
}
