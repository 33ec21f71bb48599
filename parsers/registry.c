/* The table of formats: one X(name) line per format, each defined in parsers/<name>.c as
 * `const bl_format bl_format_<name>`. The order is the order of --help and of probing. */
#include "parser.h"
#include <string.h>

/* clang-format off */
#define BL_FORMATS(X) \
    /* fio family */ \
    X(fio) \
    X(fio_terse) \
    X(fio_json) \
    X(fio_log) \
    X(fio_client) \
    /* bonnie++ */ \
    X(bonnie) \
    X(bonnie_csv) \
    X(bonnie_html) \
    /* dd */ \
    X(dd) \
    /* hdparm -t/-T */ \
    X(hdparm) \
    /* iozone -a */ \
    X(iozone) \
    /* sysbench fileio */ \
    X(sysbench) \
    /* DiskSpd */ \
    X(diskspd) \
    /* CrystalDiskMark, KDiskMark, fio-cdm */ \
    X(cdm) \
    /* results tables typed into a page */ \
    X(speed_table) \
    /* end */
/* clang-format on */

#define BL_DECLARE(name) extern const bl_format bl_format_##name;
BL_FORMATS(BL_DECLARE)

#define BL_ENTRY(name) &bl_format_##name,
static const bl_format *const formats[] = {BL_FORMATS(BL_ENTRY)};

size_t bl_format_count(void)
{
    return sizeof formats / sizeof formats[0];
}

const bl_format *bl_format_at(size_t i)
{
    return i < bl_format_count() ? formats[i] : NULL;
}

const bl_format *bl_format_find(const char *name)
{
    for (size_t i = 0; i < bl_format_count(); i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}
