#!/bin/sh
# fuzz_found.sh - what the fuzz targets found (issue #17: every finding
# becomes a test).  tests/data/fuzz/pipeline/* are inputs of the report
# command as fuzz_pipeline gives them: one file, or a folder written as
# "@@@ PATH" members (fuzz/fuzz_files.h).  Each run must end (no hang),
# exit 0 or 2, and with exit 0 write all three outputs; under the
# sanitizer build a leak or undefined behaviour fails the run.
. "$PR_SRCDIR/tests/lib.sh"

# unpack FILE DIR: a "@@@ PATH" input into DIR, as fuzz_files.h does (safe
# characters only, no "..")
unpack() {
    python3 - "$1" "$2" <<'PY'
import os, sys
SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-")
data = open(sys.argv[1], "rb").read()
root = sys.argv[2]
for part in data[4:].split(b"\n@@@ ")[:32]:
    name, nl, body = part.partition(b"\n")
    rel, depth = "", 0
    for c in name.decode("latin-1"):  # fuzz_member_path, char by char
        prev = rel[-1] if rel else "/"
        if c == "/":
            if prev == "/":
                continue
            depth += 1
            if depth > 4:
                continue
        if c == "." and prev in "/.":
            c = "_"
        rel += c if c in SAFE else "_"
        if c == "/":
            try:
                os.makedirs(os.path.join(root, rel), exist_ok=True)
            except OSError:
                pass  # a file by that name: mkdir fails there too
    rel = rel.rstrip("/")
    path = os.path.join(root, rel)
    if rel and not os.path.isdir(path):
        try:
            open(path, "wb").write(body)
        except OSError:
            pass  # under a name that is a file: fuzz_write skips it too
PY
}

for f in "$PR_SRCDIR"/tests/data/fuzz/pipeline/*; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    rm -rf "$T_DIR/in" "$T_DIR"/o.*
    mkdir -p "$T_DIR/in"
    if [ "$(head -c 4 "$f")" = "@@@ " ]; then
        unpack "$f" "$T_DIR/in"
        in=$T_DIR/in
    else
        cp "$f" "$T_DIR/in/input"
        in=$T_DIR/in/input
    fi
    timeout 120 "$PR_BIN" -q --input "$in" --json "$T_DIR/o.json" \
        --html "$T_DIR/o.html" --pdf "$T_DIR/o.pdf" 2> "$T_DIR/err"
    rc=$?
    check "$n: ends with exit 0 or 2 (got $rc: $(head -c 300 "$T_DIR/err"))" \
        [ "$rc" -eq 0 -o "$rc" -eq 2 ]
    if [ "$rc" -eq 0 ]; then
        check "$n: all three outputs written" \
            [ -s "$T_DIR/o.json" -a -s "$T_DIR/o.html" -a -s "$T_DIR/o.pdf" ]
    fi
done
[ "$T_N" -gt 0 ] || skip "no fuzz findings recorded" ""
echo "1..$T_N"
