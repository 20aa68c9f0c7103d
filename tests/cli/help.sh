#!/bin/sh
# help.sh - the command line is discoverable (issues #15, #10): the
# top-level help lists every command and exit status 3, `help CMD` is
# `CMD --help`, every command has --version, a typo gets "did you mean",
# and a failing command prints its error once, from main.
. "$PR_SRCDIR/tests/lib.sh"

"$PR_BIN" --help > "$T_DIR/help" 2>&1
check "--help exits 0" [ $? -eq 0 ]
for c in table diff trend record help; do
    check "--help lists '$c'" grep -Eq "^  $c +[a-z]" "$T_DIR/help"
done
check "--help gives exit status 3" grep -q "3 a diff gate tripped" \
    "$T_DIR/help"
"$PR_BIN" help > "$T_DIR/help2" 2>&1
check "'help' alone is --help" cmp -s "$T_DIR/help" "$T_DIR/help2"

for c in table diff trend record; do
    "$PR_BIN" help "$c" > "$T_DIR/h1" 2>&1
    rc=$?
    "$PR_BIN" "$c" --help > "$T_DIR/h2" 2>&1
    check "'help $c' exits 0" [ $rc -eq 0 ]
    check "'help $c' is '$c --help'" cmp -s "$T_DIR/h1" "$T_DIR/h2"
    check "'$c --help' starts with its usage" \
        grep -q "^Usage: profreport $c" "$T_DIR/h2"
    "$PR_BIN" "$c" --version > "$T_DIR/v" 2>&1
    check "'$c --version' prints the version" grep -q "^profreport [0-9]" \
        "$T_DIR/v"
done

# typos
"$PR_BIN" dif -b x -i y > /dev/null 2> "$T_DIR/err"
check "'dif' exits 1" [ $? -eq 1 ]
check "  and suggests diff" grep -q "did you mean 'diff'" "$T_DIR/err"
"$PR_BIN" tabel --input x > /dev/null 2> "$T_DIR/err"
check "'tabel' suggests table" grep -q "did you mean 'table'" "$T_DIR/err"
"$PR_BIN" recrod -- true > /dev/null 2> "$T_DIR/err"
check "'recrod' suggests record" grep -q "did you mean 'record'" "$T_DIR/err"
"$PR_BIN" help trnd > /dev/null 2> "$T_DIR/err"
check "'help trnd' exits 1 and suggests trend" \
    grep -q "did you mean 'trend'" "$T_DIR/err"
# a file named like a command is still an input
cp "$PR_SRCDIR/tests/data/diff/base.json" "$T_DIR/tabl"
(cd "$T_DIR" && "$PR_BIN" tabl > /dev/null 2> "$T_DIR/err")
check "an existing file named like a typo is an input, not a typo" \
    sh -c "! grep -q 'did you mean' '$T_DIR/err'"

# errors come once, from main, with a pointer to the command's help
"$PR_BIN" diff --bogus 2> "$T_DIR/err"
check "diff --bogus exits 1" [ $? -eq 1 ]
n=$(grep -c "^profreport:" "$T_DIR/err")
check "  one error line (got $n)" [ "$n" -eq 1 ]
check "  and a pointer to diff --help" \
    grep -q "Try 'profreport diff --help'" "$T_DIR/err"
"$PR_BIN" trend --fail-on 'step.mean>3' -i a b 2> "$T_DIR/err"
check "a bad trend rule shows the grammar" grep -q "rule grammar" "$T_DIR/err"
"$PR_BIN" table --input x 2> "$T_DIR/err"
check "table without --kind points to table --help" \
    grep -q "Try 'profreport table --help'" "$T_DIR/err"

echo "1..$T_N"
