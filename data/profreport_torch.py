"""profreport_torch.py - the Python side of `profreport record`: run a
training script under torch.profiler and write its traces.

`profreport record -- python3 train.py ARGS` runs
`python3 profreport_torch.py --output DIR [options] -- train.py ARGS`
(and `-m MODULE` or `-c CODE` in place of the script).  This file is
installed under $(datadir)/profreport; the C side finds it and stays the
driver (folder, exit status, reports).

What it does:
- starts torch.profiler (torch_npu.profiler when torch_npu imports) with a
  schedule of wait, warmup and active steps (`--steps W,U,A`, one cycle),
  CPU activities always, CUDA (or XPU) when the device is there, input
  shapes, memory and stacks unless switched off;
- steps the profiler at each optimizer step: the step post-hook on
  PyTorch >= 2.0, a wrapper of each optimizer's step() before; with
  several optimizers, the first one that steps paces the profiler;
- runs the script as Python would (sys.argv, sys.path[0], __main__);
- writes each trace as the TensorBoard handler names it
  (<host>_<pid>.<ms>.pt.trace.json), through a temporary name, so that a
  file in the folder is always whole; torch_npu writes its own
  *_ascend_pt folder;
- on a PyTorch build without Kineto, where export_chrome_trace() keeps
  only names and times, writes the same legacy layout with what the
  profiler recorded and the export leaves out (Input Dims, Input type,
  Call stack, Sequence number, Fwd thread id) and [memory] instants;
- stops the profiler however the script ends (return, sys.exit, an
  exception, Ctrl-C), so the steps recorded so far are written, and then
  lets the script's own exit status through.

Messages go to stderr, prefixed "profreport: ".  Exit status: the
script's; 2 when torch cannot be imported or the options are wrong.
"""

import json
import os
import runpy
import signal
import socket
import sys
import time
import types
import weakref

USAGE = ("usage: profreport_torch.py --output DIR [--steps W,U,A] "
         "[--no-shapes] [--no-memory] [--no-stack] [--quiet] "
         "-- (SCRIPT | -m MODULE | -c CODE) [ARGS...]")

DEFAULT_STEPS = (1, 1, 3)


def say(msg):
    sys.stderr.write("profreport: %s\n" % msg)
    sys.stderr.flush()


class Options:
    def __init__(self):
        self.output = None
        self.steps = DEFAULT_STEPS
        self.shapes = True
        self.memory = True
        self.stack = True
        self.quiet = False
        self.target = None  # ("script", path) | ("module", name) | ("code", text)
        self.args = []


def parse_steps(text):
    """"W,U,A" -> (wait, warmup, active); ValueError when it is not."""
    parts = text.split(",")
    if len(parts) != 3:
        raise ValueError("--steps wants WAIT,WARMUP,ACTIVE (got %r)" % text)
    try:
        n = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError("--steps wants three whole numbers (got %r)" % text)
    if n[0] < 0 or n[1] < 0 or n[2] < 1:
        raise ValueError("--steps: wait and warmup >= 0, active >= 1 "
                         "(got %r)" % text)
    return n


def parse_args(argv):
    """The launcher's options up to "--", then what Python would run."""
    o = Options()
    i = 0
    while i < len(argv) and argv[i] != "--":
        a = argv[i]
        if a in ("--output", "--steps") and i + 1 >= len(argv):
            raise ValueError("%s needs a value" % a)
        if a == "--output":
            o.output = argv[i + 1]
            i += 1
        elif a == "--steps":
            o.steps = parse_steps(argv[i + 1])
            i += 1
        elif a == "--no-shapes":
            o.shapes = False
        elif a == "--no-memory":
            o.memory = False
        elif a == "--no-stack":
            o.stack = False
        elif a == "--quiet":
            o.quiet = True
        else:
            raise ValueError("unknown option %r" % a)
        i += 1
    rest = argv[i + 1:]
    if o.output is None:
        raise ValueError("--output DIR is required")
    if not rest or rest[0] == "-":
        raise ValueError("no script to run (SCRIPT, -m MODULE or -c CODE)")
    if rest[0] in ("-m", "-c"):
        if len(rest) < 2:
            raise ValueError("%s needs a value" % rest[0])
        o.target = ("module" if rest[0] == "-m" else "code", rest[1])
        o.args = rest[2:]
    else:
        o.target = ("script", rest[0])
        o.args = rest[1:]
    return o


def worker_name():
    """The TensorBoard handler's worker name: <host>_<pid>."""
    return "%s_%d" % (socket.gethostname(), os.getpid())


def trace_path(out_dir):
    return os.path.join(out_dir, "%s.%d.pt.trace.json"
                        % (worker_name(), int(time.time() * 1000)))


def write_atomically(path, write):
    """write(tmp_path), then rename onto path: a reader never sees half a
    trace, even when the run is interrupted while it is written."""
    d, base = os.path.split(path)
    tmp = os.path.join(d, ".%s.tmp" % base)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


# ---------------------------------------------------------------- legacy


