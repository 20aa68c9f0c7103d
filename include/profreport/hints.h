/* hints.h - the notes a run's source and module views give when its
 * trace has no stacks or module frames, each in its producer's words:
 * written by the analysis (sources.c, modules.c), and read by the
 * contract (contract.c), which gives an older summary's run the note of
 * the device its note infers (review 21 #3: an older writer, not knowing
 * a MindSpore run's device, wrote torch.profiler's). */
#ifndef PROFREPORT_HINTS_H
#define PROFREPORT_HINTS_H

/* What the trace lacks, said in the report when no operator has a stack. */
#define PR_SOURCES_NO_STACKS                                                   \
    "The trace has no stacks \xE2\x80\x94 record with with_stack=True "        \
    "(torch.profiler.profile(with_stack=True)) to see which lines of code "    \
    "cost the time."
/* The same for an NPU run: torch_npu's and MindSpore's profilers. */
#define PR_SOURCES_NO_STACKS_NPU                                               \
    "The trace has no stacks \xE2\x80\x94 record with with_stack=True "        \
    "(torch_npu.profiler.profile(with_stack=True), or "                        \
    "mindspore.Profiler(with_stack=True)) to see which lines of code cost "    \
    "the time."
/* The same for a MindSpore run (its current profiler: stacks on Ascend,
 * from the host side, ProfilerActivity.CPU among the activities). */
#define PR_SOURCES_NO_STACKS_MINDSPORE                                         \
    "The trace has no stacks \xE2\x80\x94 record with a current MindSpore's "  \
    "mindspore.profiler.profile(with_stack=True) (Ascend; activities with "    \
    "ProfilerActivity.CPU) to see which lines of code cost the time."

/* The same for an Nsight Systems export: its stacks (nsys --backtrace,
 * --python-backtrace) are not read, and a CUDA C++ program has no
 * torch.profiler to record them (closing 'Left': CloverLeaf). */
#define PR_SOURCES_NO_STACKS_NSYS                                              \
    "The export gives no operator call stacks (profreport reads them from "    \
    "PyTorch profiler traces: torch.profiler.profile(with_stack=True)), so "   \
    "it shows no time per line of code."
#define PR_MODULES_NONE_NSYS                                                   \
    "The export gives no module frames (profreport reads them from PyTorch "   \
    "profiler traces: torch.profiler.profile(with_stack=True, "                \
    "with_modules=True)), so it shows no time per nn.Module."

#define PR_MODULES_NONE                                                        \
    "The trace has no module frames \xE2\x80\x94 record with "                 \
    "with_modules=True (torch.profiler.profile(with_stack=True, "              \
    "with_modules=True)) to see time per nn.Module."
#define PR_MODULES_NONE_NPU                                                    \
    "The trace has no module frames \xE2\x80\x94 record with "                 \
    "with_modules=True (torch_npu.profiler.profile(with_stack=True, "          \
    "with_modules=True)) to see time per nn.Module."

#define PR_MODULES_IN_STACKS                                                   \
    "The trace names modules only inside its operators' call stacks "          \
    "(the legacy autograd profiler's export has no module ranges), so it "     \
    "shows no time per nn.Module; a PyTorch built with Kineto records them "   \
    "(torch.profiler.profile(with_stack=True, with_modules=True))."

#define PR_MODULES_NONE_MINDSPORE                                              \
    "MindSpore writes no module frames (the per-module view is "               \
    "PyTorch's): its operators' full names carry their Cell scope "            \
    "instead (Default/network-.../<Cell>/<operator>)."

/* Why no kernel time has an operator, after "N% of " (attribution.c). */
#define PR_HINT_NO_OPS                                                         \
    "kernel time has no operator: the trace has no operator events (CPU "      \
    "activities were not recorded), so per-operator times, tensor cores and "  \
    "the roofline cover no kernel"
#define PR_HINT_NO_OPS_AMD                                                     \
    "kernel time has no operator: the trace has no operator events (CPU "      \
    "activities were not recorded), so per-operator times, matrix cores "      \
    "(MFMA) and the roofline cover no kernel"
#define PR_HINT_NO_OPS_NPU                                                     \
    "task time has no operator: the export holds no host operators, so "       \
    "per-operator times, the Cube view and the roofline cover no task"

#endif
