#!/bin/sh
# signals.sh - SIGTERM, SIGINT or SIGHUP while the reports are rendered
# (issue #35): the process ends by that signal, and no staging file is
# left, neither beside the outputs nor in $TMPDIR (where the staging file
# of standard output lives); no output half-written.  The signal is sent
# when a staging file is seen (polled, not slept for), so a loaded machine
# only makes the wait longer.
. "$PR_SRCDIR/tests/lib.sh"

G=$PR_GEN
done_tests() { echo "1..$T_N"; exit 0; }
if [ ! -x "$G" ]; then
    skip "signals during rendering" "$G not built"
    done_tests
fi
if ! env --default-signal=INT true 2> /dev/null; then
    skip "signals during rendering" "env has no --default-signal"
    done_tests
fi

# a trace whose reports take a while to render (seconds, not minutes)
BIG=$T_DIR/big.json
"$G" --size-mb 24 --memory -o "$BIG"
W=$T_DIR/w
TMP=$T_DIR/tmp
mkdir -p "$W" "$TMP"

# staged: 0 once a staging file exists in $W or $TMP
staged() {
    for f in "$W"/o.*.?????? "$TMP"/profreport.??????; do
        [ -e "$f" ] && return 0
    done
    return 1
}

# send SIG (TERM, INT, HUP, number N) "what" OUTPUT-ARGS...: run the
# report in the background, send the signal once a staging file exists
send() {
    sig=$1 n=$2 what=$3
    shift 3
    rm -rf "$W" "$TMP" && mkdir -p "$W" "$TMP"
    TMPDIR=$TMP env --default-signal=INT,TERM,HUP "$PR_BIN" -q \
        --input "$BIG" "$@" > "$T_DIR/stdout" 2> "$T_DIR/err" &
    pid=$!
    # the analysis first (seconds, longer under a sanitizer), then the
    # reports are staged: poll every 20 ms until one is there
    while ! staged && kill -0 "$pid" 2> /dev/null; do
        sleep 0.02
    done
    if ! staged; then
        wait "$pid"
        skip "SIG$sig $what" "the run ended before its staging file was seen"
        return
    fi
    kill -s "$sig" "$pid"
    wait "$pid"
    rc=$?
    if [ $rc -eq 0 ]; then
        # finished between the poll and the signal: the outputs are whole
        skip "SIG$sig $what" "the run ended before the signal came"
        return
    fi
    check "SIG$sig $what: the process ends by the signal ($rc)" \
        [ $rc -eq $((128 + n)) ]
    left=$(ls -A "$W" "$TMP" | grep -v ':$' | grep .)
    check "  no staging file or half-written output left ($left)" \
        [ -z "$left" ]
}

send TERM 15 "during rendering" --json "$W/o.json" --html "$W/o.html" \
    --pdf "$W/o.pdf"
send INT 2 "during rendering" --json "$W/o.json" --html "$W/o.html" \
    --pdf "$W/o.pdf"
send HUP 1 "with the summary for standard output" --json - \
    --html "$W/o.html" --pdf "$W/o.pdf"

# an output that was there before the signal stays as it was
rm -rf "$W" "$TMP" && mkdir -p "$W" "$TMP"
printf 'old' > "$W/o.html"
TMPDIR=$TMP "$PR_BIN" -q --input "$BIG" --html "$W/o.html" --pdf "$W/o.pdf" &
pid=$!
while ! staged && kill -0 "$pid" 2> /dev/null; do sleep 0.02; done
kill -s TERM "$pid" 2> /dev/null
wait "$pid"
if [ $? -ne 0 ]; then
    check "a signalled run keeps the old HTML and writes no PDF" \
        sh -c "[ \"\$(cat '$W/o.html')\" = old ] && [ ! -e '$W/o.pdf' ]"
    check "  and leaves nothing else ($(ls -A "$W"))" \
        [ "$(ls -A "$W")" = o.html ]
else
    skip "a signalled run replaces nothing" "the run ended first"
fi

done_tests
