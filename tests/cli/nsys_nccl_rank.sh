#!/bin/sh
# nsys_nccl_rank.sh - issue #29: an Nsight Systems export of a DDP job
# (CS336's 2-GPU export, ddp53) gave its two processes no rank
# ("gpu0 pid 13096", rank null) though NCCL's NVTX range
# ncclCommInitRankConfig carries {"No. of ranks": 2, "Rank": 1, ...} as its
# payload, which nsys exports as NVTX_EVENTS.jsonText.  Each process's rank
# is its rank in the largest communicator it joins, and that one's size the
# world (runs[].world_size_source "ncclCommInitRank").
# tests/data/nsys/basic.sql's two processes with payloads added:
#  pid 100 (device 0) joins a 1-rank communicator (rank 0) and the 2-rank
#     one as rank 1: rank 1, not its device's number;
#  pid 200 (device 1) joins the 2-rank one as rank 0;
# an export without the column, a payload that is no JSON and one whose
# rank is out of its size give no rank; a process that joins two
# communicators of the largest size as different ranks gets none.  The
# review of it: the job's note named a Late rank no GPU job has, and
# no_comm_bytes said "the export records no message sizes" beside NCCL
# ranges whose payloads give them: each NCCL kernel now takes the message
# size of the call range it was launched in.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "nsys NCCL ranks" "no python3"
    echo "1..$T_N"
    exit 0
fi

# export_db NAME [PAYLOAD-ROWS [GATHER]]: basic.sql, with NVTX_EVENTS.jsonText
# and the NCCL ranges given as "pid tid range-name json" lines, or "none"
# for an export without the column; a communicator's at [100, 900] ns, a
# call's at [2500, 4500], around pid 200's launch of its NCCL kernel
# (3000 ns, thread 201); GATHER: that kernel an AllGather's
export_db() {
    python3 - "$PR_SRCDIR/tests/data/nsys/basic.sql" "$T_DIR/$1.sqlite" "$2" \
        "${3:-}" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
if sys.argv[4]:
    db.execute("UPDATE StringIds SET value = replace(value, 'AllReduce', "
               "'AllGather') WHERE id IN (10, 11)")
# the NCCL kernel on both ranks (basic.sql runs it on pid 200 only), so
# the job's kernels across ranks hold a collective of two ranks
db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT start + 100000, "
           "end + 100000, 0, contextId, 7, 99, (1 << 48) | (100 << 24), "
           "demangledName, shortName, registersPerThread, gridX, gridY, "
           "gridZ, blockX, blockY, blockZ, staticSharedMemory, "
           "dynamicSharedMemory, graphNodeId, graphId "
           "FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE shortName = 11")
if sys.argv[3] != "none":
    db.execute("ALTER TABLE NVTX_EVENTS ADD COLUMN jsonText TEXT")
    for line in sys.argv[3].split("\n"):
        if not line.strip():
            continue
        pid, tid, name, js = line.split(" ", 3)
        gtid = (1 << 48) | (int(pid) << 24) | int(tid)
        at = (100, 900) if name.startswith("ncclComm") else (2500, 4500)
        db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
                   "globalTid, domainId, jsonText) VALUES (?, ?, 59, "
                   "?, ?, 1, ?)", at + (name, gtid, js))
db.commit()
PY
    "$PR_BIN" -q --input "$T_DIR/$1.sqlite" --json "$T_DIR/$1.json" \
        2> "$T_DIR/$1.err"
}

# ranks NAME: "rank/world/source" of each run, in runs[] order
ranks() {
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
print(' '.join('%s/%s/%s' % (r.get('rank'), r.get('world_size'),
                             r.get('world_size_source')) for r in s['runs']))
" "$T_DIR/$1.json"
}

export_db ddp '100 100 ncclCommInitRankConfig {"NCCL communicator ID": 7, "No. of ranks": 1, "Rank": 0, "CUDA device": 0}
100 100 ncclCommInitRankConfig {"NCCL communicator ID": 9, "No. of ranks": 2, "Rank": 1, "CUDA device": 0}
200 201 ncclCommInitRankConfig {"NCCL communicator ID": 9, "No. of ranks": 2, "Rank": 0, "CUDA device": 1}
200 201 ncclAllReduce {"NCCL communicator ID": 9, "Message size [bytes]": 4096, "Reduction operation": "Sum"}
100 100 ncclAllReduce {"NCCL communicator ID": 9, "Message size [bytes]": 4096, "Reduction operation": "Sum"}'
check "exit 0" [ $? -eq 0 ]
check "each process's rank in the largest communicator, its size the world" \
    [ "$(ranks ddp)" = "1/2/ncclCommInitRank 0/2/ncclCommInitRank" ]
