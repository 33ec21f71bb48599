/* Checks that involve several options of a job (job.h: bl_job_check), run when a job file
 * has been read and again after command line overrides; and the test name of a job. */
#include "job.h"
#include <stdio.h>

int bl_job_check(const bl_job *j, char *err, size_t errlen)
{
    if (j->size > BL_MAX_OFF - j->offset) {
        snprintf(err, errlen,
                 "job '%s': offset %llu + size %llu passes the largest file offset (2^63-1)",
                 j->name ? j->name : "", (unsigned long long)j->offset,
                 (unsigned long long)j->size);
        return -1;
    }
    if (j->bs * (uint64_t)j->iodepth > (1ull << 30)) {
        snprintf(err, errlen, "job '%s': bs x iodepth = %llu bytes of buffers, more than 1 GiB",
                 j->name ? j->name : "", (unsigned long long)(j->bs * (uint64_t)j->iodepth));
        return -1;
    }
    if ((j->hipri || j->sqthread_poll) && !bl_engine_has(j->engine, BL_ENGINE_POLLING)) {
        snprintf(err, errlen, "job '%s': hipri and sqthread_poll are for ioengine=io_uring, not %s",
                 j->name ? j->name : "", j->engine->name);
        return -1;
    }
    if (j->nrfiles > 1) {
        const char *why = NULL;
        if (j->filename)
            why = "with filename= fio takes the files from its list; give a folder (directory= or "
                  "--target DIR) for nrfiles";
        else if (!j->size || j->size % ((uint64_t)j->nrfiles * j->bs) != 0)
            why = "size must be a multiple of nrfiles x bs (fio gives the first files one block "
                  "more; benchlog splits evenly or refuses)";
        else if (j->verify || j->verify_only)
            why = "verify reads back one file";
        else if (j->fsync_every || j->fdatasync_every)
            why = "fsync=/fdatasync= with several files";
        if (why) {
            snprintf(err, errlen, "job '%s': nrfiles=%d is not supported: %s",
                     j->name ? j->name : "", j->nrfiles, why);
            return -1;
        }
    }
    if (j->is_trim && !bl_engine_has(j->engine, BL_ENGINE_TRIM)) {
        snprintf(err, errlen,
                 "job '%s': rw=trim/randtrim: the %s engine cannot trim (use io_uring or sync)",
                 j->name ? j->name : "", j->engine->name);
        return -1;
    }
    if (j->ss.on || j->ss.dur_s) {
        const char *why = NULL;
        if (!j->ss.on)
            why = "ss_dur without ss=iops|bw|iops_slope|bw_slope:LIMIT";
        else if (j->ss.dur_s < (j->ss.slope ? 2 : 1))
            why = "ss needs ss_dur of at least 1 s (2 s for a slope): fio checks nothing "
                  "without it";
        else if (j->numjobs > 1 && !j->group_reporting)
            why = "with numjobs > 1 fio judges each clone on its own; benchlog judges the job "
                  "(add group_reporting)";
        if (why) {
            snprintf(err, errlen, "job '%s': steady state: %s", j->name ? j->name : "", why);
            return -1;
        }
    }
    if (j->hist_log && j->log_hist_msec <= 0) {
        snprintf(err, errlen,
                 "job '%s': write_hist_log needs log_hist_msec (fio writes no "
                 "histogram line without it)",
                 j->name ? j->name : "");
        return -1;
    }
    if ((j->rate_bps || j->rate_iops) && (j->is_read && j->is_write)) {
        snprintf(err, errlen,
                 "job '%s': rate on a mixed job: fio limits each direction on its "
                 "own, which benchlog's runner does not do",
                 j->name ? j->name : "");
        return -1;
    }
    if ((j->rate_min_bps || j->rate_iops_min) && (j->is_read && j->is_write)) {
        snprintf(err, errlen,
                 "job '%s': rate_min on a mixed job: fio checks each direction on "
                 "its own, which benchlog's runner does not do",
                 j->name ? j->name : "");
        return -1;
    }
    if ((j->rate_bps && j->rate_min_bps > j->rate_bps) ||
        (j->rate_iops && j->rate_iops_min > j->rate_iops)) {
        snprintf(err, errlen, "job '%s': the minimum rate exceeds the rate (fio refuses it too)",
                 j->name ? j->name : "");
        return -1;
    }
    if (j->rate_bps && j->rate_iops) {
        snprintf(err, errlen, "job '%s': rate and rate_iops: give one of them",
                 j->name ? j->name : "");
        return -1;
    }
    if (j->verify || j->verify_only) {
        const char *why = NULL;
        if (!j->verify)
            why = "verify_only needs verify=crc32c|md5|sha256|xxhash";
        else if (bl_engine_has(j->engine, BL_ENGINE_NO_IO))
            why = "the engine does no I/O";
        else if (!j->is_write || j->is_read || j->is_trim)
            why = "only a job that only writes (rw=write or randwrite) is verified";
        else if (j->time_based || j->norandommap || j->dist || j->numjobs > 1)
            why = "every block must be written by one thread and covered by the passes "
                  "(time_based, norandommap, random_distribution and numjobs > 1 are not)";
        else if (j->bs < BL_VERIFY_MIN_BS)
            why = "bs must be at least 64 bytes";
        if (why) {
            snprintf(err, errlen, "job '%s': verify: %s", j->name ? j->name : "", why);
            return -1;
        }
    }
    if (j->runtime_s > BL_MAX_TIME_S || j->ramp_time_s > BL_MAX_TIME_S) {
        snprintf(err, errlen, "job '%s': runtime and ramp_time go up to 100 days",
                 j->name ? j->name : "");
        return -1;
    }
    return 0;
}

bool bl_job_writes(const bl_job *j)
{
    return j->is_write || j->is_trim;
}

const char *bl_job_test_name(const bl_job *j, bl_dir d)
{
    if (d == BL_DIR_WRITE && j->is_trim)
        return j->random ? "rand-trim" : "seq-trim";
    if (j->random)
        return d == BL_DIR_READ ? "rand-read" : "rand-write";
    return d == BL_DIR_READ ? "seq-read" : "seq-write";
}
