#!/bin/sh
# utf8.sh - issue #19: names that are not UTF-8 reach the summary, tables
# and reports as UTF-8, each ill-formed part replaced by U+FFFD, and the
# summary's data quality counts them.
. "$PR_SRCDIR/tests/lib.sh"

in=$PR_SRCDIR/tests/data/hostile/bad_utf8.json
D=$T_DIR
"$PR_BIN" -q --input "$in" --json "$D/s.json" --html "$D/r.html" 2> "$D/err"
rc=$?
check "a trace with names that are not UTF-8 loads (exit $rc: $(head -c 200 "$D/err"))" [ "$rc" -eq 0 ]
for f in s.json r.html; do
    check "$f is UTF-8 throughout" sh -c "iconv -f UTF-8 -t UTF-8 '$D/$f' > /dev/null"
done
fffd=$(printf '\357\277\275')
check "the operator keeps its name with U+FFFD for the bad bytes" \
    grep -q "aten::bad$fffd${fffd}name $fffd cut" "$D/s.json"
check "the kernel name: one U+FFFD for each byte of a surrogate" \
    grep -q "k_$fffd$fffd$fffd<float>" "$D/s.json"
check "data quality counts the two strings" \
    grep -Eq '"invalid_utf8":[[:space:]]*2' "$D/s.json"
"$PR_BIN" table --input "$in" --kind operators > "$D/t.txt" 2> "$D/err"
check "the operator table is UTF-8 (exit $?)" \
    sh -c "grep -q 'aten::bad' '$D/t.txt' && iconv -f UTF-8 -t UTF-8 '$D/t.txt' > /dev/null"
echo "1..$T_N"
