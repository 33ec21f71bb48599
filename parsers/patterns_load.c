/* Reading pattern files: one directive a line, `#` starts a comment line.
 *   format NAME | summary TEXT | tool NAME | detect RE | context RE | record RE
 *   set FIELD VALUE | unit FIELD UNIT [binary] | unit FIELD from CAPTURE [binary]
 *   nonzero FIELD
 * `set` and `nonzero` after a `record` belong to that record; before, to all records. */
#include "../core/strbuf.h"
#include "patterns_int.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    pt_kind kind;
} fields[] = {
    {"test", PK_STR},      {"op", PK_STR},        {"pattern", PK_STR},   {"tool_version", PK_STR},
    {"ioengine", PK_STR},  {"note", PK_STR},      {"bs", PK_SIZE},       {"size_bytes", PK_SIZE},
    {"io_bytes", PK_SIZE}, {"iodepth", PK_COUNT}, {"numjobs", PK_COUNT}, {"runtime_s", PK_SECONDS},
    {"bw", PK_BW},         {"iops", PK_IOPS},     {"lat_min", PK_LAT},   {"lat_max", PK_LAT},
    {"lat_mean", PK_LAT},  {"lat_stdev", PK_LAT}, {"direct", PK_BOOL}};

int pt_field_kind(const char *name, double *pct)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].name, name) == 0)
            return (int)fields[i].kind;
    /* lat_p99, lat_p99_9: a percentile, '_' for the decimal point */
    if (strncmp(name, "lat_p", 5) == 0 && isdigit((unsigned char)name[5])) {
        char buf[32];
        snprintf(buf, sizeof buf, "%s", name + 5);
        for (char *c = buf; *c; c++)
            if (*c == '_')
                *c = '.';
            else if (!isdigit((unsigned char)*c))
                return -1;
        double p = strtod(buf, NULL);
        if (p > 0 && p <= 100) {
            if (pct)
                *pct = p;
            return PK_LAT;
        }
    }
    return -1;
}

/* Size and bandwidth units; a "/s", "/sec" or "ps" after them is allowed for bandwidth. */
static double size_mult(const char *u, int binary, int per_second)
{
    static const char prefixes[] = "KMGTP";
    size_t n = strlen(u);
    if (per_second) {
        static const char *const tails[] = {"/s", "/sec", "ps"};
        for (size_t i = 0; i < 3; i++) {
            size_t k = strlen(tails[i]);
            if (n > k && strcmp(u + n - k, tails[i]) == 0) {
                n -= k;
                break;
            }
        }
    }
    char s[16];
    if (n == 0 || n >= sizeof s)
        return 0;
    memcpy(s, u, n);
    s[n] = '\0';
    if (strcmp(s, "B") == 0 || strcmp(s, "bytes") == 0)
        return 1;
    const char *p = strchr(prefixes, toupper((unsigned char)s[0]));
    if (!p)
        return 0;
    int power = (int)(p - prefixes) + 1;
    const char *rest = s + 1;
    if (strcmp(rest, "iB") == 0)
        binary = 1;
    else if (strcmp(rest, "B") != 0 && strcmp(rest, "") != 0)
        return 0;
    double m = 1;
    for (int i = 0; i < power; i++)
        m *= binary ? 1024 : 1000;
    return m;
}

static double time_mult(const char *u, double per_ns)
{
    static const struct {
        const char *name;
        double ns;
    } units[] = {{"ns", 1},    {"nsec", 1},   {"us", 1e3},     {"usec", 1e3},
                 {"µs", 1e3},  {"ms", 1e6},   {"msec", 1e6},   {"s", 1e9},
                 {"sec", 1e9}, {"secs", 1e9}, {"seconds", 1e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(units[i].name, u) == 0)
            return units[i].ns / per_ns;
    return 0;
}

double pt_unit_mult(pt_kind kind, const char *unit, int binary)
{
    switch (kind) {
    case PK_SIZE:
        return size_mult(unit, binary, 0);
    case PK_BW:
        return size_mult(unit, binary, 1);
    case PK_SECONDS:
        return time_mult(unit, 1e9);
    case PK_LAT:
        return time_mult(unit, 1);
    default:
        return 0;
    }
}

static void regex_free(pt_regex *r)
{
    pcre2_code_free(r->re);
    for (size_t i = 0; i < r->n_sets; i++) {
        free(r->sets[i].field);
        free(r->sets[i].value);
    }
    free(r->sets);
    free(r->nonzero);
}

void pt_format_free(pt_format *f)
{
    if (!f)
        return;
    free(f->name);
    free(f->summary);
    free(f->tool);
    free(f->path);
    pcre2_code_free(f->detect);
    for (size_t i = 0; i < f->n_ctx; i++)
        regex_free(&f->ctx[i]);
    for (size_t i = 0; i < f->n_rec; i++)
        regex_free(&f->rec[i]);
    free(f->ctx);
    free(f->rec);
    for (size_t i = 0; i < f->n_units; i++) {
        free(f->units[i].field);
        free(f->units[i].from);
    }
    free(f->units);
    for (size_t i = 0; i < f->n_sets; i++) {
        free(f->sets[i].field);
        free(f->sets[i].value);
    }
    free(f->sets);
    free(f);
}

typedef struct loader {
    pt_format *f;
    const char *path;
    long line;
    bl_parse_out *errs;
    int bad;
} loader;

static void fail(loader *L, const char *fmt, const char *a, const char *b)
{
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    bl_strbuf_printf(&sb, fmt, a ? a : "", b ? b : "");
    bl_out_error(L->errs, L->line, "%s", sb.s);
    bl_strbuf_free(&sb);
    L->bad = 1;
}

static pcre2_code *compile(loader *L, const char *re)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *c =
        pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE, &code, &off, NULL);
    if (!c) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        char where[32];
        snprintf(where, sizeof where, "%zu", (size_t)off);
        fail(L, "pattern error at offset %s: %s", where, (const char *)msg);
    }
    return c;
}

