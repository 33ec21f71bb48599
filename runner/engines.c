/* The table of engines: one X(name) line an engine, each defined in runner/engine_<name>.c as
 * `const bl_engine_ops bl_engine_<name>`. The order is the order of --help. */
#include "engine_ops.h"
#include <string.h>

/* clang-format off */
#define BL_ENGINES(X) \
    X(libaio) \
    X(io_uring) \
    X(sync) \
    X(null) \
    /* end */
/* clang-format on */

#define BL_DECLARE(name) extern const bl_engine_ops bl_engine_##name;
BL_ENGINES(BL_DECLARE)

#define BL_ENTRY(name) &bl_engine_##name,
static const bl_engine_ops *const engines[] = {BL_ENGINES(BL_ENTRY)};

size_t bl_engine_count(void)
{
    return sizeof engines / sizeof engines[0];
}

const bl_engine_ops *bl_engine_at(size_t i)
{
    return i < bl_engine_count() ? engines[i] : NULL;
}

const bl_engine_ops *bl_engine_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < bl_engine_count(); i++) {
        const bl_engine_ops *e = engines[i];
        if (strcmp(e->name, name) == 0)
            return e;
        for (const char *const *a = e->aliases; a && *a; a++)
            if (strcmp(*a, name) == 0)
                return e;
    }
    return NULL;
}

int bl_engine_available(const bl_engine_ops *e, char *why, size_t n)
{
    if (n)
        why[0] = '\0';
    return e->available ? e->available(why, n) : 0;
}
