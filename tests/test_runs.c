/* Runs a user can address and manage, end to end through the benchlog program: the IDs
 * `list` prints work in every command; show, relabel and delete; list's columns, run-level
 * labels and --json; a re-import asking for other labels; foreign and damaged SQLite files
 * refused untouched; old FNV keys still recognised. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../core/digest.h"
#include "../core/strbuf.h"
#include "../core/text.h"
#include "support/support.h"
#include <jansson.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DD "fixtures/dd/gnu-dd-9.1_c_write_read.txt"
#define CDM "fixtures/cdm/kdiskmark-3.2.0_handwritten.txt"

typedef struct store {
    char *dir;
    char db[256];
    char ids[4][9]; /* dd write, dd read, cdm */
} store;

/* A store of the dd fixture (2 runs, host=nas1) and KDiskMark's (1 run of 8 records). */
static int setup(void **state)
{
    store *s = calloc(1, sizeof *s);
    s->dir = bl_test_tmpdir();
    snprintf(s->db, sizeof s->db, "%s/s.db", s->dir);
    char *out = NULL;
    if (bl_test_benchlogf(NULL, NULL, "import --db %s --label host=nas1 %s", s->db, DD) != 0 ||
        bl_test_benchlogf(NULL, NULL, "import --db %s %s", s->db, CDM) != 0 ||
        bl_test_benchlogf(&out, NULL, "list --db %s", s->db) != 0 || bl_test_count_lines(out) != 3)
        return -1;
    const char *line = out;
    for (int i = 0; i < 3; i++) {
        memcpy(s->ids[i], line, 8);
        s->ids[i][8] = 0;
        line = strchr(line, '\n') + 1;
    }
    free(out);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store *s = *state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
    int rc = system(cmd);
    free(s->dir);
    free(s);
    return rc;
}

static void test_ids_in_every_command(void **state)
{
    store *s = *state;
    char *out, *err;
    const char *rd = s->ids[1];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 8; k++)
            assert_non_null(strchr("0123456789abcdef", s->ids[i][k]));
    assert_string_not_equal(s->ids[0], s->ids[1]);
    /* dd read: 67108864 bytes in 0.0146754 s */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s %s", s->db, rd), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "\"runtime_s\":0.0146754"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s run=%s", s->db, rd), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    free(out);
    /* several IDs: either run */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s %s %s", s->db, s->ids[0], rd),
                     0);
    assert_int_equal(bl_test_count_lines(out), 2);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s %s", s->db, rd), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_true(strncmp(out, rd, 8) == 0);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "report --db %s --csv %s", s->db, rd), 0);
    assert_non_null(strstr(out, "\nseq-read,65536,1,1,4572.88142"));
    assert_null(strstr(out, "seq-write"));
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/r.png", s->dir);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "chart --db %s -o %s %s", s->db, path, rd), 0);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/r.xlsx", s->dir);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "xlsx --db %s -o %s run=%s", s->db, path, rd),
                     0);
    assert_int_equal(access(path, F_OK), 0);
    /* show: the source, the labels, every figure */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "show %s --db %s", rd, s->db), 0);
    assert_true(strncmp(out, "run      ", 9) == 0 && strstr(out, rd));
    assert_non_null(strstr(out, "gnu-dd-9.1_c_write_read.txt:8"));
    assert_non_null(strstr(out, "host=nas1"));
    assert_non_null(strstr(out, "record 1 of 1, line 8"));
    assert_non_null(strstr(out, "  io                     64MiB\n"));       /* 67108864 bytes */
    assert_non_null(strstr(out, "  runtime                14.68 ms\n"));    /* 0.0146754 s */
    assert_non_null(strstr(out, "  bw                     4572.9 MB/s\n")); /* 67108864 / that */
    free(out);
    /* an ID the store lacks, and a run number that is not an ID */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "show --db %s 0000abcd", s->db), 1);
    assert_non_null(strstr(err, "no run 0000abcd"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "show --db %s 1", s->db), 2);
    assert_non_null(strstr(err, "'1' is not a run ID"));
    free(err);
    /* the same content gets the same IDs in another store */
    assert_int_equal(bl_test_benchlogf(&err, NULL, "import --db %s/other.db %s", s->dir, DD), 0);
    assert_non_null(strstr(err, s->ids[0]) && strstr(err, s->ids[1]));
    free(err);
}

