#!/bin/sh
# host_times.sh - producers that record no host timing (legacy MindSpore
# Ascend folders, msprof PROF_* folders: operators made from device tasks)
# show their host columns as unknown (null, "-"), never as 0; producers
# that do record host time keep their numbers; a producer that records
# device tasks for only some steps is told apart (device_coverage).
# ../shared/traces samples.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "host times" "no ../shared/traces or no python3"
    echo "1..$T_N"
    exit 0
fi

# host_of DIR: "null N", "zero N" or "numbers N" over the first run's
# operators, N = how many operators
host_of() {
    "$PR_BIN" -q --input "$1" --json "$T_DIR/h.json" 2> /dev/null || {
        echo "failed"
        return
    }
    python3 - "$T_DIR/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ops = d["runs"][0]["operators"]
h = [o["host_self_us"] for o in ops] + [o["host_total_us"] for o in ops]
job = [o.get("mean_host_self_us", "absent") for o in (d.get("job") or {}).get("operators", [])]
if all(x is None for x in h) and all(x is None for x in job):
    print("null", len(ops))
elif any(x == 0 for x in h) and not any(x for x in h):
    print("zero", len(ops))
else:
    print("numbers", len(ops))
PY
}

S=$PR_SHARED/traces
for d in mindspore/ascend_run1 msprof/mindinsight_cann6_PROF; do
    if [ -d "$S/$d" ]; then
        r=$(host_of "$S/$d")
        check "$d: no host timing, host columns null ($r)" \
            sh -c "case '$r' in 'null '[1-9]*) true;; *) false;; esac"
    else
        skip "$d: no host timing, host columns null" "no $S/$d"
    fi
done
for d in torch_npu/text_level0 tb_plugin/resnet50_num_workers_0; do
    if [ -d "$S/$d" ]; then
        r=$(host_of "$S/$d")
        check "$d: host times kept ($r)" \
            sh -c "case '$r' in 'numbers '[1-9]*) true;; *) false;; esac"
    else
        skip "$d: host times kept" "no $S/$d"
    fi
done

# device tasks for only the first steps: said, with the steps they cover
if [ -d "$S/mindspore/ascend_run1" ] && [ -d "$S/tb_plugin/resnet50_num_workers_0" ]; then
    "$PR_BIN" -q --input "$S/mindspore/ascend_run1" --json "$T_DIR/c.json" --html "$T_DIR/c.html"
    cov() {
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
print(' '.join('%d:%s' % (x['count'], x['text'][:36]) for x in r['diagnostics'] if x['kind'] == 'device_coverage'))" "$1"
    }
    c=$(cov "$T_DIR/c.json")
    check "MindSpore capped timeline: device_coverage note ($c)" \
        [ "$c" = "307:307 of 321 steps have no device task" ]
    check "  shown in the report" grep -q "307 of 321 steps have no device tasks: device activity covers steps 1 to 14" "$T_DIR/c.html"
    "$PR_BIN" -q --input "$S/tb_plugin/resnet50_num_workers_0" --json "$T_DIR/t.json"
    check "device time in every step: no device_coverage note" [ -z "$(cov "$T_DIR/t.json")" ]
fi

# the terminal table prints "-" for the unknown host times
if [ -d "$S/mindspore/ascend_run1" ]; then
    "$PR_BIN" table --kind operators --input "$S/mindspore/ascend_run1" \
        > "$T_DIR/t.txt" 2> /dev/null
    check "table: unknown host self is '-'" \
        sh -c "awk 'NR==2' '$T_DIR/t.txt' | grep -q ' - '"
fi

echo "1..$T_N"
