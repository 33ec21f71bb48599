#include "progress.h"
#include <string.h>
#include <unistd.h>

bool bl_progress_enabled(FILE *f)
{
    return isatty(fileno(f)) == 1;
}

void bl_progress_format(char *buf, size_t n, const char *test, double pct, double bw, double iops,
                        double left_s)
{
    int left = left_s > 0 ? (int)(left_s + 0.5) : 0;
    /* A sweep's point and test ("3/8 iodepth=4 numjobs=2 little") get a wider field. */
    int w = test && strlen(test) > 26 ? 56 : 26;
    snprintf(buf, n, "%-*.*s %3.0f%%  %9.1f MB/s  %10.0f IOPS  %d:%02d left", w, w,
             test ? test : "", pct, bw / 1e6, iops, left / 60, left % 60);
}

void bl_progress_show(FILE *f, const char *test, double pct, double bw, double iops, double left_s)
{
    if (!bl_progress_enabled(f))
        return;
    char line[200];
    bl_progress_format(line, sizeof line, test, pct, bw, iops, left_s);
    fprintf(f, "\r%s\033[K", line);
    fflush(f);
}

void bl_progress_clear(FILE *f)
{
    if (!bl_progress_enabled(f))
        return;
    fputs("\r\033[K", f);
    fflush(f);
}
