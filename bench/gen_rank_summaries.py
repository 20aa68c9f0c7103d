#!/usr/bin/env python3
"""gen_rank_summaries.py - many per-rank saved summaries from one real one,
for timing the merge of a large job (`profreport --input rank*.summary.json`,
issue #17; bench/RESULTS.md).  Same arguments, same bytes.

    bench/gen_rank_summaries.py SUMMARY.json RANKS OUTDIR

SUMMARY.json is a summary written by `profreport --json` from one rank's
trace (e.g. hta/trace_filter/sampled_rank-0).  Rank r gets worker
"rankNNNN", rank r, world size RANKS, and its step times (steps and
step_summary) scaled by a deterministic factor in [1.00, 1.05), so that
the job has a slowest and a median rank; everything else is the real
rank's, so each file has the size and shape of a real summary.
"""
import copy
import json
import os
import sys

STEP_KEYS = ("mean_us", "median_us", "p90_us", "min_us", "max_us")


def scale(x, f):
    return x * f if isinstance(x, (int, float)) else x


def for_rank(base, r, ranks):
    s = copy.deepcopy(base)
    f = 1.0 + 0.05 * ((r * 37) % 101) / 101.0
    name = "rank%04d" % r
    for inp in s.get("inputs", []):
        inp["worker"] = name
        inp["path"] = name + ".pt.trace.json.gz"
    for run in s["runs"]:
        run["worker"] = name
        run["rank"] = r
        run["world_size"] = ranks
        for st in run.get("steps") or []:
            st["duration_us"] = scale(st.get("duration_us"), f)
        ss = run.get("step_summary") or {}
        for k in STEP_KEYS:
            if k in ss:
                ss[k] = scale(ss[k], f)
    return s


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen_rank_summaries.py SUMMARY.json RANKS OUTDIR")
    with open(sys.argv[1]) as f:
        base = json.load(f)
    ranks = int(sys.argv[2])
    os.makedirs(sys.argv[3], exist_ok=True)
    for r in range(ranks):
        path = os.path.join(sys.argv[3], "rank%04d.summary.json" % r)
        with open(path, "w") as f:
            json.dump(for_rank(base, r, ranks), f, indent="\t")
            f.write("\n")


if __name__ == "__main__":
    main()
