#!/bin/sh
# bad_input.sh - damaged inputs, made at test time from a real trace: each
# must end with exit status 2, a message naming the file and a byte offset,
# and no output file.  Quirks we tolerate (NaN, negative durations) must
# load.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared; then
    skip "damaged inputs" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi
SRC=$PR_SHARED/traces/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
D=$T_DIR
gzip -dc "$SRC" > "$D/good.json"
size=$(wc -c < "$D/good.json")

# fails FILE PATTERN...: exit 2, "profreport: FILE: " plus each PATTERN on
# stderr, and no report left behind
fails() {
    f=$1
    shift
    rm -f "$D/out.json"
    "$PR_BIN" --input "$f" --json "$D/out.json" 2> "$D/err"
    rc=$?
    name=$(basename "$f")
    if [ "$rc" -ne 2 ]; then
        not_ok "$name: exit $rc, want 2 ($(head -c 200 "$D/err"))"
        return
    fi
    if [ -e "$D/out.json" ]; then
        not_ok "$name: left $D/out.json behind"
        return
    fi
    if ! grep -q "profreport: $f: " "$D/err"; then
        not_ok "$name: message does not name the file: $(cat "$D/err")"
        return
    fi
    for p in "$@"; do
        if ! grep -Eq "$p" "$D/err"; then
            not_ok "$name: message lacks /$p/: $(cat "$D/err")"
            return
        fi
    done
    ok "$name: $(tail -1 "$D/err" | sed "s|.*$name: ||" | head -c 100)"
}

# loads FILE: exit 0 and a report
loads() {
    rm -f "$D/out.json"
    if "$PR_BIN" --quiet --input "$1" --json "$D/out.json" 2> "$D/err" &&
        [ -s "$D/out.json" ]; then
        ok "$(basename "$1") loads"
    else
        not_ok "$(basename "$1") should load: $(cat "$D/err")"
    fi
}

# a JSON file with the first match of sed expression $2 applied
edit() {
    sed "0,/$2/s//$3/" "$D/good.json" > "$D/$1"
}

loads "$D/good.json"

head -c 20000 "$SRC" > "$D/truncated.json.gz"
fails "$D/truncated.json.gz" "byte [0-9]+" "gzip stream is truncated"

head -c $((size * 6 / 10)) "$D/good.json" > "$D/truncated.json"
fails "$D/truncated.json" "byte [0-9]+" "unexpected end of input"

printf '\214\001\377garbage\000\033' > "$D/garbage.json"
fails "$D/garbage.json" "byte 0: not JSON"

edit garbage_mid.json '"ph": "X", "cat": "cpu_op"' \
    '"ph": "X", "cat": \x01\x8c\xff}]]'
fails "$D/garbage_mid.json" "byte [0-9]+: event [0-9]+"

: > "$D/empty.json"
fails "$D/empty.json" "byte 0: empty input"

edit not_object.json '"traceEvents": \[' '"traceEvents": [ 42, '
fails "$D/not_object.json" "byte [0-9]+: event 0: not an object"

{
    printf '{"traceEvents": [{"ph": "X", "args": '
    i=0
    while [ $i -lt 100 ]; do
        printf '[[[[[[[[[['
        i=$((i + 1))
    done
} > "$D/nesting.json"
fails "$D/nesting.json" "byte [0-9]+: event 0: nesting deeper than"

edit huge_dur.json '"dur": [0-9]*' '"dur": 1e999'
fails "$D/huge_dur.json" "byte [0-9]+: event [0-9]+ .*dur out of range"

edit huge_ts.json '"ts": [0-9]*' '"ts": 123456789e300'
fails "$D/huge_ts.json" "byte [0-9]+: event [0-9]+ .*ts out of range"

fails "$PR_SHARED/traces/hta/execution_trace/benchmark_simple_add_et.json.gz" \
    "a PyTorch execution trace \\(ExecutionTraceObserver.*give the Kineto trace"

# rocprofv3's own JSON (rocprofiler-sdk-tool, as TraceLens's MI350X test
# data): named, with what to give instead
printf '{"rocprofiler-sdk-tool": [{"metadata": {"pid": 1}, "agents": [], "buffer_records": {"kernel_dispatch": []}}]}' > "$D/rocprof.json"
fails "$D/rocprof.json" "a rocprofv3 \\(rocprofiler-sdk\\) JSON, which profreport does not read"
# a JSON object of neither kind keeps the general words
printf '{"schema": "x", "other": []}' > "$D/other.json"
fails "$D/other.json" "not a profiler trace \\(no traceEvents\\)"

# a value of the wrong type is corrupt data, not a field to skip (review
# 25u #1: a kernel whose ts was "abc" was dropped and the run called
# CPU-only, exit 0); a numeric string is still read as the number
edit str_ts.json '"ts": [0-9]*' '"ts": "abc"'
fails "$D/str_ts.json" "byte [0-9]+: event [0-9]+ .*ts is not a number .\"abc\"."
edit arr_dur.json '"dur": [0-9]*' '"dur": [5]'
fails "$D/arr_dur.json" "byte [0-9]+: event [0-9]+ .*dur is not a number .an array."
edit arr_name.json '"ph": "X", "cat": "cpu_op", "name": "[^"]*"' \
    '"ph": "X", "cat": "cpu_op", "name": ["x"]'
fails "$D/arr_name.json" "byte [0-9]+: event [0-9]+: name is not a string .an array."
edit numstr_dur.json '"dur": \([0-9]*\)' '"dur": "\1"'
loads "$D/numstr_dur.json"

# tolerated: NaN / Infinity count as absent, negative dur is clamped
edit nan.json '"dur": [0-9]*' '"dur": NaN'
loads "$D/nan.json"
edit negative_dur.json '"dur": [0-9]*' '"dur": -12'
loads "$D/negative_dur.json"

# the small damaged inputs kept in tests/data/bad
for f in "$PR_SRCDIR"/tests/data/bad/*.json; do
    [ -f "$f" ] || continue
    fails "$f" "byte [0-9]+"
done

echo "1..$T_N"