def _thread_of(e):
    if getattr(e, "is_remote", False):
        return " node_id:%s, thread_id:%s " % (e.node_id, e.thread)
    return e.thread


def _own_frame(entry):
    """A frame of this launcher or of runpy, which runs the script: not
    the user's code, so not in the stacks written."""
    here = os.path.abspath(__file__)
    return entry.startswith((here + "(", "<frozen runpy>", "runpy.py(")) \
        or "/runpy.py(" in entry


def _raw_events(prof):
    """The profiler's own records (dtypes and memory records, which the
    FunctionEvents drop), or [] when this PyTorch does not expose them."""
    inner = getattr(prof, "profiler", None)
    res = getattr(inner, "kineto_results", None)
    if res is None:
        return None, []
    try:
        return res.trace_start_us(), list(res.events())
    except Exception:  # an API that moved: the trace is still written
        return None, []


def _int8(v):
    """c10's DeviceIndex is an int8 (CPU -1) that 1.13 hands out as a
    byte (255)."""
    return v - 256 if 128 <= v < 256 else v


def legacy_events(prof, memory):
    """The events of a legacy trace with their args, as dicts in the
    export's key order (pid before args: readers find it early)."""
    start, raw = _raw_events(prof)
    dtypes, out = {}, []
    for k in raw:
        if k.name() != "[memory]":
            dtypes[k.correlation_id()] = list(k.dtypes())
    for e in prof.events():
        if e.trace_name is None:
            continue
        args = {}
        if e.input_shapes:
            args["Input Dims"] = [list(s) for s in e.input_shapes]
            if dtypes.get(e.id):
                args["Input type"] = dtypes[e.id]
        stack = [f for f in e.stack or [] if not _own_frame(f)]
        if stack:
            args["Call stack"] = ";".join(stack)
        if e.sequence_nr >= 0:
            args["Sequence number"] = e.sequence_nr
            args["Fwd thread id"] = e.fwd_thread
        out.append({"name": e.trace_name, "ph": "X",
                    "ts": e.time_range.start,
                    "dur": e.time_range.elapsed_us(),
                    "tid": _thread_of(e), "pid": "CPU functions",
                    "args": args})
    if memory and start is not None:
        for k in raw:
            if k.name() != "[memory]":
                continue
            out.append({"name": "[memory]", "ph": "i", "s": "t",
                        "ts": k.start_us() - start,
                        "tid": k.start_thread_id(), "pid": "CPU functions",
                        "args": {"Bytes": k.nbytes(),
                                 "Device Type": int(k.device_type()),
                                 "Device Id": _int8(k.device_index())}})
    return out


def write_legacy(prof, path, memory):
    events = legacy_events(prof, memory)

    def write(tmp):
        with open(tmp, "w") as f:
            f.write("[")
            f.write(", ".join(json.dumps(e) for e in events))
            f.write("]")
    write_atomically(path, write)


# ---------------------------------------------------------------- backends


class Backend:
    """What profiles: its name, the profiler's keyword arguments and the
    handler that writes a trace when a cycle of active steps ends."""

    def __init__(self, name, module, kwargs):
        self.name = name
        self.module = module  # torch.profiler or torch_npu.profiler
        self.kwargs = kwargs


def npu_backend(torch_npu, o):
    """torch_npu.profiler, as Ascend's guide sets it up: CPU and NPU
    activities, Level1 (CANN and AscendCL events), its own
    tensorboard_trace_handler writing <host>_<pid>_<ts>_ascend_pt/."""
    p = torch_npu.profiler
    wait, warmup, active = o.steps
    kwargs = dict(
        activities=[p.ProfilerActivity.CPU, p.ProfilerActivity.NPU],
        schedule=p.schedule(wait=wait, warmup=warmup, active=active,
                            repeat=1, skip_first=0),
        on_trace_ready=p.tensorboard_trace_handler(o.output),
        record_shapes=o.shapes, profile_memory=o.memory,
        with_stack=o.stack, with_modules=o.stack,
        experimental_config=p._ExperimentalConfig(
            profiler_level=p.ProfilerLevel.Level1))
    return Backend("torch_npu", p, kwargs)


def torch_backend(torch, o):
    """torch.profiler: CPU always, CUDA or XPU when present; with Kineto
    the trace is PyTorch's own export, without it the legacy layout with
    args (write_legacy)."""
    p = torch.profiler
    acts = [p.ProfilerActivity.CPU]
    if torch.cuda.is_available():
        acts.append(p.ProfilerActivity.CUDA)
    xpu = getattr(torch, "xpu", None)
    if (xpu is not None and hasattr(p.ProfilerActivity, "XPU")
            and xpu.is_available()):
        acts.append(p.ProfilerActivity.XPU)
    kineto = torch.autograd.kineto_available()

    def ready(prof):
        path = trace_path(o.output)
        if kineto:
            write_atomically(path, prof.export_chrome_trace)
        else:
            write_legacy(prof, path, o.memory)
        written.append(path)
    wait, warmup, active = o.steps
    kwargs = dict(
        activities=acts,
        schedule=p.schedule(wait=wait, warmup=warmup, active=active,
                            repeat=1),
        on_trace_ready=ready, record_shapes=o.shapes,
        profile_memory=o.memory, with_stack=o.stack,
        with_modules=o.stack)
    return Backend("torch" if kineto else "torch (no Kineto)", p, kwargs)