static void test_list_columns_and_labels(void **state)
{
    store *s = *state;
    char *out;
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s", s->db), 0);
    /* aligned: the source column starts at the same place on every line */
    const char *l2 = strchr(out, '\n') + 1, *l3 = strchr(l2, '\n') + 1;
    assert_true(strncmp(out + 8, "  ", 2) == 0 && out[10] != ' ');
    assert_true(strstr(out, "record") - out < 200);
    size_t col = (size_t)(strstr(out, "1 record") - out);
    assert_int_equal((size_t)(strstr(l2, "1 record") - l2), col);
    assert_int_equal((size_t)(strstr(l3, "8 records") - l3), col);
    /* run-level labels only: each KDiskMark record's own test name is not the run's */
    assert_non_null(strstr(l3, "cdm_version=3.2.0"));
    assert_null(strstr(l3, "cdm_test"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "show --db %s %s", s->db, s->ids[2]), 0);
    assert_non_null(strstr(out, "labels.cdm_test"));
    free(out);
    /* --json: one object a run */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --json --db %s", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 3);
    const char *last = out + strlen(out) - 1; /* the final newline */
    while (last > out && last[-1] != '\n')
        last--;
    json_t *o = json_loads(last, 0, NULL);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "id")), s->ids[2]);
    assert_int_equal(json_integer_value(json_object_get(o, "records")), 8);
    assert_string_equal(json_string_value(json_object_get(o, "tool")), "KDiskMark");
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(o, "labels"), "cdm_version")), "3.2.0");
    json_decref(o);
    free(out);
}

