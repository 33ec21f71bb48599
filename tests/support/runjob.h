/* Job-file text to records, for the runner's tests: the parse must succeed (its messages are
 * printed and the test fails otherwise); the run's messages go to /dev/null unless the caller
 * gives a stream. */
#ifndef BL_TEST_RUNJOB_H
#define BL_TEST_RUNJOB_H

#include "../../runner/runner.h"

/* TEXT parsed as a job file called NAME into JOBS (caller frees with bl_jobs_free). */
void bl_test_parse_jobs(const char *name, const char *text, bl_jobs *jobs);

/* TEXT parsed and run with O; OUT is initialised here and owned by the caller. Returns
 * bl_run_jobs's status. */
int bl_test_run_jobtext(const char *text, bl_run_opts o, bl_records *out);

#endif
