# hccl_trace.py - the builders of the hand-made torch_npu trace_view.json
# events that the HCCL peer-wait tests share (critpath_peer_entry.sh,
# critpath_peer_wait.sh, late_rank.sh, whatif_replays.sh): one copy, so
# that a change of the trace's shape is made once.  The scripts put this
# folder on PYTHONPATH and import what they use.
#
# Times are in us from the trace's origin (1000000 us), written as
# torch_npu writes them: "ts" a string with 3 decimals, "dur" a number.


def A(name, pid, tid, ts, dur, cat=None, **args):
    """A complete ("X") event; args, when given, as its "args"."""
    e = {"ph": "X", "name": name, "pid": pid, "tid": tid,
         "ts": "%.3f" % (1000000 + ts), "dur": float(dur)}
    if cat:
        e["cat"] = cat
    if args:
        e["args"] = args
    return e


def task(name, ts, dur, tid, kind="AI_CORE", stream=2):
    """A device task on "Ascend Hardware" (pid 900), on its stream."""
    return A(name, 900, stream, ts, dur, **{"Task Type": kind,
             "Physic Stream Id": stream, "Task Id": tid})


def proc(pid, name):
    """A process_name metadata event."""
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
            "args": {"name": name}}


def thread(pid, tid, name):
    """A thread_name metadata event."""
    return {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
            "args": {"name": name}}
