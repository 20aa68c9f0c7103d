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

gen "$T_DIR/miss.json" 150 150 unsized
"$PR_BIN" -q --input "$T_DIR/miss.json" --json "$T_DIR/miss.s.json"
for k in total_bytes algbw_gbps busbw_gbps wall_us wall_gbps small_calls; do
    check "one call unsized: $k null" \
        test "$(op "$T_DIR/miss.s.json" $k)" = "None"
done

if shared_report cpu hta/cpu_only; then
    text "$T_DIR/cpu.json" > "$T_DIR/cpu.txt"
    check "cpu_only: 1.23 MiB and 7.94 MiB buckets take the same time" \
        grep -q "calls of 1.23 MiB take .* calls of 7.94 MiB take" \
        "$T_DIR/cpu.txt"
    check "cpu_only: time does not grow with size, no GLOO_SOCKET_IFNAME" \
        sh -c "grep -q 'Time does not grow' '$T_DIR/cpu.txt' &&
               ! grep -q GLOO_SOCKET_IFNAME '$T_DIR/cpu.txt'"
    check "cpu_only: a ring over its 300 ranks" \
        grep -q "over 300 ranks passes each call through 598 hops" \
        "$T_DIR/cpu.txt"
else
    skip "cpu_only" "no ../shared/traces/hta/cpu_only"
fi

# trace_diff test: 3 of 21 nccl:all_reduce carry no sizes, so the JSON
# gives no rate, as the HTML's table (distributed.comm_ops)
if shared_report dt hta/trace_diff/test; then
    check "trace_diff test: all_reduce algbw and wall null, as comm_ops" \
        python3 - "$T_DIR/dt.json" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    for o in r["communication"]["ops"]:
        if o["total_bytes"] is None:
            assert o["algbw_gbps"] is None and o["wall_us"] is None, o
for o in d["distributed"]["comm_ops"]:
    run = [x for r in d["runs"] for x in r["communication"]["ops"]
           if x["name"] == o["name"]]
    assert (o["algbw_gbps"] is None) == all(x["algbw_gbps"] is None
                                            for x in run), o
PY
else
    skip "trace_diff test" "no ../shared/traces/hta/trace_diff/test"
fi
echo "1..$T_N"
