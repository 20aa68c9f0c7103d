#!/bin/sh
# max_input.sh - issue #17: a valid trace that inflates without end from a
# small .gz stops at the default --max-input, which is sized to the memory
# profreport may use (PROFREPORT_MEMORY stands for it here: 64 MiB, so the
# default is 32 MiB), with a message that says so; an explicit limit says
# only its number.  The bomb is 500 gzip members of 4 MiB of events each
# (2 GiB inflated, about 4 MB on disk), made at test time.
. "$PR_SRCDIR/tests/lib.sh"

D=$T_DIR
ev='{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 5, "dur": 100},'
awk -v e="$ev" 'BEGIN { for (i = 0; i < 43690; i++) print e }' |
    gzip -9 > "$D/body.gz"
printf '{"traceEvents": [\n' | gzip > "$D/bomb.json.gz"
i=0
while [ $i -lt 500 ]; do
    cat "$D/body.gz"
    i=$((i + 1))
done >> "$D/bomb.json.gz"
printf '{"ph": "M", "name": "end"}]}\n' | gzip >> "$D/bomb.json.gz"
size=$(wc -c < "$D/bomb.json.gz")
check "the bomb is small on disk ($size bytes)" [ "$size" -lt 8000000 ]

run() {
    rm -f "$D/o.json"
    start=$(date +%s)
    timeout 300 "$@" --input "$D/bomb.json.gz" --json "$D/o.json" 2> "$D/err"
    rc=$?
    took=$(($(date +%s) - start))
}

PROFREPORT_MEMORY=64MiB run env PROFREPORT_MEMORY=64MiB "$PR_BIN" -q
check "default limit: exit 2 (got $rc after ${took}s: $(head -c 300 "$D/err"))" \
    [ "$rc" -eq 2 ]
check "default limit: the message names the file, the byte and the default" \
    grep -q "bomb.json.gz: byte 33554432: uncompressed input larger than the default limit of 32 MiB, half of the memory profreport may use here; --max-input SIZE sets another" "$D/err"
check "default limit: no summary left behind" [ ! -e "$D/o.json" ]
check "default limit: stopped early (${took}s)" [ "$took" -lt 60 ]

run "$PR_BIN" -q --max-input 16MiB
check "explicit limit: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "explicit limit: its number, not the default ($(cat "$D/err"))" \
    grep -q "byte 16777216: uncompressed input larger than the limit of 16777216 bytes" "$D/err"

if [ -x /usr/bin/time ]; then
    rm -f "$D/o.json"
    env PROFREPORT_MEMORY=64MiB /usr/bin/time -f '%M' -o "$D/rss" \
        "$PR_BIN" -q --input "$D/bomb.json.gz" --json "$D/o.json" 2> /dev/null
    rss=$(tail -1 "$D/rss")
    check "default limit: peak RSS stays small (${rss} KiB)" [ "$rss" -lt 600000 ]
else
    skip "peak RSS" "no /usr/bin/time"
fi
# --- saved summaries (issue #35): refused by their size before they are
# read, for the report, a merge of several, diff and trend
S=$PR_SRCDIR/tests/data/diff
size=$(wc -c < "$S/base.json")
lim=$((size - 1))
for cmd in report merge diff trend; do
    rm -f "$D/o.json"
    case $cmd in
    report) "$PR_BIN" -q --max-input $lim --input "$S/base.json" \
        --json "$D/o.json" 2> "$D/err" ;;
    merge) "$PR_BIN" -q --max-input $lim --input "$S/slow.json" \
        "$S/base.json" --json "$D/o.json" 2> "$D/err" ;;
    diff) "$PR_BIN" diff -q --max-input $lim -b "$S/base.json" \
        -i "$S/base.json" --json "$D/o.json" 2> "$D/err" ;;
    trend) "$PR_BIN" trend -q --max-input $lim -i "$S/base.json" \
        "$S/base.json" "$S/base.json" --json "$D/o.json" 2> "$D/err" ;;
    esac
    rc=$?
    check "$cmd: a summary of $size bytes under --max-input $lim exits 2 ($rc)" \
        [ $rc -eq 2 ]
    check "  saying its size and the limit ($(head -c 300 "$D/err"))" \
        grep -q "base.json: a saved summary of $size bytes, larger than the limit of $lim bytes" "$D/err"
    check "  no output" [ ! -e "$D/o.json" ]
done
"$PR_BIN" diff -q --max-input $size -b "$S/base.json" -i "$S/base.json" \
    --json "$D/o.json" 2> "$D/err"
check "diff: the same summary at exactly the limit is read ($?)" \
    [ -s "$D/o.json" ]

# a 2 GB summary (sparse: no disk used) is refused at once, by size
printf '{"schema_version": 1, "runs": [' > "$D/huge.json"
if truncate -s 2G "$D/huge.json" 2> /dev/null; then
    start=$(date +%s)
    env PROFREPORT_MEMORY=64MiB /usr/bin/time -f '%M' -o "$D/rss" \
        "$PR_BIN" -q --input "$D/huge.json" --json "$D/o.json" 2> "$D/err"
    rc=$?
    took=$(($(date +%s) - start))
    check "a 2 GB summary exits 2 ($rc, ${took}s)" [ $rc -eq 2 ]
    check "  by its size under the default limit ($(head -c 300 "$D/err"))" \
        grep -q "huge.json: a saved summary of 2147483648 bytes, larger than the limit of 33554432 bytes" "$D/err"
    rss=$(tail -1 "$D/rss")
    check "  without reading it (peak RSS ${rss} KiB)" [ "$rss" -lt 100000 ]
    "$PR_BIN" diff -q -b "$D/huge.json" -i "$S/base.json" 2> "$D/err"
    rc=$?
    check "diff: a 2 GB summary exits 2 ($rc: $(head -c 200 "$D/err"))" \
        [ $rc -eq 2 ]
    rm -f "$D/huge.json"
else
    skip "a 2 GB summary" "truncate cannot make a sparse file here"
fi

echo "1..$T_N"
