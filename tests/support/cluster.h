/* Checks shared by the fio client/server tests (test_fio_client.c, test_fio_hosts.c). */
#ifndef BL_TEST_CLUSTER_H
#define BL_TEST_CLUSTER_H

#include "../../parsers/parser.h"

/* The record with labels host and job and op; fails the test when there is none. */
const bl_record *bl_test_host_rec(const bl_parse_out *o, const char *host, const char *job,
                                  const char *op);
/* The value of percentile p of l, or BL_ABSENT. */
double bl_test_pct(const bl_lat *l, double p);
/* The test's own cluster percentile, independent of core/latency: every host's bins in one
 * sorted array, walked until the running count reaches p% of the total (fio's rule). */
double bl_test_summed_pct(const bl_lat *const *hosts, size_t n, double p);
/* Asserts that agg's 17 clat percentiles are those of the hosts' summed bins; returns how
 * many of them differ from the mean of the hosts' own percentiles. */
int bl_test_check_cluster_pcts(const bl_record *agg, const bl_lat *const *hosts, size_t n);

#endif
