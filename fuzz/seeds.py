#!/usr/bin/env python3
"""seeds.py SRCDIR SHARED OUT - the seed corpora of `make fuzz`, cut small
at run time from the repository's test data and ../shared/traces (nothing of
the shared traces is committed).

OUT/files   single inputs: traces, summaries, SQLite exports, CSV tables
OUT/folders run folders (torch_npu *_ascend_pt, msprof PROF_*, MindSpore,
            a TensorBoard run) in the "@@@ PATH" form of fuzz/fuzz_files.h
OUT/csv     CSV tables
OUT/tree    folders with links in and out, FIFOs and SQLite WAL pairs, in
            the "@@L"/"@@H"/"@@F" lines of fuzz/fuzz_tree.c

A trace keeps its metadata events and the events of one time window, grown
until the file reaches its budget, so kernels stay with their launches and
flows with their ends.  SQLite files keep their schema and a few rows of
every table.  Without SHARED only the repository's data is used."""
import gzip
import json
import os
import sqlite3
import sys
import tempfile

SINGLE_BUDGET = 48 << 10
MEMBER_BUDGET = 12 << 10
FOLDER_BUDGET = 120 << 10
MAX_MEMBERS = 32  # FUZZ_MAX_FILES in fuzz_files.h
SKIP = ("LICENSE", "NOTICE", "README")


def read_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            pass
    return data


