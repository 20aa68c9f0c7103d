#!/bin/sh
# outputs.sh - reports are all-or-nothing (issue #19): when one output of a
# run fails, none is left behind, for the main command, diff and trend;
# destinations that are not regular files (symlinks, FIFOs, /dev/stdout)
# are written through, never replaced; two outputs to one place and a
# missing template folder are usage errors (issue #15).
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
D=$PR_SRCDIR/tests/data/diff
W=$T_DIR/w
mkdir -p "$W"

# nothing_left "what": the work folder holds no file at all
nothing_left() {
    left=$(ls -A "$W")
    if [ -z "$left" ]; then ok "$1: nothing left behind"
    else not_ok "$1: left $(echo $left)"; fi
    rm -f "$W"/* "$W"/.[!.]* 2> /dev/null
}

# --- the main command
"$PR_BIN" -q --input "$IN" --json "$W/nodir/o.json" --html "$W/o.html" \
    --pdf "$W/o.pdf" 2> "$T_DIR/err"
check "a JSON path in a missing folder exits 2" [ $? -eq 2 ]
check "  and names it" grep -q "nodir/o.json" "$T_DIR/err"
nothing_left "json in a missing folder"

"$PR_BIN" -q --input "$IN" --json "$W/o.json" --html "$W/o.html" \
    --pdf "$W/nodir/o.pdf" 2> "$T_DIR/err"
check "a PDF path in a missing folder exits 2" [ $? -eq 2 ]
nothing_left "pdf in a missing folder"

# the PDF fails only while it is drawn, after the others were rendered
"$PR_BIN" -q --input "$IN" --json "$W/o.json" --html "$W/o.html" \
    --pdf "$W/o.pdf" --font "$T_DIR/no-such-font.ttf" 2> "$T_DIR/err"
check "a missing PDF font exits 2" [ $? -eq 2 ]
nothing_left "a PDF that fails while drawing"

"$PR_BIN" -q --input "$IN" --json - --html - 2> "$T_DIR/err" > /dev/null
check "--json - --html - is a usage error" [ $? -eq 1 ]
check "  that says both write to standard output" \
    grep -q "both write to standard output" "$T_DIR/err"
"$PR_BIN" -q --input "$IN" --json "$W/a" --pdf "$W/a" 2> "$T_DIR/err"
check "--json and --pdf to one file is a usage error" [ $? -eq 1 ]
nothing_left "two outputs to one file"

"$PR_BIN" -q --input "$IN" --template-dir "$T_DIR/no-such-dir" \
    --html "$W/o.html" 2> "$T_DIR/err"
check "--template-dir to a missing folder is a usage error" [ $? -eq 1 ]
check "  that names it" grep -q "no-such-dir" "$T_DIR/err"
nothing_left "missing template folder"

# --- destinations that are not regular files
# /dev/fd/1 is /dev/stdout without the risk: should a broken build try to
# replace it, it cannot create a file in /proc (as root, a broken build
# would replace /dev/stdout itself)
"$PR_BIN" -q --input "$IN" --json /dev/fd/1 > "$T_DIR/stdout.json" \
    2> "$T_DIR/err"
check "--json /dev/fd/1 exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
check "  and writes the summary to standard output" \
    grep -q '"schema_version"' "$T_DIR/stdout.json"

printf 'old' > "$T_DIR/target.json"
ln -s "$T_DIR/target.json" "$W/link.json"
"$PR_BIN" -q --input "$IN" --json "$W/link.json"
check "--json through a symlink exits 0" [ $? -eq 0 ]
check "  the symlink stays a symlink" [ -L "$W/link.json" ]
check "  and its target holds the summary" \
    grep -q '"schema_version"' "$T_DIR/target.json"
rm -f "$W/link.json"

if mkfifo "$W/fifo" 2> /dev/null; then
    timeout 60 cat "$W/fifo" > "$T_DIR/fifo.out" &
    reader=$!
    "$PR_BIN" -q --input "$IN" --json "$W/fifo"
    rc=$?
    wait $reader
    check "--json into a FIFO exits 0" [ $rc -eq 0 ]
    check "  the FIFO stays a FIFO" [ -p "$W/fifo" ]
    check "  and its reader got the summary" \
        grep -q '"schema_version"' "$T_DIR/fifo.out"
    rm -f "$W/fifo"
else
    skip "FIFO output" "mkfifo failed"
fi

"$PR_BIN" -q --input "$IN" --pdf - > "$T_DIR/stdout.pdf" 2> "$T_DIR/err"
check "--pdf - writes a PDF to standard output" \
    sh -c "[ \$(head -c 4 '$T_DIR/stdout.pdf') = '%PDF' ]"
nothing_left "outputs through non-regular files"

# --- diff and trend
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
    --json "$W/nodir/d.json" --markdown "$W/d.md" --junit "$W/d.xml" \
    --html "$W/d.html" --pdf "$W/d.pdf" 2> "$T_DIR/err"
check "diff: a JSON path in a missing folder exits 2" [ $? -eq 2 ]
nothing_left "diff with a missing folder"
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
    --json "$W/d.json" --markdown "$W/d.md" --pdf "$W/nodir/d.pdf" \
    2> "$T_DIR/err"
check "diff: a PDF path in a missing folder exits 2" [ $? -eq 2 ]
nothing_left "diff with a PDF in a missing folder"
"$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" --json - \
    --markdown - > /dev/null 2> "$T_DIR/err"
check "diff --json - --markdown - is a usage error" [ $? -eq 1 ]

"$PR_BIN" trend -q -i "$D/base.json" "$D/slow.json" --json "$W/t.json" \
    --html "$W/t.html" --markdown "$W/nodir/t.md" 2> "$T_DIR/err"
check "trend: a Markdown path in a missing folder exits 2" [ $? -eq 2 ]
nothing_left "trend with a missing folder"
"$PR_BIN" trend -q -i "$D/base.json" "$D/slow.json" --json - --markdown - \
    > /dev/null 2> "$T_DIR/err"
check "trend --json - --markdown - is a usage error" [ $? -eq 1 ]

# --- a write that fails at commit: none of the files is replaced
# /dev/full takes the open and refuses the bytes (ENOSPC), as a full
# disk does; it is written through, so it is committed first
printf 'old' > "$W/o.html"
"$PR_BIN" -q --input "$IN" --json /dev/full --html "$W/o.html" \
    --pdf "$W/o.pdf" 2> "$T_DIR/err"
check "--json /dev/full exits 2" [ $? -eq 2 ]
check "  saying the device is full ($(head -c 200 "$T_DIR/err"))" \
    grep -q "/dev/full: write failed: No space left on device" "$T_DIR/err"
check "  the HTML it would have replaced is unchanged" \
    sh -c "[ \"\$(cat '$W/o.html')\" = old ]"
rm -f "$W/o.html"
nothing_left "a write through that fails"

# standard output closed: the summary cannot be written, the HTML stays
"$PR_BIN" -q --input "$IN" --json - --html "$W/o.html" 2> "$T_DIR/err" >&-
check "--json - with standard output closed exits 2" [ $? -eq 2 ]
check "  naming standard output" grep -q "standard output" "$T_DIR/err"
nothing_left "standard output closed"

# a full file system (a small tmpfs, when this process may mount one)
F=$T_DIR/full
mkdir -p "$F"
if mount -t tmpfs -o size=64k tmpfs "$F" 2> /dev/null; then
    head -c 60000 /dev/zero > "$F/filler" 2> /dev/null
    printf 'old' > "$F/o.html"
    "$PR_BIN" -q --input "$IN" --json "$W/o.json" --html "$F/o.html" \
        2> "$T_DIR/err"
    check "an HTML on a full disk exits 2" [ $? -eq 2 ]
    check "  saying no space is left ($(head -c 200 "$T_DIR/err"))" \
        grep -q "o.html: write failed: No space left on device" "$T_DIR/err"
    check "  the old HTML is unchanged" \
        sh -c "[ \"\$(cat '$F/o.html')\" = old ]"
    left=$(ls -A "$F" | grep -v -x -e filler -e o.html)
    check "  no staging file on the full disk ($left)" [ -z "$left" ]
    nothing_left "an HTML on a full disk"
    "$PR_BIN" -q --input "$IN" --json "$W/o.json" --pdf "$F/o.pdf" \
        2> "$T_DIR/err"
    check "a PDF on a full disk exits 2" [ $? -eq 2 ]
    check "  saying no space is left, not a libharu code ($(head -c 200 "$T_DIR/err"))" \
        grep -q "o.pdf: .*No space left on device" "$T_DIR/err"
    left=$(ls -A "$F" | grep -v -x -e filler -e o.html)
    check "  no staging file on the full disk ($left)" [ -z "$left" ]
    nothing_left "a PDF on a full disk"
    "$PR_BIN" diff -q -b "$D/base.json" -i "$D/slow.json" \
        --json "$W/d.json" --markdown "$W/d.md" --html "$F/d.html" \
        2> "$T_DIR/err"
    check "diff: an HTML on a full disk exits 2" [ $? -eq 2 ]
    nothing_left "diff with an HTML on a full disk"
    umount "$F"
else
    skip "a full file system" "cannot mount a tmpfs here"
fi

# --- outputs that cannot be written are found before the inputs are read:
# with a broken input too, the message is about the output
printf '{"traceEvents": [' > "$T_DIR/broken.json"
for bad in "$W/nodir/o.json" "$W" "$T_DIR/broken.json/o.json" \
    /proc/self/o.json; do
    "$PR_BIN" -q --input "$T_DIR/broken.json" --json "$bad" \
        --html "$W/o.html" 2> "$T_DIR/err"
    rc=$?
    check "--json $bad with a broken input exits 2 ($rc)" [ $rc -eq 2 ]
    check "  for the output, before the input ($(head -c 200 "$T_DIR/err"))" \
        sh -c "grep -q -e '--json' '$T_DIR/err' && ! grep -q broken.json: '$T_DIR/err'"
    nothing_left "unwritable --json $bad"
done
"$PR_BIN" -q --input "$IN" --json "$W" 2> "$T_DIR/err"
check "--json FOLDER says it is a folder" grep -q "'$W' is a folder" \
    "$T_DIR/err"
ln -s "$W/nodir/target.json" "$W/dangling.json"
"$PR_BIN" -q --input "$T_DIR/broken.json" --json "$W/dangling.json" \
    2> "$T_DIR/err"
check "a symlink into a missing folder fails first, exit 2 ($?)" \
    grep -q -e "--json.*dangling.json" "$T_DIR/err"
rm -f "$W/dangling.json"
if [ "$(id -u)" != 0 ]; then
    mkdir "$W/ro" && chmod 555 "$W/ro"
    "$PR_BIN" -q --input "$T_DIR/broken.json" --json "$W/ro/o.json" \
        2> "$T_DIR/err"
    check "a read-only folder fails first, exit 2" \
        grep -q "Permission denied" "$T_DIR/err"
    chmod 755 "$W/ro" && rmdir "$W/ro"
else
    skip "a read-only folder" "root writes to any folder"
fi
"$PR_BIN" diff -q -b "$T_DIR/broken.json" -i "$D/slow.json" \
    --json "$W/d.json" --markdown "$W/nodir/d.md" 2> "$T_DIR/err"
check "diff: an unwritable output is found before the inputs are read" \
    grep -q -e "--markdown.*nodir/d.md" "$T_DIR/err"
"$PR_BIN" trend -q -i "$T_DIR/broken.json" "$D/slow.json" \
    --json "$W/nodir/t.json" 2> "$T_DIR/err"
check "trend: an unwritable output is found before the inputs are read" \
    grep -q -e "--json.*nodir/t.json" "$T_DIR/err"
nothing_left "diff and trend with unwritable outputs"

# a symlink to a regular file: the target is replaced whole (a new file
# renamed over it), the link stays
printf 'old' > "$T_DIR/target2.json"
ln -s "$T_DIR/target2.json" "$W/link2.json"
before=$(ls -i "$T_DIR/target2.json" | cut -d' ' -f1)
"$PR_BIN" -q --input "$IN" --json "$W/link2.json"
after=$(ls -i "$T_DIR/target2.json" | cut -d' ' -f1)
check "--json through a symlink renames over its target" \
    [ "$before" != "$after" ]
check "  the link stays a link" [ -L "$W/link2.json" ]
left=$(ls -A "$T_DIR" | grep '^target2.json.')
check "  no staging file beside the target ($left)" [ -z "$left" ]
rm -f "$W/link2.json"

echo "1..$T_N"
