#!/bin/sh
# ascend_comm_alone.sh - issue #30: a rank's communication.json or
# communication_matrix.json given alone (--input .../communication.json)
# is recognised by its content (first key "step..." whose value holds
# "collective" / "p2p"; its operations "Communication Time Info", the
# matrix's links "Transport Type") and turned away with exit 2, a message
# naming the file, what it is and the folder to give, and no output file;
# before, "not a profiler trace (no traceEvents)".
. "$PR_SRCDIR/tests/lib.sh"

# alone FILE WHAT: exit 2, the message names FILE, WHAT and the folder to
# give, and --json/--html/--pdf wrote nothing
alone() {
    rm -rf "$T_DIR/o"
    mkdir -p "$T_DIR/o"
    "$PR_BIN" --input "$1" --json "$T_DIR/o/r.json" --html "$T_DIR/o/r.html" \
        --pdf "$T_DIR/o/r.pdf" > "$T_DIR/out" 2> "$T_DIR/err"
    rc=$?
    if [ $rc -eq 2 ] &&
        grep -qF "$1: a rank's $2 (" "$T_DIR/err" &&
        grep -qF "no device tasks): not read alone; give the folder it belongs to (the rank's *_ascend_pt or its ASCEND_PROFILER_OUTPUT/, or a PROF_* folder)" "$T_DIR/err" &&
        ! grep -q "traceEvents" "$T_DIR/err" &&
        [ -z "$(ls -A "$T_DIR/o")" ]
    then ok "$3: exit 2, names the file and the folder, writes nothing"
    else not_ok "$3: exit $rc ($(head -c 300 "$T_DIR/err"); $(ls "$T_DIR/o"))"; fi
}

# hand-made: one step without a schedule ("step"), pretty-printed as
# msprof writes it, and a numbered step with p2p operations only
cat > "$T_DIR/communication.json" << 'EOF'
{
    "step": {
        "collective": {
            "hcom_allReduce__1_0_1@77": {
                "Communication Time Info": {"Start Timestamp(us)": 1.0,
                    "Elapse Time(ms)": 1.0, "Transit Time(ms)": 0.5},
                "Communication Bandwidth Info": {}
            }
        },
        "p2p": {}
    }
}
EOF
alone "$T_DIR/communication.json" "communication.json" "hand-made communication.json"

printf '{"step7": {"p2p": {"hcom_send__1_0@77": {"0-1": {"Transport Type": "HCCS", "Transit Size(MB)": 1.0, "Transit Time(ms)": 0.1, "Bandwidth(GB/s)": 10.0}}}}}' \
    > "$T_DIR/m.json"
alone "$T_DIR/m.json" "communication_matrix.json" "hand-made communication_matrix.json"

# a JSON object keyed by steps that is neither is not claimed so
printf '{"step1": {"collective": {"x": {"other": 1}}}}' > "$T_DIR/x.json"
"$PR_BIN" --input "$T_DIR/x.json" --json "$T_DIR/x.out.json" 2> "$T_DIR/err"
if ! grep -q "a rank's communication" "$T_DIR/err"
then ok "another step-keyed object: not called a communication.json"
else not_ok "another step-keyed object: $(head -c 300 "$T_DIR/err")"; fi

S=${PR_SHARED:-}/traces/torch_npu
n=0
if have_shared && [ -d "$S" ]; then
    for f in "$S"/old2023/test_rank_0/ASCEND_PROFILER_OUTPUT \
        "$S"/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT; do
        [ -f "$f/communication.json" ] || continue
        n=$((n + 1))
        alone "$f/communication.json" "communication.json" \
            "${f#"$S"/}/communication.json"
        alone "$f/communication_matrix.json" "communication_matrix.json" \
            "${f#"$S"/}/communication_matrix.json"
        # the folder the message names is read
        "$PR_BIN" -q --input "$f" --json "$T_DIR/f.json" 2> /dev/null
        check "${f#"$S"/}: the folder itself is read" [ $? -eq 0 ]
    done
fi
[ $n -gt 0 ] || skip "shared communication.json files alone" "no $S"

echo "1..$T_N"
