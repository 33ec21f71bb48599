/* A real PostgreSQL server for the test program that asks for one: initdb into a temporary
 * folder (as `nobody` when the tests run as root), listening on a Unix socket in that folder
 * only, no TCP. One server a program; every exit path stops it: at exit, and when the
 * program dies any other way (a signal, kill -9) a watchdog process that waits on a pipe
 * from it stops the server and removes the folder. */
#ifndef BL_TEST_PGSERVER_H
#define BL_TEST_PGSERVER_H

#include <stddef.h>

/* Starts the server once; 0, or -1 with why (no server binaries, initdb failed: its log). */
int bl_test_pg_start(char *why, size_t n);
/* A new empty database on it, as the URL benchlog takes (superuser `benchlog`, or the
 * role `user` when not NULL). Caller frees. */
char *bl_test_pg_new_db(void);
char *bl_test_pg_url(const char *db, const char *user);
/* Runs SQL as the superuser on database db; 0 when it succeeded, else prints why. */
int bl_test_pg_sql(const char *db, const char *sql);
/* The name of the database of a URL bl_test_pg_new_db gave. Points into url. */
const char *bl_test_pg_db_of(const char *url, char *buf, size_t n);
/* The folder of the server's socket (the host of its URLs). */
const char *bl_test_pg_socket_dir(void);
/* Stops the server and removes its folder (also done at exit). */
void bl_test_pg_stop(void);

/* A cmocka group's set-up and tear-down: start the server (a failure is kept, not fatal)
 * and stop it. A test of the group begins with BL_TEST_PG_NEED(), which skips it saying why
 * when the server did not start (support.h's bl_skip_because). */
int bl_test_pg_group_setup(void **state);
int bl_test_pg_group_teardown(void **state);
/* NULL when the server is running, else why it is not. */
const char *bl_test_pg_missing(void);
#define BL_TEST_PG_NEED()                                                                          \
    do {                                                                                           \
        if (bl_test_pg_missing())                                                                  \
            bl_skip_because(bl_test_pg_missing());                                                 \
    } while (0)

#endif