static void test_relabel(void **state)
{
    store *s = *state;
    char *out, *err;
    const char *wr = s->ids[0];
    assert_int_equal(bl_test_benchlogf(&err, NULL,
                                       "relabel --db %s %s host=nas2 'note=a\nb' --unset dd_conv",
                                       s->db, wr),
                     0);
    assert_non_null(strstr(err, "1 run (1 record) relabelled")); /* stdout */
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s host=nas2", s->db), 0);
    /* one line whatever a label holds */
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "note=a\\nb"));
    assert_null(strstr(out, "dd_conv"));
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "show --db %s %s", s->db, wr), 0);
    assert_non_null(strstr(out, ", note=a\\nb\n"));
    assert_non_null(strstr(out, "  labels.note            a\\nb\n"));
    free(out);
    /* `note` is also a record key: label.note looks at the label only */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s note~a", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 0);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s 'label.note=a\nb'", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    free(out);
    /* a label named like a record field */
    assert_int_equal(
        bl_test_benchlogf(NULL, NULL, "relabel --db %s %s test=mine", s->db, s->ids[1]), 0);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s label.test=mine", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 1);
    assert_non_null(strstr(out, "\"test\":\"seq-read\""));
    free(out);
    /* by FILTER, '--' before the labels; every record of the runs */
    assert_int_equal(
        bl_test_benchlogf(&err, NULL, "relabel --db %s tool=KDiskMark -- rack=7", s->db), 0);
    assert_non_null(strstr(err, "1 run (8 records) relabelled")); /* stdout */
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s rack=7", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 8);
    free(out);
    /* without '--', the first operand alone is the selection and the rest are labels */
    assert_int_equal(
        bl_test_benchlogf(&err, NULL, "relabel --db %s tool=KDiskMark shelf=6 'row=a b' 'mark=x~y'",
                          s->db),
        0);
    assert_non_null(strstr(err, "1 run (8 records) relabelled")); /* stdout */
    free(err);
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "export --db %s shelf=6 'label.row=a b' mark=x~y", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 8);
    free(out);
    /* ...unless a label would change a value the selection holds, or names a record field:
     * `dd_bs=64k` may be meant as a second FILTER term, and would set 64k on the 1M write */
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "relabel --db %s tool=dd dd_bs=64k rack=8", s->db), 2);
    assert_non_null(strstr(err, "'dd_bs=64k' would overwrite dd_bs on 1 record that 'tool=dd' "
                                "selects (dd_bs=1M among them)"));
    assert_non_null(strstr(err, "benchlog relabel tool=dd dd_bs=64k -- K=V"));
    assert_non_null(strstr(err, "benchlog relabel tool=dd -- dd_bs=64k"));
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s dd_bs=64k", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 1); /* the read alone, as imported */
    free(out);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s tool=dd op=read rack=8", s->db),
                     2);
    assert_non_null(strstr(err, "'op=read' names a record field"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s tool=KDiskMark rack=6", s->db),
                     2);
    assert_non_null(strstr(err, "would overwrite rack on 8 records"));
    free(err);
    /* the same value again changes nothing and is not refused; after '--' the value is set */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s tool=KDiskMark shelf=6", s->db),
                     0);
    free(err);
    assert_int_equal(
        bl_test_benchlogf(&err, NULL, "relabel --db %s tool=KDiskMark -- rack=6", s->db), 0);
    assert_non_null(strstr(err, "1 run (8 records) relabelled")); /* stdout */
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s rack=6", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 8);
    free(out);
    /* refusals change nothing: a second FILTER term, a run ID after a FILTER */
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "relabel --db %s tool=dd test~seq rack=8", s->db), 2);
    assert_non_null(strstr(err, "'test~seq' is not K=V: a selection of several FILTER terms"));
    assert_non_null(strstr(err, "needs '--' before the labels"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s tool=dd %s rack=8", s->db, wr),
                     2);
    assert_non_null(strstr(err, "is a run ID after the FILTER 'tool=dd'"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s tool=dd host!=x rack=8", s->db),
                     2);
    assert_non_null(strstr(err, "'host!=x' is not K=V"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s tool=dd", s->db), 2);
    assert_non_null(strstr(err, "no label to set"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s %s", s->db, wr), 2);
    assert_non_null(strstr(err, "no label to set"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "relabel --db %s 0000abcd rack=8", s->db), 1);
    assert_non_null(strstr(err, "no run matches"));
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "export --db %s rack=8", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 0);
    free(out);
}

static void test_reimport_other_labels(void **state)
{
    store *s = *state;
    char *err;
    assert_int_equal(bl_test_benchlogf(&err, NULL, "import --db %s %s", s->db, CDM), 0);
    assert_non_null(strstr(err, "already in the store (same content")); /* on stdout */
    assert_non_null(strstr(err, "skipped"));
    free(err);
    assert_int_equal(
        bl_test_benchlogf(NULL, &err, "import --db %s --label host=nas9 %s", s->db, CDM), 1);
    assert_non_null(strstr(err, "already in the store"));
    assert_non_null(strstr(err, "use relabel: benchlog relabel"));
    assert_non_null(strstr(err, " 'host=nas9'\n"));
    assert_non_null(strstr(err, s->ids[2]));
    free(err);
}

/* A latency log written with log_avg_msec stored alone has no mean; given again with its
 * IOPS log it is read with one (weighted_by). relabel cannot store that reading: the message
 * says what differs and how to store it, and following it gives the weighted mean. */
static void test_reimport_read_differently(void **state)
{
    store *s = *state;
    char *err, *out;
    const char *clat = "fixtures/fio/log-weigh_clat.1.log",
               *iops = "fixtures/fio/log-weigh_iops.1.log";
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s %s", s->db, clat), 0);
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "export --db %s log=log-weigh_clat.1.log", s->db), 0);
    assert_null(strstr(out, "\"mean\""));
    free(out);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "import --db %s %s %s", s->db, clat, iops), 1);
    assert_non_null(strstr(err, "but read differently now: weighted_by=log-weigh_iops.1.log "
                                "(not stored)"));
    assert_null(strstr(err, "use relabel"));
    const char *del = strstr(err, "benchlog delete --yes ");
    assert_non_null(del);
    char id[9];
    memcpy(id, del + strlen("benchlog delete --yes "), 8);
    id[8] = 0;
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "delete --db %s --yes %s", s->db, id), 0);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s %s %s", s->db, clat, iops), 0);
    /* weighted by the IOPS log: 1 491 441 ns (test_fio_log_weight; fio said 1 567 996) */
    assert_int_equal(
        bl_test_benchlogf(&out, NULL, "export --db %s weighted_by=log-weigh_iops.1.log", s->db), 0);
    const char *m = strstr(out, "\"clat_ns\":{\"mean\":");
    assert_non_null(m);
    double mean = atof(m + strlen("\"clat_ns\":{\"mean\":"));
    assert_true(mean > 1491000 && mean < 1492000);
    free(out);
}

