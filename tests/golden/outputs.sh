#!/bin/sh
# outputs.sh MODE BIN SHARED GOLDEN - the golden outputs of the real traces
# (issues #10 and #34): for every trace in the list below, run the full job
# (--json --html --pdf) with SOURCE_DATE_EPOCH set and compare a readable
# digest of each output (digest.py: the summary as key paths, the HTML by
# section, the PDF as pdftotext pages) with GOLDEN/<case>.<kind>.txt.  A
# change prints the diff of what changed.  MODE "check" prints TAP; MODE
# "update" rewrites the expected files (`make update-golden`; read the diff
# and say why in the commit that changes them).
set -u
mode=$1 bin=$2 shared=$3 golden=$4
here=$(cd "$(dirname "$0")" && pwd)
LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=1700000000
export LC_ALL TZ SOURCE_DATE_EPOCH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
if ! command -v python3 >/dev/null 2>&1; then
    echo "ok 1 # SKIP golden outputs: python3 is needed for the digests"
    echo "1..1"
    exit 0
fi
have_pdftotext=1
command -v pdftotext >/dev/null 2>&1 || have_pdftotext=0
[ "$mode" = update ] && rm -f "$golden"/*.sha256

# compare NAME KIND... - digest $tmp/o.KIND for each KIND, then check or
# update $golden/NAME.KIND.txt; prints one TAP line for the case.
compare() {
    name=$1
    shift
    changed=""
    for kind in "$@"; do
        case $kind in
        json | html) how=$kind ;;
        pdf) how=pdf; [ "$have_pdftotext" = 1 ] || continue ;;
        *) how=text ;;
        esac
        want=$golden/$name.$kind.txt
        if ! python3 "$here/digest.py" "$how" "$tmp/o.$kind" > "$tmp/d.$kind" 2> "$tmp/derr"; then
            changed="$changed $kind(unreadable: $(head -c 200 "$tmp/derr"))"
            continue
        fi
        if [ "$mode" = update ]; then
            cp "$tmp/d.$kind" "$want"
        elif ! diff -u "$want" "$tmp/d.$kind" > "$tmp/diff.$kind" 2>&1; then
            changed="$changed $kind"
        fi
    done
    if [ "$mode" = update ]; then
        echo "ok $n - $name: updated"
    elif [ -z "$changed" ]; then
        echo "ok $n - $name: $* as the golden digests"
    else
        echo "not ok $n - $name: changed:$changed (make update-golden)"
        for kind in "$@"; do
            [ -s "$tmp/diff.$kind" ] || continue
            head -n 40 "$tmp/diff.$kind" | sed 's/^/#   /'
        done
    fi
    rm -f "$tmp"/diff.* "$tmp"/d.*
}

# case-name  input (relative to $shared/traces, as given on the command line)
while read -r name input; do
    [ -n "$name" ] || continue
    n=$((n + 1))
    rm -f "$tmp"/o.*
    if ! (cd "$shared/traces" && "$bin" --quiet --input "$input" \
            --json "$tmp/o.json" --html "$tmp/o.html" --pdf "$tmp/o.pdf") \
            2> "$tmp/err"; then
        echo "not ok $n - $name: exit $? ($(head -c 200 "$tmp/err"))"
        continue
    fi
    compare "$name" json html pdf
    # every key of the summary is a row of schema.def (issue #34)
    n=$((n + 1))
    if bad=$(python3 "$here/schema.py" json "$here/../../src/summary/schema.def" \
            "$here/../../include/profreport/keys.h" "$tmp/o.json" 2>&1); then
        echo "ok $n - $name: every key a row of schema.def"
    else
        echo "not ok $n - $name: keys outside schema.def"
        echo "$bad" | head -n 20 | sed 's/^/#   /'
    fi
done <<'LIST'
tb_plugin-resnet50 tb_plugin/resnet50_num_workers_0
hta-call_stack hta/call_stack/backward_thread.json
hta-cpu_only hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz
hta-alexnet hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz
hta-event_sync hta/critical_path/cuda_event_sync/event_sync_trace.json.gz
hta-event_sync_multi hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz
hta-simple_add hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
hta-df_index_resolver hta/df_index_resolver/df_index_resolver.json.gz
hta-nccl hta/nccl_parser_config/nccl_data.json.gz
hta-rank_non_gpu hta/rank_non_gpu/rank_non_gpu.json.gz
hta-memory_timeline hta/memory_analysis/memory_timeline.raw.gz
hta-trace_filter hta/trace_filter
hta-trace_diff_control hta/trace_diff/control/control.json.gz
hta-trace_diff_test hta/trace_diff/test/test.json.gz
hta-inference hta/trace_file_list/inference_rank_1.json.gz
torch_npu-trace_view msprof/torch_npu_ascend_profiler_output/trace_view.json
nsys-mock nsys/mock.sqlite
nsys-mfu_2gpu_before nsys/mfu_2gpu_before.sqlite
LIST
# The diff and trend reports of real traces (case-name, then the
# subcommand's arguments): their tables are built once (src/diff/tables.c)
# and laid out three times, so all three outputs are pinned.
while read -r name args; do
    [ -n "$name" ] || continue
    n=$((n + 1))
    rm -f "$tmp"/o.*
    # shellcheck disable=SC2086 # args are words
    (cd "$shared/traces" && "$bin" $args --quiet --json "$tmp/o.json" \
        --markdown "$tmp/o.md" --html "$tmp/o.html" --pdf "$tmp/o.pdf") \
        2> "$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
        echo "not ok $n - $name: exit $rc ($(head -c 200 "$tmp/err"))"
        continue
    fi
    compare "$name" json md html pdf
done <<'LIST'
diff-trace_diff diff -b hta/trace_diff/control/control.json.gz -i hta/trace_diff/test/test.json.gz
trend-trace_diff trend --keep-order -i hta/trace_diff/control/control.json.gz hta/trace_diff/test/test.json.gz hta/trace_diff/control/control.json.gz
LIST
echo "1..$n"
