#!/bin/sh
# cli_basic.sh - exit codes, messages and atomic outputs of the command line
# (DESIGN.md: 0 ok, 1 usage, 2 bad or unreadable input).
. "$PR_SRCDIR/tests/lib.sh"

"$PR_BIN" --help > "$T_DIR/help" 2>&1
check "--help exits 0" [ $? -eq 0 ]
check "--help shows usage" grep -q -- "--input PATH" "$T_DIR/help"

"$PR_BIN" --version > "$T_DIR/ver" 2>&1
check "--version prints the version" grep -q "^profreport [0-9]" "$T_DIR/ver"

"$PR_BIN" --bogus 2> "$T_DIR/err"
check "unknown option exits 1" [ $? -eq 1 ]
check "unknown option is named" grep -q "bogus" "$T_DIR/err"

# did you mean: the nearest option, command or kind (issue #32)
"$PR_BIN" --inptu x 2> "$T_DIR/err"
check "a mistyped option exits 1" [ $? -eq 1 ]
check "a mistyped option: did you mean --input" \
    grep -q "unknown option '--inptu'; did you mean '--input'?" "$T_DIR/err"
"$PR_BIN" diff --treshold 5 a b 2> "$T_DIR/err"
check "diff: a mistyped option: did you mean --threshold" \
    grep -q "diff: unknown option '--treshold'; did you mean '--threshold'?" \
    "$T_DIR/err"
"$PR_BIN" trend --junit 2> "$T_DIR/err"
check "trend: an option without its value says so" \
    grep -q "trend: option '--junit' needs a value" "$T_DIR/err"
printf '{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":5}]}' \
    > "$T_DIR/t1.json"
"$PR_BIN" help --help > "$T_DIR/out" 2>&1
check "help --help exits 0 and prints help's usage" \
    grep -q "Usage: profreport help" "$T_DIR/out"

# -v prints the run's diagnostics (issue #32: nothing was printed)
"$PR_BIN" -v -i "$T_DIR/t1.json" --json "$T_DIR/v.json" 2> "$T_DIR/err"
check "-v prints the run's diagnostics, named by run" \
    grep -q "^profreport: t1: note: no ProfilerStep events" "$T_DIR/err"
"$PR_BIN" -i "$T_DIR/t1.json" --json "$T_DIR/v.json" 2> "$T_DIR/err"
check "  and without -v they are not printed" \
    sh -c '! grep -q "note: no ProfilerStep" "$1"' _ "$T_DIR/err"

# -i - reads standard input, plain or gzip
"$PR_BIN" -q -i - --json "$T_DIR/stdin.json" < "$T_DIR/t1.json"
check "-i - reads a trace from standard input" \
    grep -q '"aten::mm"' "$T_DIR/stdin.json"
gzip -c "$T_DIR/t1.json" | "$PR_BIN" -q -i - --json "$T_DIR/stdin2.json"
check "-i - reads a gzip trace from a pipe" \
    grep -q '"aten::mm"' "$T_DIR/stdin2.json"
"$PR_BIN" -q -i - -i - --json "$T_DIR/stdin3.json" < "$T_DIR/t1.json" \
    2> "$T_DIR/err"
check "-i - twice is a usage error" [ $? -eq 1 ]
"$PR_BIN" table -i "$T_DIR/t1.json" --kind kernal 2> "$T_DIR/err"
check "table: a mistyped kind exits 1" [ $? -eq 1 ]
check "table: a mistyped kind: did you mean kernels, and every kind listed" \
    grep -q "did you mean 'kernels'? (one of: .*layers, critical-path, findings)" \
    "$T_DIR/err"

"$PR_BIN" 2> "$T_DIR/err"
check "no input exits 1" [ $? -eq 1 ]

"$PR_BIN" --input "$T_DIR/missing.json" --json "$T_DIR/out.json" 2> "$T_DIR/err"
check "missing file exits 2" [ $? -eq 2 ]
check "missing file is named" grep -q "missing.json" "$T_DIR/err"
check "no output on failure" [ ! -e "$T_DIR/out.json" ]

"$PR_BIN" --input "$T_DIR" --top 0 2> "$T_DIR/err"
check "--top 0 is a usage error" [ $? -eq 1 ]

"$PR_BIN" --input "$T_DIR" --paper legal 2> "$T_DIR/err"
check "--paper legal is a usage error" [ $? -eq 1 ]

mkdir -p "$T_DIR/empty"
"$PR_BIN" --input "$T_DIR/empty" --json "$T_DIR/out.json" 2> "$T_DIR/err"
check "empty folder exits 2" [ $? -eq 2 ]
check "empty folder says why" grep -q "no trace files" "$T_DIR/err"

printf '{"traceEvents": [' > "$T_DIR/trunc.json"
"$PR_BIN" --input "$T_DIR/trunc.json" --json "$T_DIR/out.json" 2> "$T_DIR/err"
check "truncated trace exits 2" [ $? -eq 2 ]
check "truncated trace names the file" grep -q "trunc.json" "$T_DIR/err"
check "truncated trace leaves no output" [ ! -e "$T_DIR/out.json" ]
if ls "$T_DIR" | grep -q 'out.json.'; then not_ok "no temp file left"; else ok "no temp file left"; fi

echo "1..$T_N"
