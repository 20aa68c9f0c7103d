"""test_launcher.py - data/profreport_torch.py without PyTorch: fake torch
and torch_npu packages (written here into a temporary folder, first on
sys.path) record what the launcher asks of them.  Covers what no machine
here can run: the torch_npu.profiler set-up an Ascend user gets, CUDA
activities, the step hooks of PyTorch >= 2.0, and the whole run with its
exit status.  Prints TAP; run by tests/cli/record_launcher.sh."""

import importlib
import os
import shutil
import sys
import tempfile
import textwrap
import traceback

FAKE_TORCH = '''
import types
calls = []          # what the launcher did, in order
has_cuda = False    # torch.cuda.is_available()
kineto = True       # torch.autograd.kineto_available()
post_hooks = None   # a list: PyTorch >= 2.0 (the global step post hook)

class _Cuda:
    @staticmethod
    def is_available():
        return has_cuda
cuda_mod = _Cuda()

class _Autograd:
    @staticmethod
    def kineto_available():
        return kineto
autograd = _Autograd()
'''

FAKE_OPTIM = '''
import torch
from . import optimizer
from .optimizer import Optimizer

class SGD(Optimizer):
    def step(self, closure=None):
        torch.calls.append(("sgd.step", id(self)))
        for h in list(optimizer._hooks()):
            h(self, (), {})
'''

FAKE_OPTIMIZER = '''
import torch

def _hooks():
    return torch.post_hooks or []

class Optimizer:
    def __init__(self, params, defaults=None):
        self.params = params

def __getattr__(name):
    # the global post hook exists only when the test says PyTorch >= 2.0
    if name == "register_optimizer_step_post_hook" and \\
            torch.post_hooks is not None:
        def register(hook):
            torch.post_hooks.append(hook)
            return len(torch.post_hooks)
        return register
    raise AttributeError(name)
'''

FAKE_PROFILER = '''
import torch

class ProfilerActivity:
    CPU = "CPU"
    CUDA = "CUDA"

def schedule(**kw):
    torch.calls.append(("schedule", kw))
    return ("schedule", tuple(sorted(kw.items())))

def tensorboard_trace_handler(d, *a, **k):
    torch.calls.append(("handler", d))
    return ("handler", d)

class profile:
    def __init__(self, **kw):
        self.kw = kw
        self.n = 0
        torch.calls.append(("profile", kw))
    def start(self):
        torch.calls.append(("start",))
    def step(self):
        self.n += 1
        torch.calls.append(("step", self.n))
    def stop(self):
        torch.calls.append(("stop",))
        ready = self.kw.get("on_trace_ready")
        if callable(ready) and self.n >= 2:
            ready(self)
    def export_chrome_trace(self, path):
        with open(path, "w") as f:
            f.write('{"traceEvents": []}')
'''

FAKE_NPU = '''
import torch

class ProfilerActivity:
    CPU = "NPU-CPU"
    NPU = "NPU"

class ProfilerLevel:
    Level0 = "L0"
    Level1 = "L1"

class _ExperimentalConfig:
    def __init__(self, **kw):
        self.kw = kw

def schedule(**kw):
    return ("npu-schedule", tuple(sorted(kw.items())))

def tensorboard_trace_handler(d, *a, **k):
    return ("npu-handler", d)

class profile:
    def __init__(self, **kw):
        self.kw = kw
        torch.calls.append(("npu-profile", kw))
    def start(self):
        pass
    def step(self):
        torch.calls.append(("npu-step",))
    def stop(self):
        torch.calls.append(("npu-stop",))
'''


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))


def make_fakes(root, npu):
    write(root, "torch/__init__.py",
          FAKE_TORCH + "\nfrom . import optim, profiler\ncuda = cuda_mod\n")
    write(root, "torch/optim/__init__.py", FAKE_OPTIM)
    write(root, "torch/optim/optimizer.py", FAKE_OPTIMIZER)
    write(root, "torch/profiler/__init__.py", FAKE_PROFILER)
    if npu:
        write(root, "torch_npu/__init__.py", "from . import profiler\n")
        write(root, "torch_npu/profiler/__init__.py", FAKE_NPU)