def dump(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def trim(obj, n=6):
    """Lists cut to n items and objects to 4n keys, at every depth
    (metadata, summaries, communication tables)."""
    if isinstance(obj, list):
        return [trim(x, n) for x in obj[:n]]
    if isinstance(obj, dict):
        return {k: trim(v, n) for k, v in list(obj.items())[:4 * n]}
    return obj


def ts_of(e):
    t = e.get("ts") if isinstance(e, dict) else None
    try:
        return float(t)
    except (TypeError, ValueError):
        return None


def window(events, budget):
    """Metadata events and, from each process, the same number of events
    from a start on (the second profiler step, or the first event): device
    work often runs later than the host work that launched it, so one time
    window for all would hold the host alone.  As many as fit the budget."""
    meta = [e for e in events if isinstance(e, dict) and e.get("ph") == "M"]
    meta = meta[:150]  # process and thread names: small, and needed
    # counters come in dense runs that would fill a window alone
    meta += [e for e in events if isinstance(e, dict) and e.get("ph") == "C"][:10]
    timed = sorted((e for e in events if ts_of(e) is not None and
                    e.get("ph") not in ("M", "C")), key=ts_of)
    if not timed:
        return meta + events[:20]
    steps = [ts_of(e) for e in timed if "ProfilerStep" in str(e.get("name", ""))]
    t0 = steps[1] if len(steps) > 1 else ts_of(timed[0])
    by_pid = {}
    for e in timed:
        by_pid.setdefault(str(e.get("pid")), []).append(e)
    runs = []
    for evs in by_pid.values():
        start = next((i for i, e in enumerate(evs) if ts_of(e) >= t0), 0)
        runs.append(evs[start:] if start < len(evs) else evs)

    def pick(k):
        return meta + sorted((e for r in runs for e in r[:k]), key=ts_of)

    lo, hi = 1, max(len(r) for r in runs)
    while lo < hi:  # the most events per process that fit
        mid = (lo + hi + 1) // 2
        if len(dump(pick(mid))) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return pick(lo)


def cut_json(data, budget):
    try:
        obj = json.loads(data.decode("utf-8", "replace"))
    except ValueError:
        return data[:budget]
    if isinstance(obj, dict) and isinstance(obj.get("traceEvents"), list):
        rest = {k: trim(v) for k, v in obj.items() if k != "traceEvents"}
        if len(dump(rest)) > budget // 2:
            rest = {}
        out = dict(rest)
        out["traceEvents"] = window(obj["traceEvents"],
                                    budget - len(dump(rest)))
        return dump(out)
    if isinstance(obj, list) and obj and isinstance(obj[0], dict):
        return dump(window(obj, budget))
    if len(data) <= budget:
        return data
    for n in (6, 3, 1):
        out = dump(trim(obj, n))
        if len(out) <= budget:
            return out
    return out[:budget]


def cut_lines(data, budget):
    out = data[:budget]
    nl = out.rfind(b"\n")
    return out[:nl + 1] if nl > 0 and len(data) > budget else out


def cut_sqlite(path, rows=40):
    """The schema and the first rows of every table, in small pages."""
    fd, tmp = tempfile.mkstemp(suffix=".sqlite")
    os.close(fd)
    os.unlink(tmp)
    try:
        # immutable: a WAL-mode database opened read-only still gets
        # -wal and -shm files beside it wherever SQLite may write
        src = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
        dst = sqlite3.connect(tmp)
        dst.execute("PRAGMA page_size=512")
        dst.execute("PRAGMA journal_mode=DELETE")
        objs = src.execute("SELECT type, name, sql FROM sqlite_master "
                           "WHERE sql IS NOT NULL AND name NOT LIKE "
                           "'sqlite_%' ORDER BY type = 'table' DESC").fetchall()
        for kind, name, sql in objs:
            try:
                dst.execute(sql)
            except sqlite3.Error:
                continue
            if kind != "table":
                continue
            q = 'SELECT * FROM "%s" LIMIT %d' % (name.replace('"', '""'), rows)
            got = src.execute(q).fetchall()
            if got:
                marks = ",".join("?" * len(got[0]))
                dst.executemany('INSERT INTO "%s" VALUES (%s)' %
                                (name.replace('"', '""'), marks), got)
        dst.commit()
        dst.execute("VACUUM")
        dst.close()
        src.close()
        return read_bytes(tmp)
    except sqlite3.Error:
        return None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cut(path, budget):
    name = os.path.basename(path)
    with open(path, "rb") as f:
        magic = f.read(16)
    if magic.startswith(b"SQLite format 3"):
        return cut_sqlite(path)
    data = read_bytes(path)
    if ".json" in name or data[:1] in (b"{", b"["):
        return cut_json(data, budget)
    return cut_lines(data, budget)


def members(folder):
    """Files under folder, small text first, at most MAX_MEMBERS."""
    found = []
    for d, dirs, files in os.walk(folder):
        dirs.sort()
        for f in sorted(files):
            if f.startswith(SKIP) or f.endswith(("-shm", "-wal")):
                continue
            found.append(os.path.join(d, f))
    return found[:MAX_MEMBERS]


def pack(folder):
    """A run folder as "@@@ PATH" members, PATH starting at its name."""
    parent = os.path.dirname(os.path.abspath(folder))
    out = b""
    for p in members(folder):
        body = cut(p, MEMBER_BUDGET)
        if body is None:
            continue
        rel = os.path.relpath(p, parent).encode()
        out += b"@@@ " + rel + b"\n" + body + b"\n"
        if len(out) > FOLDER_BUDGET:
            break
    return out


def write(dirpath, name, data):
    if data:
        os.makedirs(dirpath, exist_ok=True)
        with open(os.path.join(dirpath, name), "wb") as f:
            f.write(data)


def shared_files(shared):
    t = os.path.join(shared, "traces")
    picks = []
    for d, dirs, files in os.walk(t):
        dirs.sort()
        if "_ascend_pt" in d or "PROF_" in d:
            continue  # taken as folders
        for f in sorted(files):
            if not f.startswith(SKIP) and not f.endswith(("-shm", "-wal")):
                picks.append(os.path.join(d, f))
    return picks


def shared_folders(shared):
    t = os.path.join(shared, "traces")
    found = []
    for d, dirs, files in os.walk(t):
        dirs.sort()
        base = os.path.basename(d)
        if base.endswith("_ascend_pt") or base.startswith("PROF_"):
            found.append(d)
            dirs[:] = []
        elif base.startswith(("ascend_run", "run_", "test_rank_")) or \
                any(f.endswith(".pt.trace.json.gz") for f in files):
            found.append(d)
    return found


LINKS = b"""@@@ run/w0.pt.trace.json
{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":5}]}
@@@ run/notes.txt
hello
@@L run/root 0
@@L run/usr 1
@@L run/zero.json 2
@@L run/status.csv 3
@@L run/secret.csv 4
@@L run/fifo.pt.trace.json 5
@@L run/inside.pt.trace.json w0.pt.trace.json
@@L run/up ..
@@L run/out.pt.trace.json ../../outside/secret.txt
@@H run/hard.pt.trace.json run/w0.pt.trace.json
@@F run/pipe.pt.trace.json
"""


def wal_pair(sql_path):
    """An Nsight Systems export in WAL mode whose last rows are only in its
    -wal: the two files as folder members."""
    with tempfile.TemporaryDirectory() as d:
        db_path = os.path.join(d, "report.sqlite")
        db = sqlite3.connect(db_path)
        db.execute("PRAGMA page_size = 512")
        with open(sql_path) as f:
            db.executescript(f.read())
        db.commit()
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA wal_autocheckpoint = 0")
        db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE deviceId = 1")
        db.commit()
        # copy while the writer still holds the log (closing would fold it
        # into the database)
        with open(db_path, "rb") as f:
            main_bytes = f.read()
        with open(db_path + "-wal", "rb") as f:
            wal_bytes = f.read()
        db.close()
    return (b"@@@ run/report.sqlite\n" + main_bytes +
            b"\n@@@ run/report.sqlite-wal\n" + wal_bytes + b"\n")


def tree_seeds(src, packed):
    """fuzz_tree's seeds: links in and out, a WAL pair, and run folders
    whose known files are a FIFO or a link to /dev/zero."""
    seeds = [("links", LINKS)]
    basic = os.path.join(src, "tests", "data", "nsys", "basic.sql")
    if os.path.isfile(basic):
        seeds.append(("wal", wal_pair(basic)))
    for name, body in packed[:4]:
        extra = b""
        for line in body.split(b"\n"):
            if line.startswith(b"@@@ ") and line.endswith(
                    (b"trace_view.json", b"kernel_details.csv")):
                path = line[4:]
                extra += b"@@F " + path + b".fifo\n"
                extra += b"@@L " + path + b".zero 2\n"
        seeds.append((name, body + extra))
    return seeds


def main():
    src, shared, out = sys.argv[1], sys.argv[2], sys.argv[3]
    files = []
    for sub in ("bad", "hostile", "megengine", "autograd", "diff", "memtl"):
        d = os.path.join(src, "tests", "data", sub)
        if os.path.isdir(d):
            files += [os.path.join(d, f) for f in sorted(os.listdir(d))]
    files.append(os.path.join(src, "tests", "data", "summary_sample.json"))
    files.append(os.path.join(src, "examples", "resnet_like.pt.trace.json.gz"))
    if os.path.isdir(os.path.join(shared, "traces")):
        files += shared_files(shared)
        folders = shared_folders(shared)
    else:
        folders = []
    n = 0
    for p in files:
        if not os.path.isfile(p):
            continue
        body = cut(p, SINGLE_BUDGET)
        if body is None:
            continue
        n += 1
        kind = "csv" if p.endswith(".csv") else "files"
        write(os.path.join(out, kind), "%03d_%s" % (n, os.path.basename(p)),
              body)
    packed = []
    for i, d in enumerate(folders):
        name = "%03d_%s" % (i, os.path.basename(d))
        body = pack(d)
        write(os.path.join(out, "folders"), name, body)
        if body:
            packed.append((name, body))
    for name, body in tree_seeds(src, packed):
        write(os.path.join(out, "tree"), name, body)


if __name__ == "__main__":
    main()
