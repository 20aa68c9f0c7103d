#!/bin/sh
# job_one_capture.sh - a job of captures (no step markers) where one rank
# has a timed capture and the other none (no events inside a window):
# there is no spread to give, and the terminal's job line says so instead
# of "captures of 120 us each (spread nan%)" (hunt31 defect 1: a CANN 8
# mindstudio_profiler_output/ read as two ranks printed "spread nan%").
. "$PR_SRCDIR/tests/lib.sh"

mkdir -p "$T_DIR/job"
cat > "$T_DIR/job/a.json" <<'EOF'
{"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1000,"dur":50},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1010,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1020,"dur":100,"args":{"correlation":1,"device":0,"stream":7}}
],"distributedInfo":{"rank":0,"world_size":2}}
EOF
cat > "$T_DIR/job/b.json" <<'EOF'
{"traceEvents":[
{"ph":"M","name":"process_name","pid":1,"args":{"name":"python"}},
{"ph":"i","cat":"cpu_instant_event","name":"mark","pid":1,"tid":1,"ts":1000,"s":"t"}
],"distributedInfo":{"rank":1,"world_size":2}}
EOF
"$PR_BIN" --input "$T_DIR/job" > "$T_DIR/term" 2> "$T_DIR/err"
rc=$?
check "the job is read (rc $rc)" test "$rc" -eq 0
check "no nan in the job line" sh -c "! grep -qi 'nan' '$T_DIR/term'"
check "the job line says one rank has a timed capture" \
    grep -q '^job: 2 ranks, no steps: one rank with a timed capture (120 µs), so no spread and no slowest rank$' \
    "$T_DIR/term"

echo "1..$T_N"
