#!/bin/sh
# formats.sh - inputs are claimed by their content (issue #10): in a run
# folder what no format reads is skipped with a warning, a file named
# explicitly that no format reads exits 2 saying what it is, and a trace
# is read whatever its name.
. "$PR_SRCDIR/tests/lib.sh"

EX=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
D=$T_DIR/run
mkdir -p "$D"
cp "$EX" "$D/worker0.pt.trace.json.gz"
printf 'Step Id,Model ID,Task ID\n1,2,3\n' > "$D/kernel_details.csv"
printf '{"rank_id": 0}' > "$D/profiler_info_0.json"

"$PR_BIN" --input "$D" --json "$T_DIR/out.json" 2> "$T_DIR/err"
check "folder with other files: exit 0" [ $? -eq 0 ]
check "folder: the CSV is skipped with the reason" grep -q \
    "warning: skipping $D/kernel_details.csv: not a format profreport reads (CSV text of no known table" \
    "$T_DIR/err"
check "folder: JSON that is no trace is skipped with the reader's reason" \
    grep -q "warning: skipping $D/profiler_info_0.json: not a profiler trace (no traceEvents)" \
    "$T_DIR/err"
check "folder: one input read" [ "$(grep -c '"path":' "$T_DIR/out.json")" -eq 1 ]

"$PR_BIN" --quiet --input "$D" --json "$T_DIR/out.json" 2> "$T_DIR/err"
check "--quiet: no warnings" [ ! -s "$T_DIR/err" ]

"$PR_BIN" --input "$D/kernel_details.csv" --json "$T_DIR/no.json" 2> "$T_DIR/err"
check "explicit CSV: exit 2" [ $? -eq 2 ]
check "explicit CSV: says what it is" grep -q \
    "profreport: $D/kernel_details.csv: not a format profreport reads (text starting" \
    "$T_DIR/err"
check "explicit CSV: no output" [ ! -e "$T_DIR/no.json" ]

printf 'SQLite format 3\000' > "$T_DIR/run.db"
"$PR_BIN" --input "$T_DIR/run.db" --json "$T_DIR/no.json" 2> "$T_DIR/err"
check "explicit SQLite: exit 2" [ $? -eq 2 ]
check "explicit SQLite: says so" grep -q "an SQLite database" "$T_DIR/err"

# a trace under a name that is not *.json is read for its content
gzip -dc "$EX" > "$T_DIR/trace_view.txt"
"$PR_BIN" --quiet --input "$T_DIR/trace_view.txt" --json "$T_DIR/txt.json" 2> "$T_DIR/err"
check "trace named .txt: exit 0" [ $? -eq 0 ]
"$PR_BIN" --quiet --input "$EX" --json "$T_DIR/gz.json" 2> "$T_DIR/err"
grep '"events":' "$T_DIR/txt.json" > "$T_DIR/txt.ev"
grep '"events":' "$T_DIR/gz.json" > "$T_DIR/gz.ev"
check "trace named .txt: as many events as the original" \
    cmp -s "$T_DIR/txt.ev" "$T_DIR/gz.ev"

echo "1..$T_N"
