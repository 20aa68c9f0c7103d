#!/bin/sh
# outputs_race.sh - all outputs or none even when a rename fails after the
# check (issue #35): between the check and the commit a destination
# becomes a folder (PROFREPORT_TEST_BEFORE_COMMIT, a test hook: the run
# waits at the commit until the test removes the hook's file).  The run
# exits 2 naming that output, every earlier output is as it was (an old
# file keeps its content, a new one is not there), standard output gets
# nothing, and no staging or backup file is left.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
W=$T_DIR/w
HOOK=$T_DIR/hook

# race "what" ACTION OUTPUT-ARGS...: run the report; once it waits at the
# commit, run ACTION (a shell command, in $W), then let it go on
race() {
    what=$1 action=$2
    shift 2
    rm -f "$HOOK"
    PROFREPORT_TEST_BEFORE_COMMIT=$HOOK "$PR_BIN" -q --input "$IN" "$@" \
        > "$T_DIR/out" 2> "$T_DIR/err" &
    pid=$!
    while [ ! -e "$HOOK" ] && kill -0 "$pid" 2> /dev/null; do
        sleep 0.02
    done
    if [ ! -e "$HOOK" ]; then
        wait "$pid"
        not_ok "$what: the run never reached its commit ($(cat "$T_DIR/err"))"
        return 1
    fi
    (cd "$W" && sh -c "$action")
    rm -f "$HOOK"
    wait "$pid"
    rc=$?
    check "$what: exit 2 ($rc)" [ $rc -eq 2 ]
}

# only_these FILE...: the work folder holds exactly these names (no
# staging file o.json.XXXXXX, no backup)
only_these() {
    want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
    got=$(ls -A "$W" | sort | tr '\n' ' ')
    check "  no staging or backup file left ($got)" [ "$got" = "$want" ]
}

# 1. old outputs: the last one (the PDF) becomes a folder
rm -rf "$W" && mkdir -p "$W"
for f in o.json o.html o.pdf; do printf 'old %s' "$f" > "$W/$f"; done
race "the PDF became a folder" 'rm o.pdf && mkdir o.pdf' \
    --json "$W/o.json" --html "$W/o.html" --pdf "$W/o.pdf"
check "  the message names it" grep -q "o.pdf: cannot rename into place: it is a folder now" "$T_DIR/err"
check "  the JSON renamed before it is put back" [ "$(cat "$W/o.json")" = "old o.json" ]
check "  and so is the HTML" [ "$(cat "$W/o.html")" = "old o.html" ]
only_these o.html o.json o.pdf

# 2. new outputs: the HTML (second) becomes a folder; the JSON renamed
# before it is removed again
rm -rf "$W" && mkdir -p "$W"
race "the HTML became a folder, no file there before" 'mkdir o.html' \
    --json "$W/o.json" --html "$W/o.html" --pdf "$W/o.pdf"
check "  the message names it" grep -q "o.html: cannot rename into place" "$T_DIR/err"
check "  no JSON left" [ ! -e "$W/o.json" ]
check "  no PDF" [ ! -e "$W/o.pdf" ]
only_these o.html

# 3. through a symlink: the link's target is put back, the link stays
rm -rf "$W" && mkdir -p "$W"
printf 'old target' > "$W/target.json"
ln -s target.json "$W/link.json"
race "an output through a symlink, then one that became a folder" \
    'mkdir o.html' --json "$W/link.json" --html "$W/o.html"
check "  the link's target is put back" [ "$(cat "$W/target.json")" = "old target" ]
check "  the link stays a link" [ -L "$W/link.json" ]
only_these link.json o.html target.json

# 4. with the summary for standard output: a rename that fails first, so
# nothing was printed
rm -rf "$W" && mkdir -p "$W"
printf 'old' > "$W/o.html"
race "the summary on standard output, the HTML a folder" \
    'rm o.html && mkdir o.html' --json - --html "$W/o.html"
check "  nothing printed on standard output" [ ! -s "$T_DIR/out" ]

# 5. a write through that fails after the renames: they are put back
if [ -w /dev/full ]; then
    rm -rf "$W" && mkdir -p "$W"
    printf 'old' > "$W/o.html"
    "$PR_BIN" -q --input "$IN" --json /dev/full --html "$W/o.html" \
        --pdf "$W/o.pdf" 2> "$T_DIR/err"
    check "a full device after the renames: exit 2" [ $? -eq 2 ]
    check "  the HTML is put back" [ "$(cat "$W/o.html")" = "old" ]
    check "  the PDF is removed again" [ ! -e "$W/o.pdf" ]
    only_these o.html
else
    skip "a full device after the renames" "no writable /dev/full"
fi

# 6. the hook untouched: the run commits as usual, and leaves no backup
rm -rf "$W" && mkdir -p "$W"
printf 'old' > "$W/o.html"
rm -f "$HOOK"
PROFREPORT_TEST_BEFORE_COMMIT=$HOOK "$PR_BIN" -q --input "$IN" \
    --json "$W/o.json" --html "$W/o.html" > /dev/null 2>&1 &
pid=$!
while [ ! -e "$HOOK" ] && kill -0 "$pid" 2> /dev/null; do sleep 0.02; done
rm -f "$HOOK"
wait "$pid"
check "no race: exit 0" [ $? -eq 0 ]
check "  the HTML replaced" sh -c "! grep -qx old '$W/o.html'"
only_these o.html o.json

# 7. a signal while a write through waits (a FIFO nobody reads yet),
# after the renames: the handler puts them back before the process ends
if command -v mkfifo > /dev/null; then
    rm -rf "$W" && mkdir -p "$W"
    printf 'old' > "$W/o.html"
    mkfifo "$W/fifo"
    "$PR_BIN" -q --input "$IN" --json "$W/fifo" --html "$W/o.html" \
        2> "$T_DIR/err" &
    pid=$!
    while grep -qx old "$W/o.html" && kill -0 "$pid" 2> /dev/null; do
        sleep 0.02
    done
    kill -s TERM "$pid"
    wait "$pid"
    rc=$?
    check "SIGTERM while the FIFO waits for a reader: ended by it ($rc)" \
        [ $rc -eq 143 ]
    check "  the HTML renamed before it is put back" [ "$(cat "$W/o.html")" = "old" ]
    only_these fifo o.html
else
    skip "SIGTERM while a FIFO waits" "no mkfifo"
fi

# 8. more outputs than the first chunk of the signal table holds (32):
# --each-job over 17 jobs, two outputs each
rm -rf "$W" && mkdir -p "$W"
F=$PR_SRCDIR/tests/data/jobs/two_jobs
J=$T_DIR/jobs
rm -rf "$J"
i=0
while [ $i -lt 17 ]; do
    mkdir -p "$J/j$i"
    cp "$F/host_100.1714521600000.pt.trace.json" \
        "$F/host_400.1714521600002.pt.trace.json" "$J/j$i"
    i=$((i + 1))
done
"$PR_BIN" -q --input "$J" --each-job --json "$W/e.json" --html "$W/e.html" \
    2> "$T_DIR/err"
check "--each-job, 17 jobs, 34 outputs: exit 0 ($(cat "$T_DIR/err"))" [ $? -eq 0 ]
check "  all 34 written" [ "$(ls "$W" | grep -c '^e\.j[0-9]*\.\(json\|html\)$')" -eq 34 ]
check "  and nothing else" [ "$(ls -A "$W" | wc -l)" -eq 34 ]

echo "1..$T_N"
