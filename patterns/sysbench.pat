# sysbench 1.0 fileio results as a pattern file: a worked example of multi-line records
# (benchlog parse --patterns patterns/sysbench.pat --as sysbench-pat FILE). Each pattern
# looks at most a few lines ahead ({0,8}), so a block missing a line never borrows the next
# run's figure. The C format `sysbench` does more than a pattern can: the 0.4/0.5 layout
# (counts to divide by the time), the test name from "Doing random read test", any
# --percentile, and refusing figures that contradict the block size.
format   sysbench-pat
summary  sysbench 1.0 fileio results (pattern file)
tool     sysbench
detect   ^File operations:$
context  ^sysbench (?<tool_version>[\d.]+) .*\n(?:.*\n){0,3}?Number of threads: (?<numjobs>\d+)\n(?:.*\n){0,8}?Block size (?<bs>\d+)(?<bs_unit>[KMG])iB\n(?:.*\n){0,8}?Doing (?<label_sysbench_mode>.+) test$
record   ^File operations:\n +reads/s: +(?<iops>[\d.]+)\n(?:.*\n){0,4}? +read, MiB/s: +(?<bw>[\d.]+)\n(?:.*\n){0,4}? +total time: +(?<runtime_s>[\d.]+)s\n(?:.*\n){0,3}?Latency \(ms\):\n +min: +(?<lat_min>[\d.]+)\n +avg: +(?<lat_mean>[\d.]+)\n +max: +(?<lat_max>[\d.]+)\n +95th percentile: +(?<lat_p95>[\d.]+)$
set      op read
nonzero  iops
record   ^File operations:\n.*\n +writes/s: +(?<iops>[\d.]+)\n(?:.*\n){0,4}? +written, MiB/s: +(?<bw>[\d.]+)\n(?:.*\n){0,4}? +total time: +(?<runtime_s>[\d.]+)s\n(?:.*\n){0,3}?Latency \(ms\):\n +min: +(?<lat_min>[\d.]+)\n +avg: +(?<lat_mean>[\d.]+)\n +max: +(?<lat_max>[\d.]+)\n +95th percentile: +(?<lat_p95>[\d.]+)$
set      op write
nonzero  iops
unit     bs from bs_unit binary
unit     bw MiB/s
unit     lat_min ms
unit     lat_mean ms
unit     lat_max ms
unit     lat_p95 ms