/* Runs `benchlog delete ARGS` on a terminal, answering `answer`; returns its status. */
static int delete_on_tty(const char *db, const char *args, const char *answer, char *seen, size_t n)
{
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    if (pid == 0) {
        const char *bin = getenv("BENCHLOG_BIN") ? getenv("BENCHLOG_BIN") : "build/benchlog";
        execl(bin, bin, "delete", "--db", db, args, (char *)NULL);
        _exit(127);
    }
    size_t got = 0;
    while (got + 1 < n) {
        ssize_t r = read(fd, seen + got, n - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
        seen[got] = 0;
        if (strstr(seen, "[y/N]"))
            break;
    }
    seen[got] = 0;
    if (write(fd, answer, strlen(answer)) < 0)
        return -1;
    char sink[256];
    while (read(fd, sink, sizeof sink) > 0)
        ;
    int st;
    waitpid(pid, &st, 0);
    close(fd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_delete(void **state)
{
    store *s = *state;
    char *out, *err, seen[4096];
    assert_int_equal(bl_test_benchlogf(NULL, &err, "delete --db %s", s->db), 2);
    assert_non_null(strstr(err, "an empty selection is refused"));
    free(err);
    /* no terminal, no --yes: refused */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "delete --db %s %s", s->db, s->ids[1]), 2);
    assert_non_null(strstr(err, "add --yes"));
    free(err);
    /* on a terminal: the runs are shown, "n" keeps them */
    assert_int_equal(delete_on_tty(s->db, s->ids[1], "n\n", seen, sizeof seen), 1);
    assert_non_null(strstr(seen, s->ids[1]));
    assert_non_null(strstr(seen, "Delete this 1 run? [y/N]"));
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 3);
    free(out);
    assert_int_equal(delete_on_tty(s->db, s->ids[1], "y\n", seen, sizeof seen), 0);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s", s->db), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    assert_null(strstr(out, s->ids[1]));
    free(out);
    /* by filter, for scripts */
    assert_int_equal(bl_test_benchlogf(&err, NULL, "delete --db %s tool=KDiskMark --yes", s->db),
                     0);
    assert_non_null(strstr(err, "1 run (8 records) deleted")); /* stdout */
    free(err);
    /* while some of its runs are left, importing it again says what to do */
    assert_int_equal(bl_test_benchlogf(NULL, &err, "import --db %s %s", s->db, DD), 1);
    assert_non_null(strstr(err, "which holds 1 of the 2 records read now; to import it again: "
                                "benchlog delete --yes"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "delete --db %s tool=dd --yes", s->db), 0);
    free(err);
    /* its import is gone with its last run: the file can be imported again, same IDs */
    assert_int_equal(bl_test_benchlogf(&err, NULL, "import --db %s %s", s->db, DD), 0);
    assert_non_null(strstr(err, "imported 2 records in 2 runs"));
    assert_non_null(strstr(err, s->ids[0]));
    free(err);
}

/* SHA-256 of a file's bytes: "left as it is" means this does not change. */
static char *file_digest(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    char buf[65536], *hex = calloc(1, 65);
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        bl_strbuf_putn(&sb, buf, n);
    fclose(f);
    bl_sha256_hex(sb.s ? sb.s : "", sb.len, hex);
    bl_strbuf_free(&sb);
    return hex;
}

static void test_foreign_sqlite_refused(void **state)
{
    store *s = *state;
    char path[512], *err;
    snprintf(path, sizeof path, "%s/contacts.db", s->dir);
    assert_int_equal(bl_test_sqlite_exec(path, "CREATE TABLE contacts(name TEXT, phone TEXT);"
                                               "INSERT INTO contacts VALUES('Ada', '555');"),
                     0);
    char *before = file_digest(path);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "import --db %s %s", path, DD), 1);
    assert_non_null(strstr(err, "not a benchlog store (tables: contacts)"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "list --db %s", path), 1);
    assert_non_null(strstr(err, "not a benchlog store"));
    free(err);
    char *after = file_digest(path);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