written = []  # traces written by this process


def pick_backend(o):
    """torch_npu when it imports, else torch; ImportError without torch."""
    import torch
    try:
        import torch_npu  # noqa: F401  (registers the NPU with torch)
    except ImportError:
        return torch_backend(torch, o)
    return npu_backend(torch_npu, o)


# ---------------------------------------------------------------- stepping


class Pacer:
    """Steps the profiler once per optimizer step of the first optimizer
    that steps (a GAN's second optimizer does not count twice)."""

    def __init__(self, prof):
        self.prof = prof
        self.lead = None
        self.steps = 0

    def __call__(self, optimizer):
        lead = self.lead() if self.lead is not None else None
        if lead is None:
            self.lead = weakref.ref(optimizer)
        elif lead is not optimizer:
            return
        self.steps += 1
        self.prof.step()


def hook_optimizers(torch, pacer):
    """Call pacer(optimizer) after every optimizer step."""
    optim = torch.optim
    reg = getattr(getattr(optim, "optimizer", None),
                  "register_optimizer_step_post_hook", None)
    if reg is not None:  # PyTorch >= 2.0: a global post hook
        return reg(lambda opt, args, kwargs: pacer(opt))
    base = optim.Optimizer
    init = base.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        inner = type(self).step

        def step(opt, *a, **k):
            out = inner(opt, *a, **k)
            pacer(opt)
            return out
        # a bound method, as LR schedulers wrap it (with_counter)
        self.step = types.MethodType(step, self)
    base.__init__ = __init__
    return None


# ---------------------------------------------------------------- running


def run_target(o):
    """Run the script, module or code as `python ...` would."""
    kind, what = o.target
    if kind == "script":
        sys.argv = [what] + o.args
        sys.path[0] = os.path.dirname(os.path.abspath(what))
        runpy.run_path(what, run_name="__main__")
    elif kind == "module":
        sys.argv = ["-m"] + o.args
        sys.path[0] = os.getcwd()
        runpy.run_module(what, run_name="__main__", alter_sys=True)
    else:
        sys.argv = ["-c"] + o.args
        sys.path[0] = ""
        code = compile(what, "<string>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})


def _steps_text(a, b):
    return "step %d" % a if a == b else "steps %d to %d" % (a, b)


def report_end(o, backend, pacer):
    """Say what was recorded, or why nothing was.  Steps are counted by
    optimizer steps, from 1: the profiler's own ProfilerStep#N numbers
    differ between PyTorch versions (1.13 names the first two #0)."""
    if o.quiet:
        return
    wait, warmup, active = o.steps
    first, last = wait + warmup + 1, wait + warmup + active
    n = "%d optimizer step%s" % (pacer.steps, "" if pacer.steps == 1 else "s")
    if pacer.steps == 0:
        say("no optimizer step was seen: nothing recorded (the profiler "
            "steps at each torch.optim optimizer step)")
    elif pacer.steps < first - 1:
        say("%s: recording starts after wait + warmup = %d (--steps "
            "%d,%d,%d): nothing recorded" % (n, first - 1, wait, warmup,
                                             active))
    elif pacer.steps >= last:
        say("%s; %s recorded" % (n, _steps_text(first, last)))
    elif pacer.steps >= first:
        say("%s; %s recorded, and what ran after the last"
            % (n, _steps_text(first, pacer.steps)))
    else:
        say("%s; only what ran after the last one was recorded" % n)


def stop(prof):
    """Stop the profiler, which writes the trace of a cycle it was
    recording.  A second Ctrl-C (a terminal sends one to the whole process
    group, and `profreport record` passes one on) must not cut the write
    short, so SIGINT and SIGTERM wait until it is done."""
    held = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            held[sig] = signal.signal(sig, signal.SIG_IGN)
        except (ValueError, OSError):  # not the main thread
            pass
    try:
        prof.stop()
    except Exception as e:  # the script's own outcome matters more
        say("stopping the profiler failed: %s" % e)
    finally:
        for sig, old in held.items():
            signal.signal(sig, old)


def main(argv):
    try:
        o = parse_args(argv)
    except ValueError as e:
        say(str(e))
        say(USAGE)
        return 2
    try:
        backend = pick_backend(o)
    except ImportError as e:
        say("cannot import torch (%s): record needs PyTorch in the "
            "Python that runs the script" % e)
        return 2
    import torch
    prof = backend.module.profile(**backend.kwargs)
    pacer = Pacer(prof)
    hook_optimizers(torch, pacer)
    prof.start()
    try:
        run_target(o)
    finally:
        stop(prof)
        report_end(o, backend, pacer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
