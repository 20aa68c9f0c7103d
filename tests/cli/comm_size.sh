#!/bin/sh
# comm_size.sh - time against size for a collective (review-5 finding 3)
# and bandwidth over every call or none (finding 9).  Hand-made Gloo
# traces: 4 all-reduces of 1.31 MB (327,680 floats) on one thread and 4
# of 8.39 MB (2,097,152 floats) on another, 8 ranks.  Flat: both take
# 150 ms, so time does not grow with size (latency or late peers, not the
# link); growing: 20 and 128 ms, the same 65 MB/s, so the link is slow
# and its interface is the advice; one call unsized: no rate at all.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "time against size" "no python3"
    echo "1..$T_N"
    exit 0
fi

# gen FILE SMALL_MS LARGE_MS [unsized]
gen() {
    python3 - "$@" << 'PY'
import json, sys
ms = 1000.0
small, large = float(sys.argv[2]), float(sys.argv[3])
unsized = len(sys.argv) > 4
def ar(tid, ts, n, dur):
    a = {"Input type": ["float"]}
    if n:
        a["Input Dims"] = [[n]]
    return {"ph": "X", "cat": "user_annotation", "name": "gloo:all_reduce",
            "pid": 1, "tid": tid, "ts": ts * ms, "dur": dur * ms, "args": a}
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 800 * ms, "args": {}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::add_", "pid": 1, "tid": 1,
       "ts": 1 * ms, "dur": 1 * ms, "args": {}}]
for i in range(4):
    ev.append(ar(10, i * 200, 327680, small))
    ev.append(ar(11, i * 200 + 5, None if unsized and i == 0 else 2097152,
                 large))
json.dump({"distributedInfo": {"backend": "gloo", "rank": 0,
                               "world_size": 8},
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

# op FILE KEY: that key of the gloo:all_reduce row
op() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = [o for o in r["communication"]["ops"] if o["name"] == "gloo:all_reduce"][0]
v = o[sys.argv[2]]
print(v if v is None else round(float(v), 3))
PY
}

# text FILE: the communication finding's text
text() {
    python3 - "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(" ".join(x["text"] for x in (r["recommendations"] + r.get("observations", []))
               if x["id"] == "communication"))
PY
}

gen "$T_DIR/flat.json" 150 150
"$PR_BIN" -q --input "$T_DIR/flat.json" --json "$T_DIR/flat.s.json" \
    --html "$T_DIR/flat.html"
check "flat: 4 calls under the middle size" \
    test "$(op "$T_DIR/flat.s.json" small_calls)" = "4.0"
check "flat: their mean size, 1.31 MB" \
    test "$(op "$T_DIR/flat.s.json" small_bytes)" = "1310720.0"
check "flat: 4 over it, 8.39 MB" \
    test "$(op "$T_DIR/flat.s.json" large_bytes)" = "8388608.0"
check "flat: both take 150 ms" \
    test "$(op "$T_DIR/flat.s.json" small_us)" = "150000.0" -a \
    "$(op "$T_DIR/flat.s.json" large_us)" = "150000.0"
text "$T_DIR/flat.s.json" > "$T_DIR/flat.txt"
check "flat: the finding says time does not grow with size" \
    grep -q "Time does not grow with size" "$T_DIR/flat.txt"
check "flat: it names per-hop latency over the 8 ranks (14 hops)" \
    grep -q "over 8 ranks passes each call through 14 hops" "$T_DIR/flat.txt"
check "flat: stragglers and fewer, larger buckets" \
    grep -q "stragglers.*fewer, larger buckets" "$T_DIR/flat.txt"
check "flat: no network-interface advice" \
    sh -c "! grep -q GLOO_SOCKET_IFNAME '$T_DIR/flat.txt'"
check "flat: the HTML note beside the table gives both sizes and times" \
    grep -q "gloo:all_reduce: time does not grow with size: its 4 calls of 1.25 MiB take 150.0 ms on average and its 4 calls of 8.00 MiB take 150.0 ms (6.4x the bytes, 1.00x the time)" \
    "$T_DIR/flat.html"
# review 6 #5: the reading is the op's size_note (comm.c), shown beside
# the table and in the terminal, and only where it holds
check "flat: size_note on the op" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
o = [o for o in r['communication']['ops'] if o['name'] == 'gloo:all_reduce'][0]
assert o['size_note'].startswith('gloo:all_reduce: time does not grow'), o
" "$T_DIR/flat.s.json"
"$PR_BIN" --input "$T_DIR/flat.json" > "$T_DIR/flat.term" 2>/dev/null
check "flat: the terminal prints the reading" \
    grep -q "Collectives: gloo:all_reduce: time does not grow with size" \
    "$T_DIR/flat.term"

gen "$T_DIR/grow.json" 20 128
"$PR_BIN" -q --input "$T_DIR/grow.json" --json "$T_DIR/grow.s.json"
text "$T_DIR/grow.s.json" > "$T_DIR/grow.txt"
check "growing: the time grows with the bytes (128 ms)" \
    test "$(op "$T_DIR/grow.s.json" large_us)" = "128000.0"
