#!/bin/sh
# hostdev_report.sh - the reports show what hostdev.c and memory.c compute
# (issue #11) on real traces: the Host and device section with the idle
# causes, syncs, copies (pageable, with the pin_memory fix) and launches;
# the tensors live at the memory peak; an unnamed device by its label; no
# such section for a CPU-only run.  Skipped without ../shared.
. "$PR_SRCDIR/tests/lib.sh"
H=$PR_SHARED/traces/hta
have() { command -v "$1" > /dev/null 2>&1; }

if ! have_shared || [ ! -d "$H" ]; then
    skip "host and device section" "no ../shared/traces/hta"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" --quiet --input \
    "$H/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz" \
    --html "$T_DIR/al.html" --pdf "$T_DIR/al.pdf"
check "alexnet: the report is written" [ $? -eq 0 ]
check "  html has the Host and device section" \
    grep -q '<section id="host-device">' "$T_DIR/al.html"
check "  it names the idle cause (host wait, 99% of the span: the syncs explain 0.6 ms)" \
    grep -q "waited for the host 99% of its span" "$T_DIR/al.html"
check "  it lists the blocking copy with the device idle it caused" \
    grep -q 'cudaMemcpyAsync' "$T_DIR/al.html"
check "  it says how to fix the pageable copies" \
    grep -q 'pin_memory=True' "$T_DIR/al.html"
check "  it keeps the shutdown sync apart" \
    grep -q 'profiler start-up and shutdown' "$T_DIR/al.html"
if have pdftotext; then
    pdftotext "$T_DIR/al.pdf" "$T_DIR/al.txt"
    check "  the PDF has the section too" grep -q 'Kernel launches' "$T_DIR/al.txt"
fi

"$PR_BIN" --quiet --input "$H/call_stack/backward_thread.json" \
    --html "$T_DIR/cs.html"
check "call_stack: the device without deviceProperties is still a GPU" \
    grep -q 'GPU 0 (no deviceProperties in trace)' "$T_DIR/cs.html"
check "  and says it has no synchronising call" \
    grep -q 'No synchronising call' "$T_DIR/cs.html"

"$PR_BIN" --quiet --input "$H/df_index_resolver/df_index_resolver.json.gz" \
    --html "$T_DIR/df.html"
check "df_index_resolver: memory shows what is live at the GPU peak" \
    grep -q 'Live at the GPU1 peak' "$T_DIR/df.html"
check "  and what was allocated before the trace" \
    grep -q 'allocated before the trace began' "$T_DIR/df.html"

"$PR_BIN" --quiet --input "$H/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz" \
    --html "$T_DIR/co.html"
check "cpu_only: no Host and device section" \
    test "$(grep -c 'id="host-device"' "$T_DIR/co.html")" -eq 0
echo "1..$T_N"