/* Every named capture of a record or context pattern must be a field, a label_ or the
 * source of a unit. */
static void check_names(loader *L, const pt_regex *r)
{
    uint32_t count = 0, size = 0;
    PCRE2_SPTR table = NULL;
    pcre2_pattern_info(r->re, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(r->re, PCRE2_INFO_NAMEENTRYSIZE, &size);
    pcre2_pattern_info(r->re, PCRE2_INFO_NAMETABLE, &table);
    for (uint32_t i = 0; i < count; i++) {
        const char *name = (const char *)(table + i * size + 2);
        if (strncmp(name, "label_", 6) == 0 || pt_field_kind(name, NULL) >= 0)
            continue;
        int is_unit = 0;
        for (size_t u = 0; u < L->f->n_units; u++)
            is_unit |= L->f->units[u].from && strcmp(L->f->units[u].from, name) == 0;
        if (!is_unit) {
            long keep = L->line;
            L->line = r->line;
            fail(L, "capture '%s' is no record field, label_ or unit source%s", name, NULL);
            L->line = keep;
        }
    }
}

static void add_regex(loader *L, pt_regex **v, size_t *n, const char *re)
{
    pcre2_code *c = compile(L, re);
    if (!c)
        return;
    *v = bl_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (pt_regex){.re = c, .line = L->line};
}

static int set_value_ok(const char *field, const char *value)
{
    int k = pt_field_kind(field, NULL);
    if (strncmp(field, "label_", 6) == 0 || k == PK_STR)
        return 1;
    if (k == PK_BOOL)
        return strcmp(value, "true") == 0 || strcmp(value, "false") == 0;
    char *end;
    strtod(value, &end);
    return k >= 0 && end != value && *end == '\0';
}

static void directive_set(loader *L, char *args)
{
    char *field = strtok(args, " \t"), *value = strtok(NULL, "");
    value = value ? value + strspn(value, " \t") : NULL;
    if (!field || !value || !*value) {
        fail(L, "set needs FIELD VALUE%s%s", NULL, NULL);
        return;
    }
    if (!set_value_ok(field, value)) {
        fail(L, "set: '%s' is no field or '%s' is no value for it", field, value);
        return;
    }
    pt_set **v = L->f->n_rec ? &L->f->rec[L->f->n_rec - 1].sets : &L->f->sets;
    size_t *n = L->f->n_rec ? &L->f->rec[L->f->n_rec - 1].n_sets : &L->f->n_sets;
    *v = bl_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (pt_set){bl_xstrdup(field), bl_xstrdup(value)};
}

static void directive_unit(loader *L, char *args)
{
    char *field = strtok(args, " \t"), *unit = strtok(NULL, " \t"), *third = strtok(NULL, " \t");
    char *fourth = third ? strtok(NULL, " \t") : NULL;
    int kind = field ? pt_field_kind(field, NULL) : -1;
    if (!unit || kind < 0 || kind == PK_STR || kind == PK_BOOL || kind == PK_COUNT ||
        kind == PK_IOPS) {
        fail(L,
             "unit: '%s' is no field with a unit (bs, size_bytes, io_bytes, runtime_s, bw, "
             "lat_*)%s",
             field ? field : "", NULL);
        return;
    }
    pt_unit u = {.field = NULL};
    if (strcmp(unit, "from") == 0) {
        if (!third) {
            fail(L, "unit %s from: which capture?%s", field, NULL);
            return;
        }
        u.from = bl_xstrdup(third);
        u.binary = fourth && strcmp(fourth, "binary") == 0;
    } else {
        u.binary = third && strcmp(third, "binary") == 0;
        u.mult = pt_unit_mult((pt_kind)kind, unit, u.binary);
        if (u.mult == 0) {
            fail(L, "unknown unit '%s' for %s", unit, field);
            return;
        }
    }
    u.field = bl_xstrdup(field);
    L->f->units = bl_xrealloc(L->f->units, (L->f->n_units + 1) * sizeof *L->f->units);
    L->f->units[L->f->n_units++] = u;
}

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return 0;
    return 1;
}

