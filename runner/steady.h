/* fio's steady state (ss=, ss_dur=, ss_ramp=): once a second the job's IOPS or bandwidth (all
 * its clones) goes into a window of ss_dur seconds; when the window is full and its largest
 * deviation from the mean (iops, bw) or its least-squares slope (iops_slope, bw_slope) is
 * under the limit (absolute, or % of the mean), the job is stopped, as fio stops it. Data
 * starts one second after ss_ramp, as in fio. The records say whether and when it was
 * reached (labels ss, ss_attained, ss_time_s, ss_criterion). */
#ifndef BL_RUNNER_STEADY_H
#define BL_RUNNER_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bl_ss_opts {
    bool on, bw, slope, pct; /* bw: bandwidth (bytes/s) instead of IOPS */
    double limit;
    int dur_s;     /* window, whole seconds (fio's ss_dur) */
    double ramp_s; /* fio's ss_ramp */
} bl_ss_opts;

typedef struct bl_ss {
    double *v; /* the window, oldest first once full */
    int n;
    bool attained;
    double at_s;      /* seconds since the job started, when attained */
    double criterion; /* the last one computed (deviation or slope, % when pct) */
} bl_ss;

/* "iops:5%", "bw_slope:0.1%", "iops:200"; 0, or -1 with the reason in err. */
int bl_ss_parse(const char *v, bl_ss_opts *o, char *err, size_t n);
/* The option as fio writes it ("iops_slope:0.1%"). */
const char *bl_ss_name(const bl_ss_opts *o, char *buf, size_t n);
/* One second's figure; true when steady state is reached with it. */
bool bl_ss_add(bl_ss *s, const bl_ss_opts *o, double value, double t_s);
void bl_ss_free(bl_ss *s);

#endif
