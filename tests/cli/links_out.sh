#!/bin/sh
# links_out.sh - discovery stays inside the input folder (issue #35): a run
# folder's links to /, to its parent, to a file beside the folder and to
# /proc/kmsg are skipped with a warning, never followed; a link to a file
# inside the folder is read once; a /proc entry that says "regular file"
# but would wait for data (/proc/kmsg), given as --input, fails at once
# with exit 2 instead of hanging.  Runs without ../shared.
. "$PR_SRCDIR/tests/lib.sh"

R=$T_DIR/run
mkdir -p "$R"
printf '{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":5}]}' \
    > "$R/w0.pt.trace.json"
echo 'SECRET-BYTES-41c2' > "$T_DIR/secret.txt"
ln -s / "$R/root"
ln -s .. "$R/up"
ln -s ../secret.txt "$R/secret.csv"
ln -s ../secret.txt "$R/secret.pt.trace.json"
ln -s w0.pt.trace.json "$R/inside.pt.trace.json"
[ -e /proc/kmsg ] && ln -s /proc/kmsg "$R/kmsg.pt.trace.json"

timeout 60 "$PR_BIN" --input "$R" --json "$T_DIR/o.json" 2> "$T_DIR/err"
rc=$?
check "a folder with links out of it: exit 0 within 60 s (got $rc)" [ "$rc" = 0 ]
for l in root up secret.csv secret.pt.trace.json; do
    check "the link $l is skipped as leading out of the folder" \
        grep -q "skipping .*/$l: a link that leads out of the input folder" \
        "$T_DIR/err"
done
check "the secret's bytes appear nowhere" \
    sh -c '! grep -q SECRET-BYTES "$1/err" "$1/o.json"' _ "$T_DIR"
check "the link inside the folder and its target are read once" \
    grep -q "the same file as" "$T_DIR/err"
check "the summary holds the folder's one trace" \
    grep -q '"aten::mm"' "$T_DIR/o.json"

# --follow-links: the user's word that links out are theirs (a job folder
# assembled from links to rank folders elsewhere)
rm -f "$R/root" "$R/up" "$R/kmsg.pt.trace.json" "$R/secret.csv"
printf '{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::bmm","pid":1,"tid":1,"ts":0,"dur":5}]}' \
    > "$T_DIR/secret.txt"
timeout 60 "$PR_BIN" --follow-links --input "$R" --json "$T_DIR/f.json" \
    2> "$T_DIR/ferr"
check "--follow-links: a link out of the folder is read" \
    grep -q '"aten::bmm"' "$T_DIR/f.json"
check "--follow-links: no 'leads out' warning" \
    sh -c '! grep -q "leads out" "$1"' _ "$T_DIR/ferr"
check "without it, the warning names the option" \
    grep -q "follow-links follows it" "$T_DIR/err"

if [ -r /proc/kmsg ]; then
    rm -f "$T_DIR/k.json"
    timeout 20 "$PR_BIN" --input /proc/kmsg --json "$T_DIR/k.json" \
        2> "$T_DIR/kerr"
    rc=$?
    check "--input /proc/kmsg: exit 2 at once, not a hang (got $rc)" \
        [ "$rc" = 2 ]
    check "--input /proc/kmsg: no output written" [ ! -e "$T_DIR/k.json" ]
    check "--input /proc/kmsg: the message names the file" \
        grep -q "/proc/kmsg" "$T_DIR/kerr"
else
    skip "--input /proc/kmsg" "/proc/kmsg is not readable here (not root?)"
fi
echo "1..$T_N"
