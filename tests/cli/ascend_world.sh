#!/bin/sh
# ascend_world.sh - issues #13 and #30: the world size of a torch_npu
# CSV/JSON run.  The real samples' profiler_info has none; their
# communication groups (communication_matrix.json) are the world's lower
# bound, as the database reader counts its tasks' ranks: one more than the
# highest rank a link names (text_level1: 8; old2023's rank 0: 9), said
# to come from the groups and to be a lower bound (world_size_bound
# "at_least"), never the number of ranks read: one rank alone is a job of
# at least that many (distributed.world_size_at_least).  Newer
# torch_npu writes parallel_group_info into profiler_metadata.json: given
# one beside text_level1's rank 0 (its files linked into a folder here),
# the world group's ranks are the world size, and the summary says the
# job has ranks the report does not hold.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces/torch_npu
if ! have_shared || [ ! -d "$S/text_level1/rank0_ascend_pt" ] ||
    ! command -v python3 > /dev/null 2>&1; then
    skip "Ascend world size" "no $S or no python3"
    echo "1..$T_N"
    exit 0
fi

# world NAME.json: "rank world_size distributed.world_size
# distributed.world_size_at_least source bound"
world() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
o = d.get("distributed") or {}
print(r["rank"], r["world_size"], o.get("world_size"),
      o.get("world_size_at_least"), r["world_size_source"],
      r["world_size_bound"])
' "$1"
}

# the highest rank a link of communication_matrix.json names, plus one
top() {
    python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/ASCEND_PROFILER_OUTPUT/communication_matrix.json"))
print(1 + max(int(x) for st in m.values() for kind in st.values()
              for op, links in kind.items() if op != "Total Op Info"
              for l in links for x in l.split("-")))
' "$1"
}

for in in "$S/text_level1/rank0_ascend_pt" "$S/old2023/test_rank_0"; do
    name=$(basename "$(dirname "$in")")
    "$PR_BIN" -q --input "$in" --json "$T_DIR/$name.json"
    check "$name: exit 0" [ $? -eq 0 ]
    n=$(top "$in")
    check "$name: the largest group's $n ranks, the groups' lower bound" \
        [ "$(world "$T_DIR/$name.json")" = "0 $n None $n communication groups at_least" ]
done

r=$T_DIR/rank0_ascend_pt
mkdir -p "$r"
ln -s "$S/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT" "$r/"
ln -s "$S/text_level1/rank0_ascend_pt/profiler_info_0.json" "$r/"
cat > "$r/profiler_metadata.json" << 'JSON'
{
    "ENV_VARIABLES": {"HCCL_RDMA_TC": ""},
    "parallel_group_info": {
        "group_name_0": {"group_name": "default_group", "group_rank": 0,
                         "global_ranks": [0, 1, 2, 3, 4, 5, 6, 7]},
        "group_name_5": {"group_name": "dp", "group_rank": 0,
                         "global_ranks": [0, 2, 4, 6]}
    }
}
JSON
"$PR_BIN" -q --follow-links --input "$r" --json "$T_DIR/meta.json"
check "with parallel_group_info: exit 0" [ $? -eq 0 ]
check "with parallel_group_info: the world group's 8 ranks" \
    [ "$(world "$T_DIR/meta.json")" = "0 8 8 None parallel_group_info exact" ]
check "with parallel_group_info: the summary says 1 of 8 ranks is here" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["distributed"]
sys.exit(0 if d["ranks_present"] == 1 and d["coverage_note"] else 1)
' "$T_DIR/meta.json"

echo "1..$T_N"
