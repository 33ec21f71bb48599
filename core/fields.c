#include "fields.h"
#include "strbuf.h"
#include <stdio.h>
#include <string.h>

#define F(name, kind, member, unit, flags)                                                         \
    {                                                                                              \
        name, kind, offsetof(bl_record, member), unit, flags                                       \
    }

const bl_field bl_fields[] = {
    F("source", BL_FK_STR, source, NULL, BL_FF_CSV | BL_FF_RUN),
    F("line", BL_FK_INT, line, NULL, BL_FF_CSV),
    F("run", BL_FK_INT, run, NULL, BL_FF_CSV | BL_FF_RUN),
    F("tool", BL_FK_STR, tool, NULL, BL_FF_CSV | BL_FF_RUN),
    F("tool_version", BL_FK_STR, tool_version, NULL, BL_FF_CSV | BL_FF_RUN),
    F("labels", BL_FK_LABELS, labels, NULL, BL_FF_CSV),
    F("test", BL_FK_STR, test, NULL, BL_FF_CSV),
    F("op", BL_FK_STR, op, NULL, BL_FF_CSV),
    F("pattern", BL_FK_STR, pattern, NULL, BL_FF_CSV),
    F("bs", BL_FK_INT, bs, "bytes", BL_FF_CSV),
    F("iodepth", BL_FK_INT, iodepth, NULL, BL_FF_CSV),
    F("numjobs", BL_FK_INT, numjobs, NULL, BL_FF_CSV),
    F("ioengine", BL_FK_STR, ioengine, NULL, BL_FF_CSV),
    F("direct", BL_FK_TRI, direct, NULL, BL_FF_CSV),
    F("size_bytes", BL_FK_INT, size_bytes, "bytes", BL_FF_CSV),
    F("io_bytes", BL_FK_INT, io_bytes, "bytes", BL_FF_CSV),
    F("runtime_s", BL_FK_NUM, runtime_s, "s", BL_FF_CSV),
    F("bw_bytes_s", BL_FK_NUM, bw_bytes_s, "bytes/s", BL_FF_CSV),
    F("iops", BL_FK_NUM, iops, "1/s", BL_FF_CSV),
    F("clat_ns", BL_FK_LAT, clat_ns, "ns", BL_FF_CSV_MEAN | BL_FF_CSV_P99),
    F("slat_ns", BL_FK_LAT, slat_ns, "ns", 0),
    F("lat_ns", BL_FK_LAT, lat_ns, "ns", BL_FF_CSV_MEAN),
    F("cpu_usr_pct", BL_FK_NUM, cpu_usr_pct, "%", BL_FF_CSV),
    F("cpu_sys_pct", BL_FK_NUM, cpu_sys_pct, "%", BL_FF_CSV),
    F("metric", BL_FK_STR, metric, NULL, BL_FF_CSV),
    F("value", BL_FK_NUM, value, NULL, BL_FF_CSV),
    F("unit", BL_FK_STR, unit, NULL, BL_FF_CSV),
    /* Extensions to SPEC (README, "Extensions to the record"). */
    F("cpu_pct", BL_FK_NUM, cpu_pct, "%", 0),
    F("note", BL_FK_STR, note, NULL, BL_FF_CSV),
    F("when", BL_FK_STR, when, NULL, BL_FF_CSV | BL_FF_RUN),
    F("when_from", BL_FK_STR, when_from, NULL, BL_FF_CSV | BL_FF_RUN | BL_FF_PROVENANCE),
    F("bw_samples", BL_FK_SAMPLES, bw_samples, "bytes/s", 0),
    F("iops_samples", BL_FK_SAMPLES, iops_samples, "1/s", 0),
    F("sync_ns", BL_FK_LAT, sync_ns, "ns", 0),
    F("lat_dist", BL_FK_DIST, lat_dist, "%", 0),
    F("iodepth_dist", BL_FK_DIST, iodepth_dist, "%", 0),
    F("disk_util", BL_FK_DISKS, disks, NULL, 0),
    F("series", BL_FK_SERIES, series, NULL, 0),
};
const size_t bl_n_fields = sizeof bl_fields / sizeof bl_fields[0];

const bl_field *bl_field_find(const char *name)
{
    /* compare's set-up keys look fields up once per record and key: the first letter
     * spares most of the strcmp calls (a fifth of report's CPU at 100k records) */
    for (size_t i = 0; i < bl_n_fields; i++)
        if (bl_fields[i].name[0] == name[0] && strcmp(bl_fields[i].name, name) == 0)
            return &bl_fields[i];
    return NULL;
}

int bl_field_is_scalar(const bl_field *f)
{
    return f->kind == BL_FK_STR || f->kind == BL_FK_INT || f->kind == BL_FK_NUM ||
           f->kind == BL_FK_TRI;
}

const char *bl_field_text(const bl_field *f, const bl_record *r, char *buf, size_t n)
{
    switch (f->kind) {
    case BL_FK_STR:
        return *BL_CFIELD(r, f, char *);
    case BL_FK_INT: {
        int64_t v = *BL_CFIELD(r, f, int64_t);
        if (v < 0)
            return NULL;
        snprintf(buf, n, "%lld", (long long)v);
        return buf;
    }
    case BL_FK_NUM: {
        double v = *BL_CFIELD(r, f, double);
        if (!bl_present(v))
            return NULL;
        bl_strbuf sb;
        bl_strbuf_init(&sb);
        bl_strbuf_put_double(&sb, v);
        snprintf(buf, n, "%s", sb.s);
        bl_strbuf_free(&sb);
        return buf;
    }
    case BL_FK_TRI: {
        int v = *BL_CFIELD(r, f, int);
        return v == BL_TRI_ABSENT ? NULL : v ? "true" : "false";
    }
    default:
        return NULL;
    }
}
