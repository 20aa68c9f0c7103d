#!/bin/sh
# bench/hostile.sh BUILD [SCALE [CASE...]] - the superlinear inputs of
# issue #35, each at two sizes (n and 4n), so that time and memory can be
# seen to grow with the input, not with its square: an Nsight Systems
# export with n processes (nsys), a folder of n two-event Kineto files
# (files), a torch_npu kernel_details.csv whose one name is n MB of quotes
# (csv), n one-rank jobs (jobs) and one Kineto trace of n tiny events
# (events).  Prints CPU seconds (user + sys), peak RSS and output sizes per
# run; not part of make check.  SCALE (default 1) multiplies n; CASEs pick
# cases (default: all).  Needs python3.
set -u
B=${1:?usage: bench/hostile.sh BUILD_DIR [SCALE [CASE...]]}
S=${2:-1}
[ $# -ge 2 ] && shift 2 || shift $#
CASES=${*:-nsys files csv jobs events}
want() { case " $CASES " in *" $1 "*) return 0 ;; esac; return 1; }
P=$B/profreport
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

size_k() { if [ -f "$1" ]; then echo $(($(wc -c < "$1") / 1024)); else echo 0; fi; }

# measure CASE N INPUT: one report (JSON and HTML) of INPUT
measure() {
    /usr/bin/time -f '%U %S %M' -o "$W/t" "$P" -q --input "$3" \
        --json "$W/o.json" --html "$W/o.html" 2> "$W/err"
    rc=$?
    set -- "$1" "$2" "$rc" $(tail -1 "$W/t")
    printf '| %s | %s | %s | %.2f | %d | %d | %d |\n' "$1" "$2" "$3" \
        "$(echo "$4 + $5" | bc)" $(($6 / 1024)) "$(size_k "$W/o.json")" \
        "$(size_k "$W/o.html")"
    rm -f "$W/o.json" "$W/o.html"
}

echo "| case | n | exit | CPU s | peak RSS MiB | JSON KiB | HTML KiB |"
echo "|---|---|---|---|---|---|---|"

want nsys && for n in $((2500 * S)) $((10000 * S)); do
    rm -f "$W/p.sqlite"
    python3 - "$SRC/tests/data/nsys/basic.sql" "$W/p.sqlite" "$n" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
n = int(sys.argv[3])
rows, runs, procs = [], [], []
for i in range(n):
    pid = 1000 + i
    g = (1 << 48) | (pid << 24)
    procs.append((g, pid, "python3"))
    rows.append((5000 + i, 6000 + i, 0, 1, 7, 100000 + i, g, 2, 3, 32, 1, 1,
                 1, 128, 1, 1, 0, 0, None, None))
    runs.append((4000 + i, 4500 + i, 0, g | pid, 100000 + i, 1, 0, None))
db.executemany("INSERT INTO PROCESSES VALUES (?, ?, ?)", procs)
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
               "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES "
               "(?,?,?,?,?,?,?,?)", runs)
db.commit()
PY
    measure "nsys export, n processes" "$n" "$W/p.sqlite"
done

want files && for n in $((5000 * S)) $((20000 * S)); do
    rm -rf "$W/f" && mkdir "$W/f"
    python3 - "$W/f" "$n" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open("%s/w%d.pt.trace.json" % (d, i), "w") as f:
        f.write('{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": '
                '"aten::mm", "pid": %d, "tid": 1, "ts": 10, "dur": 5}, '
                '{"ph": "X", "cat": "user_annotation", "name": '
                '"ProfilerStep#1", "pid": %d, "tid": 1, "ts": 0, '
                '"dur": 100}]}' % (i, i))
PY
    measure "folder of n two-event Kineto files" "$n" "$W/f"
done

R=$SRC/tests/data/ascend/pp4/rank0_ascend_pt
want csv && for n in $((25 * S)) $((100 * S)); do
    rm -rf "$W/a" && mkdir -p "$W/a" && cp -R "$R" "$W/a/rank0_ascend_pt"
    python3 - "$R/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
        "$W/a/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
        "$n" <<'PY'
import sys
src, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src).read().split("\n")
f = lines[2].split(",")
name = '"' + '""' * (mb * 500000) + '"'  # mb MB of doubled quotes
lines[2] = ",".join(f[:5] + [name] + f[6:])
open(out, "w").write("\n".join(lines))
PY
    measure "kernel_details.csv, one name of n MB of quotes" "$n" "$W/a"
done

# n one-rank jobs: n folders of one trace each (jobs are told apart by
# folder), each its own job in the summary and the report
want jobs && for n in $((250 * S)) $((1000 * S)); do
    rm -rf "$W/j" && mkdir "$W/j"
    python3 - "$W/j" "$n" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    os.mkdir("%s/job%04d" % (d, i))
    with open("%s/job%04d/w.pt.trace.json" % (d, i), "w") as f:
        f.write('{"distributedInfo": {"rank": 0, "world_size": 1}, '
                '"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": '
                '"aten::mm", "pid": 1, "tid": 1, "ts": %d, "dur": 5}, '
                '{"ph": "X", "cat": "user_annotation", "name": '
                '"ProfilerStep#1", "pid": 1, "tid": 1, "ts": %d, '
                '"dur": 100}]}' % (1000 * i + 10, 1000 * i))
PY
    measure "n one-rank jobs" "$n" "$W/j"
done

# one trace of n tiny events (cpu_op, 1 us each, on 4 threads), plain JSON
# of about 85 bytes an event: 12.5M events are 1 GB
want events && for n in $((2500000 * S)) $((10000000 * S)); do
    rm -f "$W/e.pt.trace.json"
    python3 - "$W/e.pt.trace.json" "$n" <<'PY'
import sys
out, n = sys.argv[1], int(sys.argv[2])
with open(out, "w", buffering=1 << 22) as f:
    f.write('{"traceEvents": [\n')
    f.write('{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", '
            '"pid": 1, "tid": 1, "ts": 0, "dur": %d}' % (n + 10))
    chunk = []
    for i in range(n):
        chunk.append(',\n{"ph": "X", "cat": "cpu_op", "name": "aten::add", '
                     '"pid": 1, "tid": %d, "ts": %d, "dur": 1}' % (1 + i % 4, i))
        if len(chunk) == 100000:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk))
    f.write("\n]}\n")
PY
    measure "one trace of n tiny events ($(($(wc -c < "$W/e.pt.trace.json") / 1048576)) MiB)" "$n" "$W/e.pt.trace.json"
    rm -f "$W/e.pt.trace.json"
done
