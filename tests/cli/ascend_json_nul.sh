#!/bin/sh
# ascend_json_nul.sh - NUL in the small Ascend JSON files (issue #35, as
# json_nul.sh for the trace readers): a raw NUL byte, which JSON text never
# holds, or a \u0000 escape in a string, which cJSON would cut a name at
# (a group "default_group\u0000x" read as the world's), in profiler_info,
# profiler_metadata.json, communication.json, communication_matrix.json or
# the database's META_DATA parallel_group_info: exit 2, a message naming
# the file (or table) and the byte, no output.  An escaped backslash before
# "u0000" is no NUL and is read.  Inputs: copies of the repository's pp4
# fixture (rank 0) and, where ../shared is present, of torch_npu/db_level1.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "NUL in Ascend JSON" "python3 is needed to build the inputs"
    echo "1..$T_N"
    exit 0
fi
F=$PR_SRCDIR/tests/data/ascend/pp4/rank0_ascend_pt

# edit FILE OLD NEW: FILE with OLD replaced by NEW (bytes, once); prints
# the offset of the first NUL byte or backslash-u0000 escape in it
edit() {
    python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
t = open(path, "rb").read()
old = old.encode().decode('unicode_escape').encode('latin-1')
new = new.encode().decode('unicode_escape').encode('latin-1')
assert old in t, old
t = t.replace(old, new, 1)
open(path, "wb").write(t)
raw, esc = t.find(b"\0"), t.find(b"\\u0000")
print(min(x for x in (raw, esc) if x >= 0))
PY
}

# refused NAME WHERE BYTE: the run of $T_DIR/r exits 2 naming WHERE and
# the byte, and writes nothing
refused() {
    rm -f "$T_DIR/o.json"
    "$PR_BIN" -q --input "$T_DIR/r" --json "$T_DIR/o.json" 2> "$T_DIR/err"
    rc=$?
    check "$1: exit 2 ($rc)" [ $rc -eq 2 ]
    check "  names $2 and byte $3 ($(head -c 200 "$T_DIR/err"))" \
        grep -q "$2: byte $3: .*NUL" "$T_DIR/err"
    check "  no output" [ ! -e "$T_DIR/o.json" ]
}

fresh() {
    rm -rf "$T_DIR/r" && mkdir -p "$T_DIR/r" && cp -R "$F" "$T_DIR/r/"
}
R=$T_DIR/r/rank0_ascend_pt
O=$R/ASCEND_PROFILER_OUTPUT

fresh
"$PR_BIN" -q --input "$T_DIR/r" --json "$T_DIR/o.json"
check "the fixture as written: read (exit $?)" [ -s "$T_DIR/o.json" ]

fresh
at=$(edit "$R/profiler_info_0.json" '"Level1"' '"Level1\\u0000x"')
refused "profiler_info: a \\u0000 escape" "profiler_info_0.json" "$at"

fresh
at=$(edit "$O/communication.json" '"p2p"' '"p2p\x00"')
refused "communication.json: a NUL byte" "communication.json" "$at"

fresh
at=$(edit "$O/communication_matrix.json" '"Transport Type"' '"Transport\\u0000Type"')
refused "communication_matrix.json: a \\u0000 escape in a key" \
    "communication_matrix.json" "$at"

fresh
python3 - "$R/profiler_info_0.json" <<'PY'
import json, sys
p = sys.argv[1]
o = json.load(open(p))
o.pop("world_size", None)
json.dump(o, open(p, "w"))
PY
printf '%s' '{"parallel_group_info": {"g0": {"group_name": "default_group\u0000x", "global_ranks": [0, 1]}}}' \
    > "$R/profiler_metadata.json"
at=$(python3 -c "import sys; print(open(sys.argv[1],'rb').read().find(b'\\\\u0000'))" "$R/profiler_metadata.json")
refused "profiler_metadata.json: a world group named with \\u0000" \
    "profiler_metadata.json" "$at"

fresh
edit "$O/communication.json" '"p2p"' '"p2p\\\\u0000"' > /dev/null
"$PR_BIN" -q --input "$T_DIR/r" --json "$T_DIR/o.json" 2> "$T_DIR/err"
check "an escaped backslash before u0000 is no NUL: read (exit $?)" \
    [ -s "$T_DIR/o.json" ]

D=${PR_SHARED:-}/traces/torch_npu/db_level1/rank0_ascend_pt
if have_shared && [ -d "$D" ]; then
    rm -rf "$T_DIR/r" && mkdir -p "$T_DIR/r" && cp -R "$D" "$T_DIR/r/"
    python3 - "$T_DIR/r/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO META_DATA (name, value) VALUES ('parallel_group_info', ?)",
          ('{"g0": {"group_name": "default_group\\u0000x", "global_ranks": [0, 1]}}',))
c.commit()
PY
    at=$(python3 -c "print('{\"g0\": {\"group_name\": \"default_group'.__len__())")
    refused "database META_DATA parallel_group_info: a \\u0000 escape" \
        "META_DATA parallel_group_info" "$at"
else
    skip "database META_DATA with a NUL" "no $D"
fi

echo "1..$T_N"
