#include "pgserver.h"
#include "../../core/strbuf.h"
#include <fcntl.h>
#include <glob.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The one server of this program: test-support state, like a fixture's. */
static struct {
    char dir[128];
    char bin[256];
    char as[64]; /* "runuser -u nobody -- " as root, else "" */
    int watch_fd;
    pid_t watchdog;
    int n_dbs;
} pg = {.watch_fd = -1};

/* The newest server's bin folder of /usr/lib/postgresql/VERSION/bin. */
static int find_bin(char *out, size_t n)
{
    glob_t g;
    if (glob("/usr/lib/postgresql/*/bin/pg_ctl", 0, NULL, &g) != 0)
        return -1;
    const char *best = g.gl_pathv[g.gl_pathc - 1];
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (atoi(g.gl_pathv[i] + 20) > atoi(best + 20))
            best = g.gl_pathv[i];
    snprintf(out, n, "%.*s", (int)(strrchr(best, '/') - best), best);
    globfree(&g);
    return 0;
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    bl_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    int st = system(sb.s);
    bl_strbuf_free(&sb);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The watchdog: a shell reading the pipe until every writer is gone (this program ended,
 * however), then stopping the server and removing the folder. It ignores the signals a
 * terminal sends the whole group, so that Ctrl-C still cleans up. */
static int start_watchdog(void)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    bl_strbuf cmd;
    bl_strbuf_init(&cmd);
    bl_strbuf_printf(&cmd,
                     "cat >/dev/null; cd /; if [ -f %s/data/postmaster.pid ]; then "
                     "%s%s/pg_ctl -D %s/data -m immediate -w stop >/dev/null 2>&1; fi; "
                     "rm -rf %s",
                     pg.dir, pg.as, pg.bin, pg.dir, pg.dir);
    pid_t pid = fork();
    if (pid < 0) {
        bl_strbuf_free(&cmd);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[0], 0);
        close(fds[1]);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGQUIT, SIG_IGN);
        execl("/bin/sh", "sh", "-c", cmd.s, (char *)NULL);
        _exit(127);
    }
    bl_strbuf_free(&cmd);
    close(fds[0]);
    pg.watch_fd = fds[1];
    pg.watchdog = pid;
    return 0;
}

void bl_test_pg_stop(void)
{
    if (pg.watch_fd < 0)
        return;
    close(pg.watch_fd);
    pg.watch_fd = -1;
    waitpid(pg.watchdog, NULL, 0);
}

int bl_test_pg_start(char *why, size_t n)
{
    if (pg.watch_fd >= 0)
        return 0;
    if (find_bin(pg.bin, sizeof pg.bin) != 0) {
        snprintf(why, n, "no PostgreSQL server (/usr/lib/postgresql/*/bin: Debian's postgresql)");
        return -1;
    }
    snprintf(pg.dir, sizeof pg.dir, "/tmp/benchlog-pg-XXXXXX");
    if (!mkdtemp(pg.dir)) {
        snprintf(why, n, "mkdtemp failed");
        return -1;
    }
    pg.as[0] = 0;
    if (geteuid() == 0) {
        /* the server refuses to run as root: it runs as nobody, in a folder nobody owns */
        struct passwd *pw = getpwnam("nobody");
        if (!pw || chown(pg.dir, pw->pw_uid, pw->pw_gid) != 0) {
            snprintf(why, n, "no user nobody to run the server as");
            return -1;
        }
        snprintf(pg.as, sizeof pg.as, "runuser -u nobody -- ");
    }
    if (start_watchdog() != 0) {
        snprintf(why, n, "cannot start the watchdog");
        return -1;
    }
    atexit(bl_test_pg_stop);
    if (sh("cd / && %s%s/initdb -D %s/data -U benchlog -A trust -E UTF8 --no-locale --no-sync "
           ">%s/initdb.log 2>&1",
           pg.as, pg.bin, pg.dir, pg.dir) != 0) {
        snprintf(why, n, "initdb failed: see %s/initdb.log", pg.dir);
        sh("cat %s/initdb.log >&2", pg.dir);
        return -1;
    }
    /* no TCP; mmap for shared memory, as a minimal root may lack /dev/shm; no fsync: a
     * test server's data need not survive the machine */
    if (sh("printf \"listen_addresses = ''\\nunix_socket_directories = '%s'\\n"
           "dynamic_shared_memory_type = mmap\\nfsync = off\\nsynchronous_commit = off\\n"
           "full_page_writes = off\\nmax_connections = 60\\nshared_buffers = 16MB\\n\" "
           ">>%s/data/postgresql.conf",
           pg.dir, pg.dir) != 0 ||
        sh("cd / && %s%s/pg_ctl -D %s/data -l %s/server.log -w -t 120 start >/dev/null", pg.as,
           pg.bin, pg.dir, pg.dir) != 0) {
        snprintf(why, n, "the server did not start: see %s/server.log", pg.dir);
        sh("cat %s/server.log >&2", pg.dir);
        return -1;
    }
    return 0;
}

char *bl_test_pg_url(const char *db, const char *user)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "postgresql:///%s?host=%s&user=%s", db, pg.dir, user ? user : "benchlog");
    return bl_strbuf_take(&sb);
}

int bl_test_pg_sql(const char *db, const char *sql)
{
    char conninfo[256];
    snprintf(conninfo, sizeof conninfo, "host=%s user=benchlog dbname=%s", pg.dir, db);
    PGconn *c = PQconnectdb(conninfo);
    PGresult *res = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
    ExecStatusType st = PQresultStatus(res);
    int ok = res && (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK);
    if (!ok)
        fprintf(stderr, "pgserver: %s: %s", sql, PQerrorMessage(c));
    PQclear(res);
    PQfinish(c);
    return ok ? 0 : -1;
}

char *bl_test_pg_new_db(void)
{
    char name[32], sql[64];
    snprintf(name, sizeof name, "t%d", ++pg.n_dbs);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    if (bl_test_pg_sql("postgres", sql) != 0)
        abort();
    return bl_test_pg_url(name, NULL);
}

const char *bl_test_pg_db_of(const char *url, char *buf, size_t n)
{
    const char *p = url + strlen("postgresql:///");
    snprintf(buf, n, "%.*s", (int)strcspn(p, "?"), p);
    return buf;
}

const char *bl_test_pg_socket_dir(void)
{
    return pg.dir;
}

static char group_why[512] = "the PostgreSQL test server was not started";
static int group_started;

int bl_test_pg_group_setup(void **state)
{
    (void)state;
    group_started = bl_test_pg_start(group_why, sizeof group_why) == 0;
    return 0;
}

int bl_test_pg_group_teardown(void **state)
{
    (void)state;
    bl_test_pg_stop();
    group_started = 0;
    return 0;
}

const char *bl_test_pg_missing(void)
{
    return group_started ? NULL : group_why;
}