class World:
    """A fresh set of fakes and a fresh launcher module."""

    def __init__(self, npu=False):
        self.dir = tempfile.mkdtemp(prefix="pr_launcher_")
        self.fakes = os.path.join(self.dir, "fakes")
        self.out = os.path.join(self.dir, "out")
        os.makedirs(self.out)
        make_fakes(self.fakes, npu)
        for m in [m for m in sys.modules
                  if m.split(".")[0] in ("torch", "torch_npu",
                                         "profreport_torch")]:
            del sys.modules[m]
        sys.path.insert(0, self.fakes)
        sys.path.insert(0, LAUNCHER_DIR)
        import torch
        self.torch = torch
        self.pt = importlib.import_module("profreport_torch")
        self.pt.written.clear()

    def close(self):
        sys.path.remove(self.fakes)
        sys.path.remove(LAUNCHER_DIR)
        shutil.rmtree(self.dir)

    def calls(self, name):
        return [c for c in self.torch.calls if c[0] == name]


def test_parse_args():
    w = World()
    try:
        o = w.pt.parse_args(["--output", "d", "--steps", "0,2,5",
                             "--no-stack", "--", "t.py", "--lr", "3"])
        assert o.output == "d" and o.steps == (0, 2, 5), o.steps
        assert (o.shapes, o.memory, o.stack) == (True, True, False)
        assert o.target == ("script", "t.py") and o.args == ["--lr", "3"]
        o = w.pt.parse_args(["--output", "d", "--", "-m", "pkg", "x"])
        assert o.target == ("module", "pkg") and o.args == ["x"]
        assert o.steps == (1, 1, 3)
        for bad in (["--", "t.py"], ["--output", "d", "--"],
                    ["--output", "d", "--", "-m"],
                    ["--output", "d", "--steps", "1,1,0", "--", "t.py"],
                    ["--output", "d", "--steps", "x", "--", "t.py"],
                    ["--output", "d", "--bogus", "--", "t.py"]):
            try:
                w.pt.parse_args(bad)
            except ValueError:
                continue
            raise AssertionError("accepted %r" % bad)
    finally:
        w.close()


def test_npu_backend():
    """An Ascend user: torch_npu.profiler with its own activities,
    schedule, handler (an *_ascend_pt folder in the output) and Level1."""
    w = World(npu=True)
    try:
        o = w.pt.parse_args(["--output", w.out, "--steps", "2,1,4", "--",
                             "t.py"])
        b = w.pt.pick_backend(o)
        assert b.name == "torch_npu", b.name
        kw = b.kwargs
        assert kw["activities"] == ["NPU-CPU", "NPU"], kw["activities"]
        assert kw["schedule"] == ("npu-schedule", (
            ("active", 4), ("repeat", 1), ("skip_first", 0), ("wait", 2),
            ("warmup", 1))), kw["schedule"]
        assert kw["on_trace_ready"] == ("npu-handler", w.out)
        assert kw["record_shapes"] and kw["profile_memory"] \
            and kw["with_stack"] and kw["with_modules"]
        assert kw["experimental_config"].kw == {"profiler_level": "L1"}
    finally:
        w.close()


def test_torch_backend_activities():
    w = World()
    try:
        o = w.pt.parse_args(["--output", w.out, "--no-shapes", "--", "t.py"])
        b = w.pt.pick_backend(o)
        assert b.kwargs["activities"] == ["CPU"], b.kwargs["activities"]
        assert b.kwargs["record_shapes"] is False
        assert b.kwargs["with_stack"] and b.kwargs["with_modules"]
        w.torch.has_cuda = True
        b = w.pt.pick_backend(o)
        assert b.kwargs["activities"] == ["CPU", "CUDA"]
        assert w.calls("schedule")[-1][1] == {
            "wait": 1, "warmup": 1, "active": 3, "repeat": 1}
    finally:
        w.close()


