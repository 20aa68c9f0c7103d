#!/usr/bin/env python3
"""gen_rank_traces.py - a many-rank job of real traces, for timing the job
report of issue #33 (bench/job.sh, bench/RESULTS.md).  Same arguments, same
bytes.

    bench/gen_rank_traces.py [--gzip] [--straggler R] [--slowdown F]
                             RANKS OUTDIR SAMPLE.json[.gz] [SAMPLE ...]

Rank r is SAMPLE number r mod (number of samples), e.g. HTA's
trace_filter/sampled_rank-0 and -1 (two real ranks of a 128-rank PyTorch
job, 1.7 MB each), written as OUTDIR/rankNNNN.1682725897226.pt.trace.json
(the TensorBoard plugin's <worker>.<span> names) with distributedInfo's
rank r and world size RANKS.  Every event's start (from the trace's first
event) and duration are stretched by a deterministic factor in
[1.00, 1.02), so that the ranks differ a little and the job has a median;
rank --straggler (default RANKS * 3 / 4 + 1) is stretched by --slowdown
(default 1.4) instead: the straggler the job view must find.  Everything
else is the sample's, so each file has the size and shape of a real rank.
"""
import argparse
import gzip
import json
import os
import sys


def stretch(events, f):
    t0 = min((e["ts"] for e in events if isinstance(e.get("ts"), (int, float))),
             default=0)
    out = []
    for e in events:
        e = dict(e)
        ts = e.get("ts")
        if isinstance(ts, (int, float)) and f != 1.0:
            # whole microseconds stay whole, as Kineto writes them
            v = t0 + (ts - t0) * f
            e["ts"] = round(v) if isinstance(ts, int) else round(v, 3)
        d = e.get("dur")
        if isinstance(d, (int, float)) and f != 1.0:
            e["dur"] = round(d * f) if isinstance(d, int) else round(d * f, 3)
        out.append(e)
    return out


def factor(r, straggler, slowdown):
    if r == straggler:
        return slowdown
    return 1.0 + 0.02 * ((r * 37) % 101) / 101.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gzip", action="store_true", help="write .json.gz")
    ap.add_argument("--straggler", type=int, default=None)
    ap.add_argument("--slowdown", type=float, default=1.4)
    ap.add_argument("ranks", type=int)
    ap.add_argument("outdir")
    ap.add_argument("samples", nargs="+")
    a = ap.parse_args()
    if a.ranks < 2:
        sys.exit("gen_rank_traces.py: RANKS must be 2 or more")
    straggler = a.straggler if a.straggler is not None else a.ranks * 3 // 4 + 1
    bases = []
    for p in a.samples:
        op = gzip.open if p.endswith(".gz") else open
        with op(p, "rt") as f:
            bases.append(json.load(f))
    os.makedirs(a.outdir, exist_ok=True)
    for r in range(a.ranks):
        base = bases[r % len(bases)]
        doc = {k: v for k, v in base.items() if k != "traceEvents"}
        di = dict(doc.get("distributedInfo") or {})
        di["rank"] = r
        di["world_size"] = a.ranks
        doc["distributedInfo"] = di
        doc["traceEvents"] = stretch(base["traceEvents"],
                                     factor(r, straggler, a.slowdown))
        name = "rank%04d.1682725897226.pt.trace.json" % r
        path = os.path.join(a.outdir, name + (".gz" if a.gzip else ""))
        tmp = path + ".tmp"
        if a.gzip:
            with open(tmp, "wb") as raw:
                with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6,
                                   mtime=0) as f:
                    f.write(json.dumps(doc).encode())
        else:
            with open(tmp, "w") as f:
                json.dump(doc, f)
        os.replace(tmp, path)
    print("%d ranks in %s, rank %d slowed %.2fx" %
          (a.ranks, a.outdir, straggler, a.slowdown), file=sys.stderr)


if __name__ == "__main__":
    main()
