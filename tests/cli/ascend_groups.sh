#!/bin/sh
# ascend_groups.sh - an HCCL group's size from its members, and a world
# known only from communication groups said "at least" everywhere.
#  - tests/data/ascend/hccl_members: rank 3 of a ring all-reduce, its
#    communication_matrix.json links only to its neighbours 2 and 4 (so
#    the links say n >= 5), profiler_metadata.json's parallel_group_info
#    lists the group's 8 global_ranks.  175 MB sent in 2 ms, 0.5 ms of it
#    Transit: with n = 8 the message is 175 / 1.75 = 100 MB, algbw 200
#    GB/s, busbw 350 over the Transit Time (review32a #3); with
#    the links' n = 5 it would read 109.4 MB.  Without the metadata the
#    note says n is a lower bound and the bytes and algbw upper bounds.
#  - tests/data/ascend/world_groups: two ranks whose links agree on a
#    group of 8 (as npu_text1's): the world is the groups' 8, in the
#    JSON, the terminal, the HTML and the PDF alike.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "HCCL group sizes" "no python3"
    echo "1..$T_N"
    exit 0
fi

D=$PR_SRCDIR/tests/data/ascend
"$PR_BIN" -q --input "$D/hccl_members" --json "$T_DIR/m.json"
check "hccl_members: exit 0" [ $? -eq 0 ]
check "hccl_members: n from parallel_group_info's members, not the links" \
    python3 - "$T_DIR/m.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = {o["name"]: o for o in r["communication"]["ops"]}["hccl:all_reduce"]
assert o["group_size"] == 8, o
assert o["total_bytes"] == 100e6, o
assert abs(o["algbw_gbps"] - 200) < 1e-9 and abs(o["busbw_gbps"] - 350) < 1e-9, o
n = r["communication"]["note"]
assert "1.75 for n = 8" in n and "upper bounds" not in n, n
PY

mkdir -p "$T_DIR/nm"
cp -r "$D/hccl_members/rank3_ascend_pt" "$T_DIR/nm/"
chmod -R u+w "$T_DIR/nm"
rm -f "$T_DIR/nm/rank3_ascend_pt/profiler_metadata.json"
"$PR_BIN" -q --input "$T_DIR/nm" --json "$T_DIR/nm.json"
check "hccl_members without its metadata: n from the links is a lower bound" \
    python3 - "$T_DIR/nm.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = {o["name"]: o for o in r["communication"]["ops"]}["hccl:all_reduce"]
assert o["group_size"] == 5 and abs(o["busbw_gbps"] - 350) < 1e-9, o
n = r["communication"]["note"]
assert "the group has at least n ranks" in n, n
assert "the bytes and algbw shown are upper bounds" in n, n
assert "busbw, the link bytes over the time, holds for any n" in n, n
PY

W=$D/world_groups
"$PR_BIN" -q --input "$W" --json "$T_DIR/w.json" --html "$T_DIR/w.html" \
    --pdf "$T_DIR/w.pdf"
check "world_groups: exit 0" [ $? -eq 0 ]
"$PR_BIN" --input "$W" > "$T_DIR/w.term" 2> /dev/null
# the world from the groups (issue #30: "take it from the groups"): 8,
# said alike in the JSON, the terminal, the HTML and the PDF cover, the
# HTML adding that it is the largest group the files show
check "world_groups: the world is the groups' 8 in the JSON" \
    python3 - "$T_DIR/w.json" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for d in (s["distributed"], s["job"]):
    assert d["world_size"] == 8, d
# each rank's own figure is its groups' lower bound, the job's the ranks'
# agreed groups (issue #30)
for r in s["runs"]:
    assert (r["world_size"], r["world_size_bound"]) == (8, "at_least"), r
PY
check "world_groups: the terminal says 2 of 8" \
    grep -q "^job: 2 of 8 ranks are in this report" "$T_DIR/w.term"
check "world_groups: the HTML says 8, from the communication groups" \
    python3 - "$T_DIR/w.html" << 'PY'
import html, sys
t = html.unescape(open(sys.argv[1]).read())
assert "World size 8, from the communication groups" in t
assert "World size at least 8" not in t
PY

if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/w.pdf" "$T_DIR/w.txt"
    check "world_groups: the PDF cover says 8" \
        sh -c "grep -A2 -x 'World size' '$T_DIR/w.txt' | grep -q '^8'"
else
    skip "world_groups: the PDF's world size" "no pdftotext"
fi

echo "1..$T_N"