check "  the job: world 2, both ranks here" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['distributed']
assert d['world_size'] == 2 and d['world_size_source'] == 'ncclCommInitRank', d
assert d['ranks_present'] == 2 and d['ranks_complete'] is True, d
assert sorted(w['rank'] for w in d['workers']) == [0, 1], d['workers']
" "$T_DIR/ddp.json"
"$PR_BIN" -q --input "$T_DIR/ddp.sqlite" --html "$T_DIR/ddp.html" 2> /dev/null
check "  its job's note names no Late rank, which only HCCL's waits give" \
    sh -c "grep -q 'often the one on time, not on a slow rank.</p>' '$T_DIR/ddp.html' &&
           ! grep -q 'Late rank above' '$T_DIR/ddp.html'"

# the job's collectives table sums the ranks' calls (222 broadcast calls
# in ddp53 were 111 a rank): its caption says so where there are several
if [ -e "$PR_SHARED/traces/hta/trace_filter" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/hta/trace_filter" \
        --html "$T_DIR/tf.html" 2> /dev/null
    check "a 2-rank job's collectives: every rank's calls summed, said" \
        grep -q "By total time; every rank&#39;s calls summed." "$T_DIR/tf.html"
else
    skip "trace_filter's collectives" "no ../shared"
fi

export_db old none
check "an export without jsonText: no rank" \
    [ "$(ranks old)" = "None/None/None None/None/None" ]

# the NCCL kernels' sizes (issue #29 review: "the export records no
# message sizes" beside 230 ncclAllReduce/ncclBroadcast ranges a rank
# whose payloads give them): pid 200's kernel, launched inside its
# ncclAllReduce range, takes its 4096 bytes; pid 100's copy of it, with no
# launch in its range, stays unsized, and its no_comm_bytes row says why
check "NCCL kernel: the call range's message size, its bandwidth over it" \
    python3 - "$T_DIR/ddp.json" << 'PY'
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
r = {x['worker']: x for x in runs}
o = r['gpu1 pid 200']['communication']['ops'][0]
assert o['name'] == 'nccl:all_reduce' and o['total_bytes'] == 4096, o
# 4096 B in 20 us: 0.2048 GB/s; busbw = algbw * 2(n-1)/n = algbw for 2
assert abs(o['algbw_gbps'] - 0.2048) < 1e-9, o
assert abs(o['busbw_gbps'] - 0.2048) < 1e-9, o
d = [x for x in r['gpu1 pid 200']['diagnostics'] or []
     if x['kind'] == 'no_comm_bytes']
assert d == [], d
d = [x for x in r['gpu0 pid 100']['diagnostics'] or []
     if x['kind'] == 'no_comm_bytes'][0]
assert d['count'] == 1 and 'whose launch lies in no NCCL call range' in \
    d['text'], d
PY
check "  without payloads: the export records none" python3 - "$T_DIR/old.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][1]
d = [x for x in r['diagnostics'] or [] if x['kind'] == 'no_comm_bytes'][0]
assert 'the export records no message sizes' in d['text'], d
PY
# AllGather's payload is one rank's share (NCCL's collectives.cc:
# sendcount * type size): the gathered output, nccl-tests' size, is it
# times the communicator's ranks
export_db gather '100 100 ncclCommInitRankConfig {"NCCL communicator ID": 9, "No. of ranks": 2, "Rank": 1}
200 201 ncclCommInitRankConfig {"NCCL communicator ID": 9, "No. of ranks": 2, "Rank": 0}
200 201 ncclAllGather {"NCCL communicator ID": 9, "Message size [bytes]": 4096}' gather
check "AllGather: its gathered size, the message times the ranks" \
    python3 - "$T_DIR/gather.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][1]
o = r['communication']['ops'][0]
assert o['name'] == 'nccl:all_gather' and o['total_bytes'] == 8192, o
PY

export_db bad '100 100 ncclCommInitRankConfig {"No. of ranks": 2, "Rank": 
100 100 ncclCommInitRankConfig {"No. of ranks": 2, "Rank": 2}
200 201 ncclCommInitRankConfig [1, 2]'
check "a payload that is no JSON, a rank past its size, an array: no rank, exit $?" \
    [ "$(ranks bad)" = "None/None/None None/None/None" ]

export_db clash '100 100 ncclCommInitRankConfig {"No. of ranks": 2, "Rank": 0}
100 100 ncclCommInitRankConfig {"No. of ranks": 2, "Rank": 1}
200 201 ncclCommInitRankConfig {"No. of ranks": 2, "Rank": 1}'
check "two communicators of the largest size, different ranks: none" \
    [ "$(ranks clash)" = "None/None/None 1/2/ncclCommInitRank" ]

echo "1..$T_N"
