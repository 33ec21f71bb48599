/* The mean latency of averaged fio latency logs (log_avg_msec), weighted by I/O count.
 *
 * An averaged latency log holds one mean per window and no count, so fio_log.c gives no
 * latency figure for it. bl_fio_logs_weight looks through the records of several files
 * (outs[0..n), one per file given together) for the averaged IOPS log of the same job
 * (same folder, job, job number and direction), counts each latency window's I/Os from it
 * and puts the weighted mean into the latency record, with labels weighted_by (the IOPS log)
 * and log_ios (the I/O count found); an IOPS record whose own mean fio_log.c left out for
 * gaps between its entries gets the run's IOPS from that count. A latency record left without
 * weights gets a warning FILE:LINE in its own out. */
#ifndef BL_FIO_LOG_WEIGHT_H
#define BL_FIO_LOG_WEIGHT_H

#include "parser.h"

void bl_fio_logs_weight(bl_parse_out *outs, size_t n);

#endif