check "growing: no latency reading" \
    sh -c "! grep -q 'Time does not grow' '$T_DIR/grow.txt'"
check "growing: a slow link, its interface checked" \
    grep -q GLOO_SOCKET_IFNAME "$T_DIR/grow.txt"
check "growing: no size_note" \
    test "$(op "$T_DIR/grow.s.json" size_note)" = "None"
# issue #28 #4: "on GPUs, use the NCCL backend" on a CPU-only run, whose
# Gloo collectives move host tensors, Gloo's place: the advice says what
# the trace shows (no device work) and names no NCCL
for c in flat grow; do
    check "$c: no device work, so Gloo is the backend; no NCCL advice" \
        sh -c "grep -q 'The trace records no device work, so these collectives move host tensors, for which Gloo is the backend (NCCL carries GPU tensors only)' '$T_DIR/$c.txt' &&
               ! grep -q 'use the NCCL\\|the NCCL backend' '$T_DIR/$c.txt'"
done

# review 6 #5: NCCL all-reduces whose kernels are all named for LL, 8 MiB
# calls among them (gen_nccl FILE NELEMS SECOND_KERNEL): the note says
# the name is no sign of the protocol (NCCL's maintainers: one kernel
# runs any protocol); a SIMPLE-named call makes the names mixed (no
# protocol, no note); 64 KiB calls are no large calls (no note)
gen_nccl() {
    python3 - "$@" << 'PY'
import json, sys
n, second = int(sys.argv[2]), sys.argv[3]
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}}]
for i in range(4):
    t = 10 + i * 200
    ev.append({"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce",
               "pid": 1, "tid": 1, "ts": t, "dur": 20,
               "args": {"External id": 100 + i, "Input Dims": [[n]],
                        "Input type": ["float"]}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": t + 2, "dur": 5,
               "args": {"correlation": 10 + i, "External id": 100 + i}})
    k = second if i == 1 else "RING_LL"
    ev.append({"ph": "X", "cat": "kernel",
               "name": "ncclKernel_AllReduce_%s_Sum_float(ncclDevComm*)" % k,
               "pid": 0, "tid": 7, "ts": t + 30, "dur": 100,
               "args": {"correlation": 10 + i, "External id": 100 + i,
                        "device": 0, "stream": 7}})
