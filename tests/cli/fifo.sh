#!/bin/sh
# fifo.sh - issue #19: inputs that cannot be read twice.  A FIFO nobody
# writes to ends with exit 2 and a message instead of blocking forever; a
# FIFO with a writer (plain, gzip'd, slow to start, handing gzip's magic
# over one byte at a time, a UTF-8 BOM split across the first read) and a
# pipe on /dev/stdin are read like files.
. "$PR_SRCDIR/tests/lib.sh"

D=$T_DIR
cat > "$D/t.json" <<'JSON'
{"traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1,
   "tid": 1, "ts": 0, "dur": 200},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
   "ts": 5, "dur": 100}
]}
JSON
gzip -c "$D/t.json" > "$D/t.json.gz"

# reads NAME: the FIFO $D/p is read (a writer was started) into a summary
reads() {
    rm -f "$D/o.json"
    timeout 60 "$PR_BIN" -q --input "$D/p" --json "$D/o.json" 2> "$D/err"
    rc=$?
    wait
    check "$1: exit $rc ($(head -c 200 "$D/err"))" [ "$rc" -eq 0 ]
    check "$1: the summary has the operator" grep -q 'aten::mm' "$D/o.json"
}

if ! mkfifo "$D/p" 2> /dev/null; then
    skip "FIFO inputs" "mkfifo failed"
    echo "1..$T_N"
    exit 0
fi

start=$(date +%s)
timeout 60 "$PR_BIN" -q --input "$D/p" --json "$D/o.json" 2> "$D/err"
rc=$?
took=$(($(date +%s) - start))
check "no writer: exit 2, not a hang (exit $rc after ${took}s)" [ "$rc" -eq 2 ]
check "no writer: the message names the FIFO and says why ($(cat "$D/err"))" \
    grep -q "$D/p: byte 0: no writer opened the FIFO" "$D/err"
check "no writer: no summary left behind" [ ! -e "$D/o.json" ]

cat "$D/t.json" > "$D/p" &
reads "a writer"
cat "$D/t.json.gz" > "$D/p" &
reads "a gzip'd writer"
(sleep 2; cat "$D/t.json") > "$D/p" &
reads "a writer that starts late"
(head -c 1 "$D/t.json.gz"; sleep 1; tail -c +2 "$D/t.json.gz") > "$D/p" &
reads "gzip's magic a byte at a time"
(printf '\357'; sleep 1; printf '\273\277'; cat "$D/t.json") > "$D/p" &
reads "a UTF-8 BOM split across the first read"

rm -f "$D/o.json"
cat "$D/t.json.gz" | "$PR_BIN" -q --input /dev/stdin --json "$D/o.json" \
    2> "$D/err"
check "a pipe on /dev/stdin ($(head -c 200 "$D/err"))" \
    grep -q 'aten::mm' "$D/o.json"

echo "1..$T_N"
