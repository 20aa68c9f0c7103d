#!/bin/sh
# aliases_escapes.sh - issue #35's output and terminal classes: two outputs
# that are one file however spelt (./a, an absolute path, a symlink, a
# dangling symlink) are refused with exit 1 before any work, as is an
# output that is an input; names with control sequences reach neither
# stderr nor `table` output raw; `table --csv` cells that a spreadsheet
# would run as formulas are quoted as text, numbers are not.
. "$PR_SRCDIR/tests/lib.sh"

cd "$T_DIR" || exit 1
ESC=$(printf '\033')
BEL=$(printf '\007')
printf '{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"=HYPERLINK(1)%s]52;c;aGk=%s","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"X","cat":"cpu_op","name":"-2","pid":1,"tid":1,"ts":10,"dur":3}]}' \
    "\\u001b" "\\u0007" > t.json

# refused SAYS ARGS...: exit 1, the message says SAYS, nothing written
refused() {
    says=$1
    shift
    rm -f a.json a.html
    "$PR_BIN" -q -i t.json "$@" 2> err
    rc=$?
    check "$* : exit 1 (got $rc)" [ "$rc" = 1 ]
    check "$* : says '$says'" grep -q -- "$says" err
    check "$* : writes nothing" sh -c '[ ! -e a.json ] && [ ! -e a.html ]'
}
refused "are the same file" --json a.json --html ./a.json
refused "are the same file" --json a.json --html "$T_DIR/a.json"
ln -s a.json l.json # dangling until a.json is written
refused "are the same file" --json a.json --html l.json
refused "would overwrite the input" --json ./t.json
refused "would overwrite the input" --json "$T_DIR/t.json"

"$PR_BIN" -q -i t.json --json s.json 2> err
check "a name with escapes: exit 0" [ $? = 0 ]
"$PR_BIN" table -i s.json --kind operators > tab 2> err
check "table: no ESC or BEL byte in the output" \
    sh -c '! grep -q "[$1$2]" tab' _ "$ESC" "$BEL"
check "table: the name is shown with '?' for them" \
    grep -q '=HYPERLINK(1)?\]52;c;aGk=?' tab
"$PR_BIN" table -i s.json --kind operators --csv > csv 2> err
check "csv: no ESC or BEL byte" sh -c '! grep -q "[$1$2]" csv' _ "$ESC" "$BEL"
check "csv: a formula-like name is quoted as text ('=...)" \
    grep -q "^\"'=HYPERLINK" csv
check "csv: a negative number stays a number" grep -q '^-2,' csv
mkdir "d${ESC}]0;title${BEL}"
"$PR_BIN" -i "d${ESC}]0;title${BEL}" --json o.json 2> err
check "a path with escapes: exit 2" [ $? = 2 ]
check "  and the message holds no ESC or BEL" \
    sh -c '! grep -q "[$1$2]" err' _ "$ESC" "$BEL"
check "  but names the folder" grep -q 'd?\]0;title?' err
echo "1..$T_N"