static void test_damaged_store_refused(void **state)
{
    store *s = *state;
    char path[512], *err;
    snprintf(path, sizeof path, "%s/damaged.db", s->dir);
    /* a store of a few hundred pages, then garbage over some of its middle pages */
    assert_int_equal(bl_test_benchlogf(NULL, NULL,
                                       "import --db %s fixtures/cdm/cdm-5.2.1_handwritten_crlf.txt",
                                       path),
                     0);
    assert_int_equal(
        bl_test_sqlite_exec(
            path, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<3000)"
                  " INSERT INTO records(import_id, run, line, tool, test, json)"
                  " SELECT 1, 1, i, 'cdm', 'x', '{\"tool\":\"cdm\",\"line\":' || i || '}'"
                  " FROM n;"),
        0);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    assert_true(size > 40 * 4096);
    for (long off = 20 * 4096; off < 24 * 4096; off += 64) {
        fseek(f, off, SEEK_SET);
        fputs("garbage garbage garbage garbage garbage garbage garbage garbage", f);
    }
    fclose(f);
    char *before = file_digest(path);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "import --db %s %s", path, DD), 1);
    assert_non_null(strstr(err, "the store is damaged (PRAGMA quick_check: "));
    assert_non_null(strstr(err, "nothing was written"));
    free(err);
    assert_int_equal(bl_test_benchlogf(NULL, &err, "delete --yes --db %s tool=cdm", path), 1);
    assert_non_null(strstr(err, "the store is damaged"));
    free(err);
    char *after = file_digest(path);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

/* A store made before SHA-256 holds FNV keys: the same content is still recognised. */
static void test_legacy_fnv_key(void **state)
{
    store *s = *state;
    char path[512], *err;
    snprintf(path, sizeof path, "%s/old.db", s->dir);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s %s", path, DD), 0);
    bl_text t;
    char msg[256], fnv[33], sql[256];
    assert_int_equal(bl_text_load(&t, DD, msg, sizeof msg), 0);
    bl_fnv_key(t.buf, t.len, fnv);
    bl_text_free(&t);
    snprintf(sql, sizeof sql, "UPDATE imports SET hash = '%s'", fnv);
    assert_int_equal(bl_test_sqlite_exec(path, sql), 0);
    assert_int_equal(bl_test_benchlogf(&err, NULL, "import --db %s %s", path, DD), 0);
    assert_non_null(strstr(err, "already in the store (same content"));
    free(err);
}

/* A store of schema 2 (FNV keys, no run IDs) is upgraded in place: its runs get IDs derived
 * from the FNV key, which stay the same when the store is opened again and when the same
 * content is imported again (recognised by its FNV key). The same content in a new store
 * gets the IDs of its SHA-256 key: an upgraded store's IDs are its own. */
static void test_upgraded_ids_stable(void **state)
{
    store *s = *state;
    char path[512], *out, *err, first[9], again[9], fresh[9];
    snprintf(path, sizeof path, "%s/v2.db", s->dir);
    assert_int_equal(bl_test_benchlogf(NULL, NULL, "import --db %s %s", path, DD), 0);
    bl_text t;
    char msg[256], fnv[33], sql[256];
    assert_int_equal(bl_text_load(&t, DD, msg, sizeof msg), 0);
    bl_fnv_key(t.buf, t.len, fnv);
    bl_text_free(&t);
    snprintf(sql, sizeof sql,
             "DROP TABLE runs; UPDATE imports SET hash = '%s'; PRAGMA user_version = 2;", fnv);
    assert_int_equal(bl_test_sqlite_exec(path, sql), 0);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s", path), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    snprintf(first, sizeof first, "%.8s", out);
    free(out);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s", path), 0);
    snprintf(again, sizeof again, "%.8s", out);
    free(out);
    assert_string_equal(first, again);
    assert_int_equal(bl_test_benchlogf(&err, NULL, "import --db %s %s", path, DD), 0);
    assert_non_null(strstr(err, "already in the store (same content"));
    assert_non_null(strstr(err, first));
    free(err);
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s", path), 0);
    assert_int_equal(bl_test_count_lines(out), 2);
    assert_int_equal(strncmp(out, first, 8), 0);
    free(out);
    /* the store made now (setup) holds the same content under its SHA-256 IDs */
    assert_int_equal(bl_test_benchlogf(&out, NULL, "list --db %s tool=dd", s->db), 0);
    snprintf(fresh, sizeof fresh, "%.8s", out);
    free(out);
    assert_string_equal(fresh, s->ids[0]);
    assert_string_not_equal(fresh, first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ids_in_every_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_columns_and_labels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_relabel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reimport_read_differently, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reimport_other_labels, setup, teardown),
        cmocka_unit_test_setup_teardown(test_delete, setup, teardown),
        cmocka_unit_test_setup_teardown(test_foreign_sqlite_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_store_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_legacy_fnv_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upgraded_ids_stable, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