static void directive(loader *L, char *word, char *args)
{
    pt_format *f = L->f;
    if (strcmp(word, "format") == 0) {
        if (!valid_name(args) || bl_format_find(args))
            fail(L, "format name '%s' is not a free name of letters, digits, - and _%s", args,
                 NULL);
        else {
            free(f->name);
            f->name = bl_xstrdup(args);
        }
    } else if (strcmp(word, "summary") == 0) {
        free(f->summary);
        f->summary = bl_xstrdup(args);
    } else if (strcmp(word, "tool") == 0) {
        free(f->tool);
        f->tool = bl_xstrdup(args);
    } else if (strcmp(word, "detect") == 0) {
        pcre2_code_free(f->detect);
        f->detect = compile(L, args);
    } else if (strcmp(word, "context") == 0)
        add_regex(L, &f->ctx, &f->n_ctx, args);
    else if (strcmp(word, "record") == 0)
        add_regex(L, &f->rec, &f->n_rec, args);
    else if (strcmp(word, "set") == 0)
        directive_set(L, args);
    else if (strcmp(word, "unit") == 0)
        directive_unit(L, args);
    else if (strcmp(word, "nonzero") == 0 && f->n_rec) {
        free(f->rec[f->n_rec - 1].nonzero);
        f->rec[f->n_rec - 1].nonzero = bl_xstrdup(args);
    } else
        fail(L,
             "unknown directive '%s' (format, summary, tool, detect, context, record, set, "
             "unit, nonzero after a record)%s",
             word, NULL);
}

static void read_lines(loader *L, FILE *in)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&buf, &cap, in)) >= 0) {
        L->line++;
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
            buf[--n] = '\0';
        char *s = buf + strspn(buf, " \t");
        if (!*s || *s == '#')
            continue;
        char *word = s;
        size_t wl = strcspn(s, " \t");
        char *args = s + wl;
        if (*args)
            *args++ = '\0';
        args += strspn(args, " \t");
        directive(L, word, args);
    }
    free(buf);
}

int bl_patterns_load_file(bl_patterns *p, const char *path, bl_parse_out *errs)
{
    FILE *in = fopen(path, "r");
    const char *keep = errs->source;
    errs->source = path;
    if (!in) {
        bl_out_error(errs, 0, "cannot open pattern file: %s", strerror(errno));
        errs->source = keep;
        return 1;
    }
    loader L = {.f = bl_xcalloc(1, sizeof(pt_format)), .path = path, .errs = errs};
    read_lines(&L, in);
    fclose(in);
    L.line = 0;
    if (!L.f->name)
        fail(&L, "no 'format NAME' line%s%s", NULL, NULL);
    if (!L.f->detect && !L.bad)
        fail(&L, "no 'detect' pattern%s%s", NULL, NULL);
    if (!L.f->n_rec && !L.bad)
        fail(&L, "no 'record' pattern%s%s", NULL, NULL);
    for (size_t i = 0; i < L.f->n_rec; i++)
        check_names(&L, &L.f->rec[i]);
    for (size_t i = 0; i < L.f->n_ctx; i++)
        check_names(&L, &L.f->ctx[i]);
    for (size_t i = 0; i < p->n && L.f->name; i++)
        if (strcmp(p->v[i]->name, L.f->name) == 0)
            fail(&L, "format '%s' is already defined by %s", L.f->name, p->v[i]->path);
    errs->source = keep;
    if (L.bad) {
        pt_format_free(L.f);
        return 1;
    }
    pt_format *f = L.f;
    f->path = bl_xstrdup(path);
    if (!f->tool)
        f->tool = bl_xstrdup(f->name);
    if (!f->summary) {
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "pattern file %s", path);
        f->summary = bl_strbuf_take(&sb);
    }
    f->fmt = (bl_format){.name = f->name, .summary = f->summary, .family = f->name, .rank = 1};
    bl_grow((void **)&p->v, &p->cap, p->n + 1, sizeof *p->v);
    p->v[p->n++] = f;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int bl_patterns_load_dir(bl_patterns *p, const char *dir, bl_parse_out *errs)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".pat") != 0)
            continue;
        bl_grow((void **)&names, &cap, n + 1, sizeof *names);
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_printf(&sb, "%s/%s", dir, e->d_name);
        names[n++] = bl_strbuf_take(&sb);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        rc |= bl_patterns_load_file(p, names[i], errs);
        free(names[i]);
    }
    free(names);
    return rc;
}

char *bl_patterns_user_dir(void)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    bl_strbuf sb;
    bl_strbuf_init(&sb);
    if (xdg && *xdg)
        bl_strbuf_printf(&sb, "%s/benchlog/patterns", xdg);
    else if (home && *home)
        bl_strbuf_printf(&sb, "%s/.config/benchlog/patterns", home);
    else
        return NULL;
    return bl_strbuf_take(&sb);
}

bl_patterns *bl_patterns_new(void)
{
    return bl_xcalloc(1, sizeof(bl_patterns));
}

void bl_patterns_free(bl_patterns *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        pt_format_free(p->v[i]);
    free(p->v);
    free(p);
}

size_t bl_patterns_count(const bl_patterns *p)
{
    return p ? p->n : 0;
}

const bl_format *bl_patterns_format(const bl_patterns *p, size_t i)
{
    return p && i < p->n ? &p->v[i]->fmt : NULL;
}
