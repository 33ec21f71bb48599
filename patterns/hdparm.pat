# hdparm -t/-T/--direct timings as a pattern file: a worked example of the mechanism
# (benchlog parse --patterns patterns/hdparm.pat --as hdparm-pat FILE). The C format
# `hdparm` does more than a pattern can: it reads figures that hdparm's stderr warnings
# pushed to the next line, mail archives' "=3D", and refuses figures that contradict each
# other (MB / seconds != rate).
format   hdparm-pat
summary  hdparm -t/-T/--direct timings (pattern file)
tool     hdparm
detect   ^ ?Timing (cached|buffered disk|O_DIRECT cached|O_DIRECT disk|buffer-cache) reads
# "/dev/sda:" above the timings: a label, and each device line starts a run
context  ^(?<label_device>/\S+):$
set      op read
set      pattern seq
set      iodepth 1
set      numjobs 1
record   ^ ?Timing (?<label_hdparm_timing>buffered disk) reads(?: \(offset (?<label_offset>[^)]+)\))?: +(?<io_bytes>\d+) MB in +(?<runtime_s>[\d.]+) seconds = +(?<bw>[\d.]+) (?<bw_unit>[Mk]B)/sec$
set      test seq-read
set      direct false
record   ^ ?Timing (?<label_hdparm_timing>O_DIRECT disk) reads(?: \(offset (?<label_offset>[^)]+)\))?: +(?<io_bytes>\d+) MB in +(?<runtime_s>[\d.]+) seconds = +(?<bw>[\d.]+) (?<bw_unit>[Mk]B)/sec$
set      test seq-read
set      direct true
record   ^ ?Timing (?<label_hdparm_timing>cached|buffer-cache) reads: +(?<io_bytes>\d+) MB in +(?<runtime_s>[\d.]+) seconds = +(?<bw>[\d.]+) (?<bw_unit>[Mk]B)/sec$
set      test cached-read
set      direct false
record   ^ ?Timing (?<label_hdparm_timing>O_DIRECT cached) reads: +(?<io_bytes>\d+) MB in +(?<runtime_s>[\d.]+) seconds = +(?<bw>[\d.]+) (?<bw_unit>[Mk]B)/sec$
set      test cached-read
set      direct true
# hdparm's MB is 2^20 bytes and its kB 2^10
unit     io_bytes MiB
unit     bw from bw_unit binary
