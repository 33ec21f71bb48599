#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "runjob.h"
#include "../../core/text.h"
#include <stdio.h>
#include <string.h>

void bl_test_parse_jobs(const char *name, const char *text, bl_jobs *jobs)
{
    bl_text t;
    char err[256];
    assert_int_equal(bl_text_from_bytes(&t, name, text, strlen(text), err, sizeof err), 0);
    bl_diags po;
    bl_diags_init(&po, name);
    *jobs = (bl_jobs){0};
    int perr = bl_jobfile_parse(&t, jobs, &po);
    if (perr)
        bl_diags_print(stdout, &po);
    bl_diags_free(&po);
    bl_text_free(&t);
    assert_int_equal(perr, 0);
}

int bl_test_run_jobtext(const char *text, bl_run_opts o, bl_records *out)
{
    bl_jobs jobs;
    bl_test_parse_jobs("t.fio", text, &jobs);
    FILE *devnull = NULL;
    if (!o.msg)
        o.msg = devnull = fopen("/dev/null", "w");
    bl_records_init(out);
    int rc = bl_run_jobs(&jobs, &o, out);
    if (devnull)
        fclose(devnull);
    bl_jobs_free(&jobs);
    return rc;
}
