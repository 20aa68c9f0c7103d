#!/bin/sh
# int64_readers.sh - int64 extremes in every reader (issue #35): a time or
# duration of INT64_MAX, INT64_MIN, 2^64-1, +-1e300 or 9.3e18 in a Kineto
# trace, a MegEngine timeline, an Nsight Systems export, a torch_npu
# database, torch_npu's kernel_details.csv and step_trace_time.csv, and
# MindSpore's step trace, msprof's chrome-format timeline.  Each run ends with exit 0 or 2 (a message
# naming the file), never a crash or a sanitizer report, and a summary it
# writes holds no negative time.  Run by the sanitizer build too, where a
# signed overflow anywhere aborts the run ("runtime error").
. "$PR_SRCDIR/tests/lib.sh"

done_tests() { echo "1..$T_N"; exit 0; }
if ! command -v python3 > /dev/null 2>&1; then
    skip "int64 extremes" "python3 is needed to build the inputs"
    done_tests
fi
D=$PR_SRCDIR/tests/data
NEG='"(kernel_time_us|total_us|duration_us|[a-z_]*self_us|mean_us|min_us|max_us|median_us|p90_us|computation_us|overlap_us|communication_us|other_us)":[[:space:]]*-'
VALUES="9223372036854775807 -9223372036854775808 18446744073709551615 1e300 -1e300 9.3e18"

# run NAME INPUT: one report of INPUT, judged
run() {
    rm -f "$T_DIR/o.json"
    timeout 120 "$PR_BIN" -q --input "$2" --json "$T_DIR/o.json" \
        2> "$T_DIR/err"
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
        not_ok "$1: exit $rc ($(head -c 300 "$T_DIR/err"))"
    elif grep -q "runtime error\|Sanitizer" "$T_DIR/err"; then
        not_ok "$1: $(grep -m1 'runtime error\|Sanitizer' "$T_DIR/err" | head -c 300)"
    elif [ $rc -eq 0 ] && grep -Eq "$NEG" "$T_DIR/o.json"; then
        not_ok "$1: a negative time in the summary"
    elif [ $rc -eq 2 ] && ! grep -q "^profreport: .*$3" "$T_DIR/err"; then
        not_ok "$1: exit 2 without naming $3 ($(head -c 300 "$T_DIR/err"))"
    else
        ok "$1: exit $rc$( [ $rc -eq 2 ] && echo ": $(head -c 160 "$T_DIR/err")")"
    fi
}

# sub FILE OUT OLD NEW: OUT is FILE with the first OLD replaced by NEW
sub() {
    python3 - "$@" <<'PY'
import sys
src, out, old, new = sys.argv[1:5]
t = open(src, encoding="utf-8").read()
assert old in t, old
open(out, "w", encoding="utf-8").write(t.replace(old, new, 1))
PY
}

# --- Kineto: a kernel's ts and dur, a step's
K=$T_DIR/k.json
cat > "$K" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 900},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 50, "args": {"External id": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 10, "args": {"correlation": 7, "External id": 1}},
 {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 200, "dur": 300, "args": {"correlation": 7, "External id": 1, "device": 0, "stream": 7}}
]}
JSON
for v in $VALUES; do
    sub "$K" "$T_DIR/kt.json" '"ts": 200' "\"ts\": $v"
    run "kineto kernel ts $v" "$T_DIR/kt.json" kt.json
    sub "$K" "$T_DIR/kd.json" '"dur": 300' "\"dur\": $v"
    run "kineto kernel dur $v" "$T_DIR/kd.json" kd.json
    sub "$K" "$T_DIR/ks.json" '"dur": 900' "\"dur\": $v"
    run "kineto step dur $v" "$T_DIR/ks.json" ks.json
done

# --- MegEngine: an event's ts
for v in $VALUES; do
    sub "$D/megengine/v1_6.chrome_timeline.json" "$T_DIR/m.chrome_timeline.json" \
        '"ts":2.0' "\"ts\":$v"
    run "megengine ts $v" "$T_DIR/m.chrome_timeline.json" m.chrome_timeline.json
done

