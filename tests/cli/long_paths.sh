#!/bin/sh
# long_paths.sh - issue #32: a message that names a 3,000-character path
# keeps the path's end (the file name) and the reason after it; the
# middle of the path gives way to an ellipsis (the error record holds
# 512 bytes, and "no trace files in folder" used to end mid-path).
. "$PR_SRCDIR/tests/lib.sh"

# 100 folders of 31 characters: 3,199 characters under $T_DIR
p=$T_DIR
i=0
while [ $i -lt 100 ]; do
    p=$p/$(printf 'd%03d_abcdefghijklmnopqrstuvwxyz' $i)
    i=$((i + 1))
done
if ! mkdir -p "$p" 2> /dev/null; then
    skip "long paths" "cannot make a 3,000-character path here"
    echo "1..$T_N"
    exit 0
fi
: > "$p/notes.txt"
printf '{"traceEvents": [' > "$p/bad.json"
cd "$T_DIR" || exit 1
rel=${p#"$T_DIR"/}
check "the path is over 3,000 characters (${#rel})" [ ${#rel} -gt 3000 ]

# ends MESSAGE_FILE TEXT: the message holds TEXT, and is no longer than
# the 512-byte record (plus "profreport: ")
ends() {
    grep -qF -- "$2" "$1" && [ "$(wc -c < "$1")" -lt 560 ] &&
        grep -q '…' "$1"
}

mkdir "$rel/empty"
"$PR_BIN" -q -i "$rel/empty" --json out.json 2> err1
check "a folder without traces: exit 2" [ $? -eq 2 ]
check "  names the folder's end and the reason ($(tail -c 120 err1))" \
    ends err1 "d099_abcdefghijklmnopqrstuvwxyz/empty: no trace files in folder"
check "  and lists what profreport reads" grep -q "PyTorch/Kineto trace" err1

"$PR_BIN" -q -i "$rel/bad.json" --json out.json 2> err2
check "a cut trace: exit 2" [ $? -eq 2 ]
check "  the file name, the byte and the reason ($(tail -c 120 err2))" \
    ends err2 "d099_abcdefghijklmnopqrstuvwxyz/bad.json: byte 17: unexpected end of input"

"$PR_BIN" -q -i "$rel/missing.json" --json out.json 2> err3
check "a missing file: exit 2" [ $? -eq 2 ]
check "  the file name and the reason ($(tail -c 120 err3))" \
    ends err3 "/missing.json: No such file or directory"

"$PR_BIN" -q -i "$rel/bad.json" --json "$rel/nodir/out.json" 2> err4
check "an output in a missing folder: exit 2" [ $? -eq 2 ]
check "  the output's file name and the reason ($(tail -c 120 err4))" \
    ends err4 "/nodir/out.json: cannot create a file there"
check "  and nothing written" [ ! -e "$rel/nodir" -a ! -e out.json ]

echo "1..$T_N"