def test_pacer_first_optimizer():
    """Two optimizers (a GAN): the first that steps paces the profiler."""
    w = World()
    try:
        prof = w.torch.profiler.profile()
        pacer = w.pt.Pacer(prof)
        w.pt.hook_optimizers(w.torch, pacer)
        g = w.torch.optim.SGD([1])
        d = w.torch.optim.SGD([2])
        for _ in range(3):
            g.step()
            d.step()
        assert pacer.steps == 3 and prof.n == 3, (pacer.steps, prof.n)
    finally:
        w.close()


def test_hook_bound_method():
    """PyTorch < 2.0: the wrapper is a bound method, as LR schedulers'
    with_counter() needs (it reads __self__ and __func__)."""
    w = World()
    try:
        prof = w.torch.profiler.profile()
        pacer = w.pt.Pacer(prof)
        w.pt.hook_optimizers(w.torch, pacer)
        opt = w.torch.optim.SGD([1])
        m = opt.step
        assert m.__self__ is opt and callable(m.__func__)
        m.__func__.__get__(opt, type(opt))()  # as with_counter calls it
        assert prof.n == 1
    finally:
        w.close()


def test_post_hook():
    """PyTorch >= 2.0: one global post hook, no wrapper."""
    w = World()
    try:
        w.torch.post_hooks = []
        prof = w.torch.profiler.profile()
        pacer = w.pt.Pacer(prof)
        w.pt.hook_optimizers(w.torch, pacer)
        assert len(w.torch.post_hooks) == 1
        opt = w.torch.optim.SGD([1])
        assert "step" not in vars(opt)
        opt.step()
        opt.step()
        assert prof.n == 2
    finally:
        w.close()


def test_main_runs_script():
    """The whole run: the script sees its own argv and __name__, the
    profiler starts before it and stops after it, the trace is written
    whole, and the script's exit status comes out."""
    w = World()
    try:
        script = os.path.join(w.dir, "train.py")
        with open(script, "w") as f:
            f.write(textwrap.dedent('''
                import sys, torch
                assert __name__ == "__main__"
                assert sys.argv == [__file__, "--lr", "3"], sys.argv
                opt = torch.optim.SGD([1])
                for _ in range(4):
                    opt.step()
                sys.exit(7)
            '''))
        path, argv = list(sys.path), list(sys.argv)
        try:
            w.pt.main(["--output", w.out, "--quiet", "--", script,
                       "--lr", "3"])
        except SystemExit as e:
            assert e.code == 7, e.code
        else:
            raise AssertionError("the script's exit did not come out")
        finally:
            sys.path[:], sys.argv[:] = path, argv
        order = [c[0] for c in w.torch.calls
                 if c[0] in ("start", "step", "stop")]
        assert order == ["start"] + ["step"] * 4 + ["stop"], order
        files = os.listdir(w.out)
        assert len(files) == 1 and files[0].endswith(".pt.trace.json"), files
    finally:
        w.close()


def test_no_torch():
    """Without torch the launcher says so and exits 2."""
    saved = sys.modules.get("torch")
    sys.modules["torch"] = None  # import torch raises ImportError
    sys.path.insert(0, LAUNCHER_DIR)
    try:
        sys.modules.pop("profreport_torch", None)
        pt = importlib.import_module("profreport_torch")
        assert pt.main(["--output", "/nonexistent", "--", "t.py"]) == 2
    finally:
        sys.path.remove(LAUNCHER_DIR)
        if saved is None:
            del sys.modules["torch"]
        else:
            sys.modules["torch"] = saved


LAUNCHER_DIR = os.path.join(sys.argv[1] if len(sys.argv) > 1 else ".",
                            "data")


def main():
    tests = [v for k, v in sorted(globals().items())
             if k.startswith("test_") and callable(v)]
    failed = 0
    for i, t in enumerate(tests, 1):
        try:
            t()
            print("ok %d - launcher: %s" % (i, t.__name__[5:]))
        except Exception:
            failed += 1
            print("not ok %d - launcher: %s" % (i, t.__name__[5:]))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
    print("1..%d" % len(tests))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
