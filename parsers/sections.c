#include "sections.h"
#include "../core/strbuf.h"
#include <string.h>

static int blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

/* A heading stands alone (blank or nothing around it), is short, and is not a result line,
 * a command or a key=value line. */
static int heading_like(const bl_text *t, size_t i)
{
    const char *s = t->line[i];
    size_t len = strlen(s);
    if (blank(s) || len > 120)
        return 0;
    if (i > 0 && !blank(t->line[i - 1]))
        return 0;
    if (i + 1 < t->nlines && !blank(t->line[i + 1]))
        return 0;
    if (s[0] == '$' || (s[0] == '#' && s[1] == ' ' && strchr(s, '/')) || strchr(s, '='))
        return 0;
    return s[len - 1] != ':';
}

char *bl_heading_above(const bl_text *t, long line, long stop_line)
{
    if (stop_line < 1)
        stop_line = 1;
    for (long i = line - 1; i >= stop_line; i--) {
        size_t k = (size_t)(i - 1);
        if (k < t->nlines && heading_like(t, k)) {
            const char *s = t->line[k];
            s += strspn(s, " \t#");
            return bl_xstrdup(s);
        }
    }
    return NULL;
}
