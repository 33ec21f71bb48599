/* Bodies of one text told apart, or said to be repeats (bodies.h). */
#include "bodies.h"
#include "../core/strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_sp(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static const char *word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncasecmp(s, w, n) == 0 && !isalpha((unsigned char)s[n]) ? skip_sp(s + n) : NULL;
}

static const char *number(const char *s)
{
    if (*s == '#')
        s++;
    if (!isdigit((unsigned char)*s))
        return NULL;
    while (isdigit((unsigned char)*s))
        s++;
    return s;
}

int bl_heading_numbers_run(const char *h)
{
    static const char *const words[] = {"run", "pass", "try", "attempt", "round", "iteration"};
    const char *s = skip_sp(h), *p;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (!(p = word(s, words[i])) || !(p = number(p)))
            continue;
        p = skip_sp(p);
        const char *of = word(p, "of");
        if (of && (of = number(of)))
            p = skip_sp(of);
        return *p == '\0' || (*p == ':' && !*skip_sp(p + 1));
    }
    /* "2nd run", "3rd pass", "1st try" */
    if ((p = number(s)) && (word(p, "st") || word(p, "nd") || word(p, "rd") || word(p, "th"))) {
        p = skip_sp(p + 2);
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
            const char *e = word(p, words[i]);
            if (e && !*e)
                return 1;
        }
    }
    /* "2回目" */
    return (p = number(s)) && strncmp(p, "回目", strlen("回目")) == 0 &&
           !*skip_sp(p + strlen("回目"));
}

/* Tools whose output names no command: two bodies of the same settings may be anything. */
static int commandless(const char *tool)
{
    return tool && (strcmp(tool, "CrystalDiskMark") == 0 || strcmp(tool, "KDiskMark") == 0);
}

static const char *const same_keys[] = {"section", "test_heading", "row",    "column",
                                        "host",    "drive",        "target", "profile",
                                        "mode",    "test_size"};

/* What the text knows of the body recs[i..j): its tool, labels and tests, joined. */
static char *identity(bl_record *const *recs, size_t i, size_t j)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, "%s", recs[i]->tool);
    for (size_t k = 0; k < sizeof same_keys / sizeof same_keys[0]; k++) {
        const char *v = bl_record_label(recs[i], same_keys[k]);
        bl_strbuf_printf(&sb, "\x1f%s", v ? v : "");
    }
    for (size_t k = i; k < j; k++)
        bl_strbuf_printf(&sb, "\x1e%s/%lld/%lld/%lld", recs[k]->test ? recs[k]->test : "",
                         (long long)recs[k]->bs, (long long)recs[k]->iodepth,
                         (long long)recs[k]->numjobs);
    return bl_strbuf_take(&sb);
}

void bl_label_bodies(bl_parse_out *out)
{
    bl_record *const *recs = out->recs.v;
    size_t n = out->recs.n, nb = 0, cap = 0;
    struct body {
        size_t i, j;
        char *id;
    } *b = NULL;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && recs[j]->run == recs[i]->run)
            j++;
        if (commandless(recs[i]->tool) && !bl_record_label(recs[i], "run_heading") &&
            !bl_record_label(recs[i], "body")) {
            bl_grow((void **)&b, &cap, nb + 1, sizeof *b);
            b[nb++] = (struct body){i, j, identity(recs, i, j)};
        }
        i = j;
    }
    for (size_t x = 0; x < nb; x++) {
        size_t count = 0, nth = 0;
        for (size_t y = 0; y < nb; y++)
            if (strcmp(b[x].id, b[y].id) == 0)
                count++, nth += y <= x;
        if (count < 2)
            continue;
        char v[48];
        snprintf(v, sizeof v, "%zu/%zu", nth, count);
        for (size_t k = b[x].i; k < b[x].j; k++)
            bl_record_set_label(recs[k], "body", v);
    }
    for (size_t x = 0; x < nb; x++)
        free(b[x].id);
    free(b);
}