# --- Nsight Systems: a kernel's start and end (integers in SQLite)
for v in 9223372036854775807 -9223372036854775808; do
    for col in start end; do
        rm -f "$T_DIR/n.sqlite"
        python3 - "$D/nsys/basic.sql" "$T_DIR/n.sqlite" "$col" "$v" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET %s = ? WHERE rowid = 1"
           % sys.argv[3], (int(sys.argv[4]),))
db.commit()
PY
        run "nsys kernel $col $v" "$T_DIR/n.sqlite" n.sqlite
    done
done

# --- torch_npu database: a task's start and end
for v in 9223372036854775807 -9223372036854775808; do
    rm -f "$T_DIR/npu.db"
    python3 - "$T_DIR/npu.db" "$v" "$D/hostile/npu_task.sql" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[3]).read())
db.execute("INSERT INTO TASK VALUES (1000, 2000, 0, 1, 1, 1, 2, 0, 1, 1, 0)")
db.execute("INSERT INTO TASK VALUES (3000, ?, 0, 2, 2, 1, 2, 0, 1, 2, 0)",
           (int(sys.argv[2]),))
db.commit()
PY
    run "torch_npu db endNs $v" "$T_DIR/npu.db" npu.db
done

# --- torch_npu CSVs: a kernel's start and duration, a step's time
P=$D/ascend/pp4/rank0_ascend_pt
for v in $VALUES; do
    for what in start dur step; do
        rm -rf "$T_DIR/r" && mkdir -p "$T_DIR/r" &&
            cp -R "$P" "$T_DIR/r/rank0_ascend_pt"
        o=$T_DIR/r/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
        case $what in
        start) sub "$P/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
            "$o/kernel_details.csv" "1760000000082500.000" "$v" ;;
        dur) sub "$P/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
            "$o/kernel_details.csv" ",60000.000," ",$v," ;;
        step) sub "$P/ASCEND_PROFILER_OUTPUT/step_trace_time.csv" \
            "$o/step_trace_time.csv" "0,5,231000," "0,5,$v," ;;
        esac
        run "torch_npu CSV $what $v" "$T_DIR/r/rank0_ascend_pt" rank0_ascend_pt
    done
done

# --- MindSpore step trace: a step's start point
for v in $VALUES; do
    rm -rf "$T_DIR/ms" && cp -R "$D/mindspore/pp2" "$T_DIR/ms"
    sub "$D/mindspore/pp2/step_trace_raw_0_detail_time.csv" \
        "$T_DIR/ms/step_trace_raw_0_detail_time.csv" "1,1162412079349," "1,$v,"
    run "mindspore step start $v" "$T_DIR/ms" ms
done

# --- msprof: a task's ts (a string, as msprof writes it, and a number)
# and dur in its chrome-format timeline (msprof_*.json)
MP=$D/hostile/msprof
MT=PROF_000001_20260101000000000_HOSTILEMINIMALAA/device_0/timeline/msprof_0_1_1.json
for v in $VALUES; do
    for what in ts_text ts_number dur; do
        rm -rf "$T_DIR/mp" && cp -R "$MP" "$T_DIR/mp" && chmod -R u+w "$T_DIR/mp"
        case $what in
        ts_text) old='"ts": "56579931070.000"' new="\"ts\": \"$v\"" ;;
        ts_number) old='"ts": "56579931070.000"' new="\"ts\": $v" ;;
        dur) old='"dur": 50.0' new="\"dur\": $v" ;;
        esac
        sub "$MP/$MT" "$T_DIR/mp/$MT" "$old" "$new"
        run "msprof timeline $what $v" "$T_DIR/mp" msprof_0_1_1.json
        # the task out of range is dropped and counted, the other kept
        [ "$v" = 1e300 ] && check "  its task skipped and counted, Add kept" \
            python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
d = {x['kind']: x['count'] for x in r['diagnostics']}
sys.exit(not ([k['name'] for k in r['kernels']] == ['Add'] and
              d.get('skipped_no_dur', 0) + d.get('skipped_bad_ts', 0) == 1))" \
            "$T_DIR/o.json"
    done
done

done_tests
