/* libFuzzer target: the fio job-file reader of the runner (options, suffixes, sections). */
#include "../../runner/job.h"
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bl_text t;
    char err[256];
    if (bl_text_from_bytes(&t, "fuzz.fio", (const char *)data, size, err, sizeof err) != 0)
        return 0;
    bl_jobs jobs = {0};
    bl_diags out;
    bl_diags_init(&out, "fuzz.fio");
    bl_jobfile_parse(&t, &jobs, &out);
    bl_jobs_free(&jobs);
    bl_diags_free(&out);
    bl_text_free(&t);
    return 0;
}
