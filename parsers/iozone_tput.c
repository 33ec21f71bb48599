/* iozone throughput mode (iozone_tput.h). */
#include "iozone_tput.h"
#include "../core/strbuf.h"
#include "../core/units.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* iozone's names of its throughput tests and the model's. */
static const struct {
    const char *name, *test, *op, *pattern;
} tests[] = {
    {"initial writers", "seq-write", "write", "seq"},
    {"rewriters", "seq-rewrite", "write", "seq"},
    {"readers", "seq-read", "read", "seq"},
    {"re-readers", "seq-reread", "read", "seq"},
    {"reverse readers", "bkwd-read", "read", NULL},
    {"stride readers", "stride-read", "read", NULL},
    {"random readers", "rand-read", "read", "rand"},
    {"mixed workload", "rand-mixed", "rw", "rand"},
    {"random writers", "rand-write", "write", "rand"},
    {"pwrite writers", "pwrite", "write", "seq"},
    {"pread readers", "pread", "read", "seq"},
    {"fwriters", "fwrite", "write", "seq"},
    {"freaders", "fread", "read", "seq"},
};
#define NTESTS (sizeof tests / sizeof tests[0])

typedef struct tput {
    long procs;
    int test; /* index in tests */
    double value;
    int ops; /* "ops/sec" (-O) */
} tput;

/* "<who> see(s) throughput for N <test> = X kB/sec" after `lead`; 1 when it is one. */
static int see_line(const char *s, const char *lead, tput *o)
{
    const char *p = strstr(s, lead);
    if (!p)
        return 0;
    p += strlen(lead);
    char *e;
    o->procs = strtol(p, &e, 10);
    if (e == p || o->procs <= 0 || *e != ' ')
        return 0;
    p = e + strspn(e, " ");
    const char *eq = strchr(p, '=');
    if (!eq)
        return 0;
    size_t n = (size_t)(eq - p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    o->test = -1;
    for (size_t i = 0; i < NTESTS; i++)
        if (strlen(tests[i].name) == n && strncmp(p, tests[i].name, n) == 0)
            o->test = (int)i;
    const char *v = eq + 1 + strspn(eq + 1, " \t");
    if (o->test < 0 || !bl_parse_number(v, 0, &o->value, &v))
        return 0;
    v += strspn(v, " ");
    o->ops = strncmp(v, "ops/sec", 7) == 0;
    return o->ops || strncmp(v, "kB/sec", 6) == 0 || strncmp(v, "KB/sec", 6) == 0;
}

int bl_iozone_tput_line(const char *s)
{
    tput t;
    return see_line(s, "Children see throughput for ", &t);
}

/* What the lines above a run say: record and file size, the command, -I. */
typedef struct tctx {
    double reclen_kb, file_kb;
    int direct;
    char *command, *version;
} tctx;

static void read_context(const bl_text *t, size_t from, size_t to, tctx *c)
{
    memset(c, 0, sizeof *c);
    for (size_t k = from; k < to; k++) {
        const char *s = t->line[k], *v;
        double x;
        if ((v = strstr(s, "Record Size ")) && bl_parse_number(v + 12, 0, &x, NULL))
            c->reclen_kb = x;
        if ((v = strstr(s, "File size set to ")) && bl_parse_number(v + 17, 0, &x, NULL))
            c->file_kb = x;
        if ((v = strstr(s, "Each process writes a ")) && bl_parse_number(v + 22, 0, &x, &v)) {
            c->file_kb = x;
            const char *in = strstr(v, " file in ");
            if (in && bl_parse_number(in + 9, 0, &x, NULL))
                c->reclen_kb = x;
        }
        if (strstr(s, "O_DIRECT feature enabled"))
            c->direct = 1;
        if ((v = strstr(s, "Command line used: ")) && !c->command)
            c->command = bl_xstrdup(v + 19);
        if ((v = strstr(s, "Version $Revision: ")) && !c->version)
            c->version = bl_xstrndup(v + 19, strcspn(v + 19, " $"));
    }
}

static void emit(bl_parse_out *out, size_t line, int64_t run, const tctx *c, const tput *ch,
                 const tput *parent)
{
    bl_record *r = bl_out_record(out, (long)line + 1);
    r->run = run;
    bl_record_set_str(&r->tool, "iozone");
    bl_record_set_str(&r->tool_version, c->version);
    bl_record_set_str(&r->test, tests[ch->test].test);
    bl_record_set_str(&r->op, tests[ch->test].op);
    bl_record_set_str(&r->pattern, tests[ch->test].pattern);
    bl_record_set_label(r, "iozone_test", tests[ch->test].name);
    if (c->command)
        bl_record_set_label(r, "command", c->command);
    r->numjobs = ch->procs;
    r->bs = c->reclen_kb > 0 ? bl_count_or(c->reclen_kb * 1024, -1) : -1;
    r->size_bytes = c->file_kb > 0 ? bl_count_or(c->file_kb * 1024, -1) : -1;
    r->direct = c->direct ? BL_TRUE : BL_TRI_ABSENT;
    if (ch->ops) {
        r->iops = ch->value;
        if (c->reclen_kb > 0)
            r->bw_bytes_s = ch->value * c->reclen_kb * 1024;
    } else {
        r->bw_bytes_s = ch->value * 1024;
        if (c->reclen_kb > 0)
            r->iops = ch->value / c->reclen_kb;
    }
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb,
                     "iozone throughput mode (-t %ld): the children's sum of each process's "
                     "rate",
                     ch->procs);
    if (parent)
        bl_strbuf_printf(&sb, "; the parent saw %.2f %s/sec", parent->value,
                         parent->ops ? "ops" : "kB");
    char *note = bl_strbuf_take(&sb);
    bl_record_set_str(&r->note, note);
    free(note);
    bl_strbuf_free(&sb);
}

void bl_iozone_tput_parse(const bl_text *t, bl_parse_out *out, int64_t *run)
{
    size_t run_from = 0, prev_end = 0;
    unsigned seen = 0; /* tests of the current run, one bit each */
    tctx c = {0};
    int open = 0;
    for (size_t i = 0; i < t->nlines; i++) {
        tput ch;
        if (!see_line(t->line[i], "Children see throughput for ", &ch))
            continue;
        if (!open || (seen >> ch.test & 1u)) {
            free(c.command);
            free(c.version);
            run_from = open ? prev_end : 0;
            read_context(t, run_from, i, &c);
            ++*run;
            seen = 0;
            open = 1;
        }
        seen |= 1u << ch.test;
        tput parent;
        int has_parent = i + 1 < t->nlines &&
                         see_line(t->line[i + 1], "Parent sees throughput for ", &parent) &&
                         parent.test == ch.test;
        emit(out, i, *run, &c, &ch, has_parent ? &parent : NULL);
        prev_end = i + 1;
    }
    free(c.command);
    free(c.version);
}
