/* libFuzzer target: one format (FUZZ_FORMAT, a --as name) or "auto" detection over arbitrary
 * bytes. Anything but a clean return — a crash, a sanitizer report, a hang — is a bug. */
#include "../../parsers/driver.h"
#include <stddef.h>
#include <stdint.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT "auto"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bl_text t;
    char err[256];
    if (bl_text_from_bytes(&t, "fuzz", (const char *)data, size, err, sizeof err) != 0)
        return 0;
    bl_parse_opts opts = {.as = FUZZ_FORMAT};
    bl_parse_out out;
    bl_out_init(&out, "fuzz");
    bl_parse_text(&t, &opts, &out);
    bl_out_free(&out);
    bl_text_free(&t);
    return 0;
}