json.dump({"distributedInfo": {"backend": "nccl", "rank": 0,
                               "world_size": 2},
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}
# proto FILE: the op's kernel_protocol, then the run's protocol_note
proto() {
    python3 - "$1" << 'PY'
import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["communication"]
o = [o for o in c["ops"] if o["name"] == "nccl:all_reduce"][0]
print(o["kernel_protocol"], c["protocol_note"])
PY
}
gen_nccl "$T_DIR/ll.json" 2097152 RING_LL
"$PR_BIN" -q --input "$T_DIR/ll.json" --json "$T_DIR/ll.s.json"
proto "$T_DIR/ll.s.json" > "$T_DIR/ll.txt"
check "LL-named kernels on 8 MiB calls: kernel_protocol LL" \
    grep -q "^LL Every nccl:all_reduce call ran a kernel named for NCCL's LL protocol (ncclKernel_AllReduce_RING_LL_Sum_float), calls of 8.0 MiB included" \
    "$T_DIR/ll.txt"
check "  the note: the name is no sign NCCL_PROTO forced LL" \
    grep -q "no sign that NCCL_PROTO forced LL" "$T_DIR/ll.txt"
gen_nccl "$T_DIR/mixed.json" 2097152 RING_SIMPLE
"$PR_BIN" -q --input "$T_DIR/mixed.json" --json "$T_DIR/mixed.s.json"
check "one SIMPLE-named call: no protocol, no note" \
    test "$(proto "$T_DIR/mixed.s.json")" = "None None"
gen_nccl "$T_DIR/small.json" 16384 RING_LL
"$PR_BIN" -q --input "$T_DIR/small.json" --json "$T_DIR/small.s.json"
check "LL-named kernels on 64 KiB calls: LL, no note" \
    test "$(proto "$T_DIR/small.s.json")" = "LL None"

# review 22g #4: one call unsized of 8 (review-5 finding 9 had voided
# every rate): total_bytes stays null (every call or none), the 7 sized
# calls keep their bytes and the rates are over them, said beside the
# table, in its Total bytes cell and in the terminal
gen "$T_DIR/miss.json" 150 150 unsized
"$PR_BIN" -q --input "$T_DIR/miss.json" --json "$T_DIR/miss.s.json" \
    --html "$T_DIR/miss.html"
"$PR_BIN" --input "$T_DIR/miss.json" > "$T_DIR/miss.term" 2> /dev/null
check "one call unsized: total_bytes null" \
    test "$(op "$T_DIR/miss.s.json" total_bytes)" = "None"
check "  7 calls sized, 29.0 MiB (4 x 1.25 + 3 x 8 MiB)" \
    test "$(op "$T_DIR/miss.s.json" sized_calls)" = "7.0" -a \
    "$(op "$T_DIR/miss.s.json" sized_bytes)" = "30408704.0"
check "  algbw over those 7 calls' 1,050 ms: 0.029 GB/s" \
    test "$(op "$T_DIR/miss.s.json" bw_calls)" = "7.0" -a \
    "$(op "$T_DIR/miss.s.json" bw_us)" = "1050000.0" -a \
    "$(op "$T_DIR/miss.s.json" algbw_gbps)" = "0.029"
check "  comm_ops the same" \
    python3 -c "
import json, sys
o = json.load(open(sys.argv[1]))['distributed']['comm_ops'][0]
assert o['total_bytes'] is None and o['sized_calls'] == 7, o
assert o['sized_bytes'] == 30408704 and o['bw_calls'] == 7, o
assert abs(o['algbw_gbps'] - 30408704 / 1.05e9) < 1e-9, o
" "$T_DIR/miss.s.json"
check "  the table's cell: 29.0 MiB (7 of 8 calls)" \
    grep -q '>29.0 MiB (7 of 8 calls)</td>' "$T_DIR/miss.html"
check "  the note beside it and the terminal: 7 of 8 sized, rates over them" \
    sh -c 'for f in "$@"; do grep -q "gloo:all_reduce: 7 of its 8 calls have a size in the trace (29.0 MiB in all). The bandwidth columns are over the 7 calls both sized and timed (1050.0 ms of the 1200.0 ms)" "$f" || exit 1; done' \
    _ "$T_DIR/miss.html" "$T_DIR/miss.term"
gen "$T_DIR/all.json" 150 150
"$PR_BIN" -q --input "$T_DIR/all.json" --json "$T_DIR/all.s.json"
check "every call sized: no sized_note" \
    test "$(op "$T_DIR/all.s.json" sized_note)" = "None"

if shared_report cpu hta/cpu_only; then
    text "$T_DIR/cpu.json" > "$T_DIR/cpu.txt"
    check "cpu_only: 1.23 MiB and 7.94 MiB buckets take the same time" \
        grep -q "calls of 1.23 MiB take .* calls of 7.94 MiB take" \
        "$T_DIR/cpu.txt"
    check "cpu_only: time does not grow with size, no GLOO_SOCKET_IFNAME" \
        sh -c "grep -q 'Time does not grow' '$T_DIR/cpu.txt' &&
               ! grep -q GLOO_SOCKET_IFNAME '$T_DIR/cpu.txt'"
    check "cpu_only: no device work, so Gloo, not NCCL (issue #28 #4)" \
        sh -c "grep -q 'The trace records no device work, so these collectives move host tensors' '$T_DIR/cpu.txt' &&
               ! grep -q 'the NCCL backend' '$T_DIR/cpu.txt'"
    check "cpu_only: a ring over its 300 ranks" \
        grep -q "over 300 ranks passes each call through 598 hops" \
        "$T_DIR/cpu.txt"
else
    skip "cpu_only" "no ../shared/traces/hta/cpu_only"
fi

# trace_diff test: 3 of 21 nccl:all_reduce are kernels without their host
# call, so unsized; the other 18 carry Input Dims, 1,200,223,224 bytes
# (as trace_diff control's 18), their kernels 80.48 ms: 14.9 GB/s, where
# the reports showed none (review 22g #4)
if shared_report dt hta/trace_diff/test; then
    check "trace_diff test: all_reduce 18 of 21 sized, 14.9 GB/s over them" \
        python3 - "$T_DIR/dt.json" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = [o for o in d["runs"][0]["communication"]["ops"]
     if o["name"] == "nccl:all_reduce"][0]
assert o["total_bytes"] is None and o["calls"] == 21, o
assert (o["sized_calls"], o["sized_bytes"], o["bw_calls"]) == \
    (18, 1200223224, 18), o
assert abs(o["bw_us"] - 80480) < 1 and abs(o["algbw_gbps"] - 14.913) < 0.01, o
assert o["sized_note"].startswith("nccl:all_reduce: 18 of its 21 calls "
                                  "have a size in the trace (1.12 GiB in "
                                  "all); 3 are kernels whose host calls"), o
c = [c for c in d["distributed"]["comm_ops"] if c["name"] == o["name"]][0]
assert abs(c["algbw_gbps"] - o["algbw_gbps"]) < 1e-9, c
assert (c["sized_calls"], c["bw_calls"]) == (18, 18), c
PY
    check "trace_diff test: the table's cell 1.12 GiB (18 of 21 calls)" \
        grep -q '>1.12 GiB (18 of 21 calls)</td>' "$T_DIR/dt.html"
else
    skip "trace_diff test" "no ../shared/traces/hta/trace_diff/test"
fi
echo "1..$T_N"
