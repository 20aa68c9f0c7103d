/* keys.h - the summary's vocabulary (spec/summary-json.md and our additions
 * in docs/summary-json.md): one constant per key, so that a typo in a
 * producer or a reader is a compile error instead of a silent "–", and one
 * table of the breakdown and overlap categories with the label and colour
 * every report shows for them.  Plain data: no function here can fail. */
#ifndef PROFREPORT_KEYS_H
#define PROFREPORT_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* ---- top level */
#define PR_K_SCHEMA_VERSION "schema_version"
#define PR_K_TOOL "tool"
#define PR_K_VERSION "version"
#define PR_K_BUILD "build"
#define PR_K_DEFINITIONS "definitions"
#define PR_K_INPUTS "inputs"
#define PR_K_RUNS "runs"
#define PR_K_DISTRIBUTED "distributed"

/* ---- inputs[] (and names shared by many objects) */
#define PR_K_PATH "path"
#define PR_K_DEPTH "depth"
#define PR_K_FORMAT "format"
#define PR_K_BYTES "bytes"
#define PR_K_EVENTS "events"
#define PR_K_WORKER "worker"
#define PR_K_SPAN "span"
#define PR_K_NAME "name"
#define PR_K_ID "id"
#define PR_K_RANK "rank"
#define PR_K_DEVICE "device"
#define PR_K_CALLS "calls"
#define PR_K_COUNT "count"
/* runs[]: the trace holds nothing of a device (a CPU run) */
#define PR_K_HOST_ONLY "host_only"

/* ---- runs[].devices[] */
#define PR_K_DEVICES "devices"
#define PR_K_NUM_SMS "num_sms"
#define PR_K_COMPUTE_CAPABILITY "compute_capability"
#define PR_K_ARCHITECTURE "architecture"
#define PR_K_VENDOR "vendor"
#define PR_K_MEMORY_BYTES "memory_bytes"
#define PR_K_PEAK_TFLOPS "peak_tflops"
#define PR_K_PEAK_GBPS "peak_gbps"
#define PR_K_PEAK_SOURCE "peak_source"
#define PR_K_PEAK_DEVICE "peak_device"
#define PR_K_PEAK_MATCH "peak_match"
#define PR_K_FP64 "fp64"
#define PR_K_FP32 "fp32"
#define PR_K_TF32_TENSOR "tf32_tensor"
#define PR_K_BF16_TENSOR "bf16_tensor"
#define PR_K_FP16_TENSOR "fp16_tensor"

/* ---- runs[].steps[], step_summary */
#define PR_K_STEPS "steps"
#define PR_K_START_US "start_us"
#define PR_K_DURATION_US "duration_us"
#define PR_K_BREAKDOWN_US "breakdown_us"
#define PR_K_STEP_SUMMARY "step_summary"
#define PR_K_MEAN_US "mean_us"
#define PR_K_BASIS "basis"
#define PR_K_HOST_MEAN_US "host_mean_us"
#define PR_K_HOST_DURATION_US "host_duration_us"
#define PR_K_HOST_START_US "host_start_us"
#define PR_K_CLIPPED_STEPS "clipped_steps"
#define PR_K_FIRST_STEP_BACKLOG_US "first_step_backlog_us"
#define PR_K_MEDIAN_US "median_us"
#define PR_K_P90_US "p90_us"
#define PR_K_MIN_US "min_us"
#define PR_K_MAX_US "max_us"

/* ---- breakdown categories (keys of breakdown_us) */
#define PR_K_KERNEL "kernel"
#define PR_K_MEMCPY "memcpy"
#define PR_K_MEMSET "memset"
#define PR_K_COMMUNICATION "communication"
#define PR_K_RUNTIME "runtime"
#define PR_K_DATALOADER "dataloader"
#define PR_K_CPU_EXEC "cpu_exec"
#define PR_K_OTHER "other"

/* ---- runs[].gpu_metrics[] */
#define PR_K_GPU_METRICS "gpu_metrics"
#define PR_K_UTILIZATION_PCT "utilization_pct"
#define PR_K_EST_SM_EFFICIENCY_PCT "est_sm_efficiency_pct"
#define PR_K_EST_ACHIEVED_OCCUPANCY_PCT "est_achieved_occupancy_pct"
#define PR_K_KERNEL_TIME_US "kernel_time_us"
#define PR_K_OCCUPANCY_UNKNOWN_LAUNCHES "occupancy_unknown_launches"
#define PR_K_OCCUPANCY_UNKNOWN_KERNEL_PCT "occupancy_unknown_kernel_pct"

/* ---- runs[].attribution: kernel time that reaches an operator
 * (docs/summary-json.md); also kernel_time_us, kernels, reason */
#define PR_K_ATTRIBUTION "attribution"
#define PR_K_OPERATOR_TIME_US "operator_time_us"
#define PR_K_OPERATOR_PCT "operator_pct"
#define PR_K_NO_LAUNCH_US "no_launch_us"
#define PR_K_OUTSIDE_OPERATORS_US "outside_operators_us"
#define PR_K_LAUNCHES_BY_ID "launches_by_id"
#define PR_K_LAUNCHES_BY_TIME "launches_by_time"

/* ---- runs[].critical_path (critpath.c, issue #31); also bound, step,
 * kind, name, replay_error_pct */
#define PR_K_CRITICAL_PATH "critical_path"
#define PR_K_LENGTH_US "length_us"
#define PR_K_MEASURED_US "measured_us"
#define PR_K_REPLAY_ERROR_PCT "replay_error_pct"
#define PR_K_BY_KIND_US "by_kind_us"
#define PR_K_KERNEL_FAMILY_US "kernel_family_us"
#define PR_K_TOP "top"

/* ---- runs[].verdict (whatif.c, issue #31); also bound, steps, text, id,
 * rank */
#define PR_K_VERDICT "verdict"
#define PR_K_BOUND_STEPS "bound_steps"
#define PR_K_FINDINGS "findings"
#define PR_K_TITLE "title"
#define PR_K_GAIN_US "gain_us"
#define PR_K_GAIN_PCT "gain_pct"
#define PR_K_EVIDENCE "evidence"
#define PR_K_US "us"
#define PR_K_HOST_OP "host_op"
#define PR_K_LAUNCH "launch"
#define PR_K_COPY "copy"
#define PR_K_SYNC_WAIT "sync_wait"
#define PR_K_STREAM_WAIT "stream_wait"
#define PR_K_IDLE "idle"
#define PR_K_OP_COMPILE "op_compile"
/* runs[].critical_path: why no step has a path ("kernel_replay") */
#define PR_K_NO_PATH_REASON "no_path_reason"
#define PR_K_LAUNCH_WAIT_NOTE "launch_wait_note"
#define PR_K_HELD_NOTE "held_note"
#define PR_K_HOST_POLL_NOTE "host_poll_note"
#define PR_K_HOST_POLL_US "host_poll_us"
#define PR_K_IDLE_NOTE "idle_note"
#define PR_K_PEER_WAIT_NOTE "peer_wait_note"
#define PR_K_PEER_WAIT_US "peer_wait_us"
#define PR_K_PEER_WAIT_LONGEST "peer_wait_longest"
#define PR_K_PEER_WAIT_LONGEST_US "peer_wait_longest_us"
#define PR_K_PEER_WAIT_PARTS "peer_wait_parts"
/* runs[].late_peer: the wait gone with that rank alone on time */
#define PR_K_ALONE_US "alone_us"
/* runs[].late_peer: the next-latest rank where it and the late rank
   arrive as one group, and the wait gone with both on time */
#define PR_K_GROUP_RANK "group_rank"
#define PR_K_GROUP_US "group_us"
/* runs[].late_peer: the share of its Notify Wait in a warm-up first step
   the per-step figures leave out (hunt30 #2) */
#define PR_K_FIRST_STEP_PCT "first_step_pct"
#define PR_K_PEER_ENTRY_NOTE "peer_entry_note"
#define PR_K_PEER_ENTRY_SLACK_US "peer_entry_slack_us"
#define PR_K_PEER_CHAIN_COMM_US "peer_chain_comm_us"
#define PR_K_PEER_CHAIN_ACLOP_US "peer_chain_aclop_us"
/* whose optimizer the Optimizer.step# ranges ran (pr_whatif_optimizer_impl) */
#define PR_K_OPTIMIZER_IMPL "optimizer_impl"
/* the optimizer state's set-up in its steps (pr_whatif_optimizer_state) */
#define PR_K_OPTIMIZER_STATE_CALLS "optimizer_state_calls"
#define PR_K_OPTIMIZER_STATE_KERNELS "optimizer_state_kernels"
#define PR_K_OPTIMIZER_STATE_STEPS "optimizer_state_steps"
#define PR_K_OPTIMIZER_STATE_FIRST "optimizer_state_first"
#define PR_K_OPTIMIZER_STATE_RANGES "optimizer_state_ranges"
#define PR_K_OPTIMIZER_STATE_STEP_KERNELS "optimizer_state_step_kernels"
#define PR_K_OPTIMIZER_STATE_HOST_US "optimizer_state_host_us"
/* by_kind_us: the step's time up to where the path enters from a peer */
#define PR_K_PEER_WAIT "peer_wait"

#define PR_K_PEER_WAIT_RANK "peer_wait_rank"
#define PR_K_LATE_RANK "late_rank"
#define PR_K_LATE_PEER "late_peer"
#define PR_K_WAITS "waits"
#define PR_K_LATE_RANK_IN_REPORT "late_rank_in_report"
#define PR_K_LATE_RANK_NOTE "late_rank_note"
#define PR_K_LATE_RANK_WITH "late_rank_with"

/* ---- runs[].operators[], operators_by_shape[] */
#define PR_K_OPERATORS "operators"
#define PR_K_OPERATORS_BY_SHAPE "operators_by_shape"
#define PR_K_OPERATORS_SOURCE "operators_source"
#define PR_K_OPERATOR_TYPES "operator_types"
#define PR_K_CORE_TYPE "core_type"
#define PR_K_RATIO_PCT "ratio_pct"
#define PR_K_DEVICE_SELF_US "device_self_us"
#define PR_K_DEVICE_TOTAL_US "device_total_us"
#define PR_K_HOST_SELF_US "host_self_us"
#define PR_K_HOST_TOTAL_US "host_total_us"
#define PR_K_TC_ELIGIBLE "tc_eligible"
#define PR_K_TC_SELF_PCT "tc_self_pct"
#define PR_K_TC_TOTAL_PCT "tc_total_pct"
#define PR_K_FLOPS "flops"
#define PR_K_ACHIEVED_TFLOPS "achieved_tflops"
#define PR_K_ACHIEVED_GBPS "achieved_gbps"
#define PR_K_ARITHMETIC_INTENSITY "arithmetic_intensity"
#define PR_K_BOUND "bound"
#define PR_K_ROOFLINE_PCT "roofline_pct"
#define PR_K_ROOFLINE_MARK "roofline_mark"
#define PR_K_ROOFLINE_MARK_SIDE "roofline_mark_side"
#define PR_K_ROOFLINE "roofline"
#define PR_K_ROOFS "roofs"
#define PR_K_LABEL "label"
#define PR_K_NAME_SOURCE "name_source"
#define PR_K_TFLOPS "tflops"
#define PR_K_INPUT_SHAPES "input_shapes"
#define PR_K_INPUT_TYPES "input_types"

/* ---- runs[].kernels[] */
#define PR_K_KERNELS "kernels"
#define PR_K_KERNELS_NOTE "kernels_note"
#define PR_K_OPERATOR "operator"
#define PR_K_TOTAL_US "total_us"
#define PR_K_MEAN_BLOCKS_PER_SM "mean_blocks_per_sm"
#define PR_K_MEAN_EST_ACHIEVED_OCCUPANCY_PCT "mean_est_achieved_occupancy_pct"
#define PR_K_TENSOR_CORES_USED "tensor_cores_used"
#define PR_K_TENSOR_CORES_RULE "tensor_cores_rule"
/* the kernel table's class of the row (kclass.h, issue #28) */
#define PR_K_KFAMILY "family"
#define PR_K_KLIBRARY "library"
#define PR_K_KMATH "math"
#define PR_K_KPRECISION "precision"
#define PR_K_KPRECISION_SOURCE "precision_source"
#define PR_K_KRULE "kernel_rule"
#define PR_K_KFAMILY_SOURCE "family_source"
/* ---- runs[].kernel_classes: kernel time by the table's class */
#define PR_K_KERNEL_CLASSES "kernel_classes"
#define PR_K_BY_FAMILY "by_family"
#define PR_K_BY_MATH "by_math"
#define PR_K_UNKNOWN "unknown"
#define PR_K_CONV_GEMM "conv_gemm"
#define PR_K_LAYOUT_TRANSFORMS "layout_transforms"
#define PR_K_CONV_US "conv_us"
#define PR_K_TIME_PCT "time_pct"
#define PR_K_TOP "top"
#define PR_K_PMU "pmu"
#define PR_K_PMU_BOUND "pmu_bound"
#define PR_K_PMU_HINT "pmu_hint"
#define PR_K_CUBE_UTILIZATION_PCT "cube_utilization_pct"

/* ---- runs[].tensor_cores */
#define PR_K_TENSOR_CORES "tensor_cores"
#define PR_K_TC_KERNEL_TIME_PCT "tc_kernel_time_pct"
#define PR_K_ELIGIBLE_OP_TIME_PCT "eligible_op_time_pct"
#define PR_K_ELIGIBLE_ON_TC_PCT "eligible_on_tc_pct"
#define PR_K_ELIGIBLE_BASIS "eligible_basis"
#define PR_K_FINDINGS "findings"
#define PR_K_DEVICE_US "device_us"
#define PR_K_REASON "reason"
#define PR_K_ADVICE "advice"

/* ---- runs[].memory */
#define PR_K_MEMORY "memory"
#define PR_K_PEAK_ALLOCATED_BYTES "peak_allocated_bytes"
#define PR_K_PEAK_RESERVED_BYTES "peak_reserved_bytes"
#define PR_K_CURVE "curve"
#define PR_K_T_US "t_us"
#define PR_K_ALLOCATED_BYTES "allocated_bytes"
#define PR_K_RESERVED_BYTES "reserved_bytes"
#define PR_K_SIZE_INCREASE_BYTES "size_increase_bytes"
#define PR_K_SELF_SIZE_INCREASE_BYTES "self_size_increase_bytes"
#define PR_K_ALLOCATION_COUNT "allocation_count"
#define PR_K_SELF_ALLOCATION_COUNT "self_allocation_count"
#define PR_K_ALLOCATION_SIZE_BYTES "allocation_size_bytes"
#define PR_K_SELF_ALLOCATION_SIZE_BYTES "self_allocation_size_bytes"

/* ---- runs[].recommendations[] */
#define PR_K_RECOMMENDATIONS "recommendations"
#define PR_K_SEVERITY "severity"
#define PR_K_TEXT "text"
#define PR_K_OBSERVATIONS "observations"

/* ---- distributed */
#define PR_K_WORLD_SIZE "world_size"
#define PR_K_WORKERS "workers"
#define PR_K_COMPUTATION_US "computation_us"
#define PR_K_OVERLAP_US "overlap_us"
#define PR_K_COMMUNICATION_US "communication_us"
#define PR_K_OTHER_US "other_us"
#define PR_K_COMM_OPS "comm_ops"
#define PR_K_TOTAL_BYTES "total_bytes"
#define PR_K_ALGBW_GBPS "algbw_gbps"
#define PR_K_BUSBW_GBPS "busbw_gbps"
#define PR_K_STRAGGLERS "stragglers"

/* ---- our additions (docs/summary-json.md) */
#define PR_K_TIMELINE "timeline"
#define PR_K_STEP "step"
#define PR_K_LANES "lanes"
#define PR_K_SPANS "spans"
#define PR_K_DIAGNOSTICS "diagnostics"
#define PR_K_KIND "kind"
#define PR_K_TRACE_WORKER "trace_worker"
#define PR_K_SPLIT_NOTE "split_note"
#define PR_K_DATA_QUALITY "data_quality"

/* ---- source view (sources.h, issue #16) */
#define PR_K_SOURCES "sources"
#define PR_K_SOURCE_STACKS "source_stacks"
#define PR_K_SOURCE_VIEW "source_view"
#define PR_K_LOCATION "location"
#define PR_K_FILE "file"
#define PR_K_LINE "line"
#define PR_K_FUNCTION "function"
#define PR_K_STACK "stack"
#define PR_K_BACKWARD_CALLS "backward_calls"
#define PR_K_BACKWARD_DEVICE_SELF_US "backward_device_self_us"
#define PR_K_BACKWARD_HOST_SELF_US "backward_host_self_us"
#define PR_K_ORIGIN "origin"
#define PR_K_OPERATORS_WITH_STACK "operators_with_stack"
#define PR_K_BACKWARD_OPERATORS "backward_operators"
#define PR_K_OPERATORS_DEVICE_SELF_US "operators_device_self_us"
#define PR_K_OPERATORS_HOST_SELF_US "operators_host_self_us"
#define PR_K_SKIPPED_FRAMES "skipped_frames"
#define PR_K_RULE "rule"
#define PR_K_FRAMES "frames"
#define PR_K_EXAMPLE "example"
#define PR_K_NOTE "note"
#define PR_K_FWD_BWD "fwd_bwd"
#define PR_K_FORWARD "forward"
#define PR_K_BACKWARD "backward"
#define PR_K_FORWARD_DEVICE_US "forward_device_us"
#define PR_K_BACKWARD_DEVICE_US "backward_device_us"

/* ---- roofline by layer (layers.h, issue #16) */
#define PR_K_LAYERS "layers"
#define PR_K_LAYER_VIEW "layer_view"
#define PR_K_FLOPS_SOURCE "flops_source"
#define PR_K_ROOF "roof"
#define PR_K_DTYPE "dtype"
#define PR_K_FORWARD_FLOPS "forward_flops"
#define PR_K_BACKWARD_FLOPS "backward_flops"
#define PR_K_FORWARD_FLOPS_SOURCE "forward_flops_source"
#define PR_K_BACKWARD_FLOPS_SOURCE "backward_flops_source"
#define PR_K_FORWARD_BYTES "forward_bytes"
#define PR_K_BACKWARD_BYTES "backward_bytes"
#define PR_K_FORWARD_ACHIEVED_TFLOPS "forward_achieved_tflops"
#define PR_K_BACKWARD_ACHIEVED_TFLOPS "backward_achieved_tflops"
#define PR_K_FORWARD_ARITHMETIC_INTENSITY "forward_arithmetic_intensity"
#define PR_K_BACKWARD_ARITHMETIC_INTENSITY "backward_arithmetic_intensity"
#define PR_K_FORWARD_BOUND "forward_bound"
#define PR_K_BACKWARD_BOUND "backward_bound"
#define PR_K_ROWS_OMITTED "rows_omitted"
#define PR_K_BACKWARD_ROOTS "backward_roots"
#define PR_K_BACKWARD_UNPAIRED "backward_unpaired"

/* ---- module view (modules.h, issue #16) */
#define PR_K_MODULES "modules"
#define PR_K_MODULE_TYPES "module_types"
#define PR_K_MODULE_VIEW "module_view"
#define PR_K_INSTANCES "instances"
#define PR_K_AVG_DURATION_US "avg_duration_us"

/* ---- host and device (hostdev.h, issue #11) */
#define PR_K_TEMPORAL_BREAKDOWN "temporal_breakdown"
#define PR_K_SPAN_US "span_us"
#define PR_K_WINDOW "window"
#define PR_K_WINDOW_STEPS "window_steps"
#define PR_K_DEVICE_SPAN_US "device_span_us"
#define PR_K_DEVICE_SPAN_IDLE_US "device_span_idle_us"
#define PR_K_DEVICE_SPAN_IDLE_PCT "device_span_idle_pct"
#define PR_K_COMPUTE_US "compute_us"
#define PR_K_MEMORY_US "memory_us"
#define PR_K_IDLE_US "idle_us"
#define PR_K_COMPUTE_PCT "compute_pct"
#define PR_K_COMMUNICATION_PCT "communication_pct"
#define PR_K_MEMORY_PCT "memory_pct"
#define PR_K_IDLE_PCT "idle_pct"
#define PR_K_IDLE_HOST_WAIT_US "idle_host_wait_us"
#define PR_K_IDLE_KERNEL_WAIT_US "idle_kernel_wait_us"
#define PR_K_IDLE_OTHER_US "idle_other_us"
#define PR_K_IDLE_AFTER_SYNC_US "idle_after_sync_us"
#define PR_K_IDLE_DATALOADER_US "idle_dataloader_us"
#define PR_K_IDLE_DATALOADER_PCT "idle_dataloader_pct"
#define PR_K_HOST_COPY_PCT "host_copy_pct"
#define PR_K_OPERATIONS "operations"
#define PR_K_SYNCHRONIZATION "synchronization"
#define PR_K_HOST_US "host_us"
#define PR_K_GPU_IDLE_US "gpu_idle_us"
#define PR_K_OUTSIDE_STEPS_COUNT "outside_steps_count"
#define PR_K_OUTSIDE_STEPS_HOST_US "outside_steps_host_us"
#define PR_K_DDP_LOGGING_COUNT "ddp_logging_count"
#define PR_K_CUDNN_SEARCH_COUNT "cudnn_search_count"
#define PR_K_CUDNN_SEARCH_IDLE_US "cudnn_search_idle_us"
#define PR_K_COPIES "copies"
#define PR_K_BY_KIND "by_kind"
#define PR_K_DIRECTION "direction"
#define PR_K_HOST_MEMORY "host_memory"
#define PR_K_WITHOUT_BYTES_COUNT "without_bytes_count"
#define PR_K_BEFORE_FIRST_KERNEL_COUNT "before_first_kernel_count"
#define PR_K_GBPS "gbps"
#define PR_K_LINK "link"
#define PR_K_LINK_GBPS "link_gbps"
#define PR_K_LINK_PCT "link_pct"
#define PR_K_LAUNCHES "launches"
#define PR_K_KERNELS_WITH_LAUNCH "kernels_with_launch"
#define PR_K_LAUNCH_DELAY_US "launch_delay_us"
#define PR_K_TASK_QUEUE_WAIT_US "task_queue_wait_us"
#define PR_K_MEAN "mean"
#define PR_K_MEDIAN "median"
#define PR_K_P90 "p90"
#define PR_K_STARTED_BEFORE_CALL_END "started_before_call_end"
#define PR_K_MAX "max"
#define PR_K_QUEUE_LENGTH "queue_length"
#define PR_K_STREAM "stream"
#define PR_K_GRAPH_LAUNCHES "graph_launches"
#define PR_K_GRAPH_KERNELS "graph_kernels"
#define PR_K_GRAPH_FILLS "graph_fills"
#define PR_K_GRAPH_COPIES "graph_copies"
#define PR_K_CUDA_GRAPHS "cuda_graphs"
#define PR_K_GRAPH_CAPTURES "graph_captures"
#define PR_K_GPU_IDLE_HOST_WAIT_PCT "gpu_idle_host_wait_pct"

/* ---- runs[].host_cpu (host_cpu.h, issue #13) */
#define PR_K_HOST_CPU "host_cpu"
#define PR_K_HOST_COVERAGE "host_coverage"
#define PR_K_WALL_US "wall_us"
#define PR_K_IN_FLIGHT_MAX "in_flight_max"
#define PR_K_WALL_GBPS "wall_gbps"
/* communication.ops[]: time against size (review-5 finding 3) */
#define PR_K_SMALL_CALLS "small_calls"
#define PR_K_SMALL_BYTES "small_bytes"
#define PR_K_SMALL_US "small_us"
#define PR_K_LARGE_CALLS "large_calls"
#define PR_K_LARGE_BYTES "large_bytes"
#define PR_K_LARGE_US "large_us"
/* runs[].communication (protocol_note), its ops[] */
#define PR_K_PROTOCOL_NOTE "protocol_note"
#define PR_K_SIZE_NOTE "size_note"
#define PR_K_KERNEL_PROTOCOL "kernel_protocol"
/* communication.ops[], distributed.comm_ops[]: calls partly sized (review
   22g #4) */
#define PR_K_SIZED_CALLS "sized_calls"
#define PR_K_SIZED_BYTES "sized_bytes"
#define PR_K_BW_CALLS "bw_calls"
#define PR_K_BW_US "bw_us"
#define PR_K_SIZED_NOTE "sized_note"
#define PR_K_UNRECORDED_PCT "unrecorded_pct"
#define PR_K_UNRECORDED_US "unrecorded_us"
#define PR_K_PYTHON_PCT "python_pct"
#define PR_K_PYTHON_FRAMES "python_frames"
#define PR_K_KEPT_EVENTS_PCT "kept_events_pct"
#define PR_K_NVTX_OPS "nvtx_ops"
#define PR_K_KERNEL_CALLS "kernel_calls"
#define PR_K_SAMPLES "samples"
#define PR_K_WINDOW_SAMPLES "window_samples"
#define PR_K_SAMPLING_INTERVAL_MS "sampling_interval_ms"
#define PR_K_CPUS "cpus"
#define PR_K_MACHINE "machine"
#define PR_K_PROCESS "process"
#define PR_K_OPS "ops"
#define PR_K_OP_ID "op_id"
#define PR_K_OP_TYPE "op_type"
#define PR_K_USER_PCT "user_pct"
#define PR_K_SYS_PCT "sys_pct"
#define PR_K_IO_PCT "io_pct"
#define PR_K_BUSY_PCT "busy_pct"
#define PR_K_BUSY_MAX_PCT "busy_max_pct"
#define PR_K_PER_WORKER_PCT "per_worker_pct"
#define PR_K_READING "reading"

/* ---- memory at the peak (memory.h, issue #11) */
#define PR_K_TOP_ALLOCATORS_AT_PEAK "top_allocators_at_peak"
#define PR_K_PEAK_STEP "peak_step"
#define PR_K_TOP_ALLOCATORS_NOTE "top_allocators_note"
#define PR_K_LIVE_BYTES "live_bytes"
#define PR_K_TENSORS "tensors"
#define PR_K_LIVE_AT_PEAK_BYTES "live_at_peak_bytes"
#define PR_K_LIVE_AT_PEAK_OUTSIDE_OPERATORS_BYTES                              \
    "live_at_peak_outside_operators_bytes"
#define PR_K_LIVE_AT_PEAK_UNTRACED_BYTES "live_at_peak_untraced_bytes"
#define PR_K_CURVE_ALLOCATOR "curve_allocator"
#define PR_K_PEAK_ALLOCATOR "peak_allocator"

/* ---- keys written before the schema named them (schema.def): by the
 * first object that has them */
/* (top) */
#define PR_K_JOB "job"
#define PR_K_JOBS "jobs"
#define PR_K_RANK_FORM "rank_form"
/* runs[] */
#define PR_K_WORLD_SIZE_SOURCE "world_size_source"
#define PR_K_WORLD_SIZE_BOUND "world_size_bound"
#define PR_K_WORLD_SIZE_NOTE "world_size_note"
#define PR_K_DEVICE_KIND "device_kind"
#define PR_K_DEVICE_NOT_RECORDED "device_not_recorded"
#define PR_K_PROFILER_LEVEL "profiler_level"
#define PR_K_ITERATIONS_NOTE "iterations_note"
#define PR_K_FRAMEWORK "framework"
#define PR_K_BLOCK_DIM "block_dim"
#define PR_K_STEP_PHASES "step_phases"
#define PR_K_HCCL "hccl"
#define PR_K_NPU_MEMORY "npu_memory"
#define PR_K_FORM "form"
/* runs[].devices[] */
#define PR_K_PEAK_REFERENCE "peak_reference"
#define PR_K_CLOCK_MHZ "clock_mhz"
#define PR_K_PEAK_SCALE "peak_scale"
#define PR_K_PEAK_HALF_RATE "peak_half_rate"
#define PR_K_PEAK_GBPS_SOURCE "peak_gbps_source"
/* runs[].devices[].peak_tflops */
#define PR_K_FP8_TENSOR "fp8_tensor"
#define PR_K_INT8_TENSOR "int8_tensor"
#define PR_K_FP32_MATRIX "fp32_matrix"
#define PR_K_FP4_TENSOR "fp4_tensor"
/* runs[].step_summary */
#define PR_K_BREAKDOWN_STEPS "breakdown_steps"
/* runs[].gpu_metrics[] */
#define PR_K_COMPUTE_UTILIZATION_PCT "compute_utilization_pct"
#define PR_K_UTILIZATION_SERIES "utilization_series"
/* runs[].gpu_metrics[].utilization_series */
#define PR_K_BUCKET_US "bucket_us"
/* runs[].operators[] */
#define PR_K_HOST_COPY_US "host_copy_us"
#define PR_K_HOST_COPY_BYTES "host_copy_bytes"
#define PR_K_OTHER_ROWS "other_rows"
/* runs[].kernels[] */
#define PR_K_OCCUPANCY_SOURCE "occupancy_source"
#define PR_K_TENSOR_CORES_SOURCE "tensor_cores_source"
/* runs[].tensor_cores */
#define PR_K_TC_HEURISTIC_KERNEL_TIME_PCT "tc_heuristic_kernel_time_pct"
#define PR_K_TC_COMPUTE_KERNEL_TIME_PCT "tc_compute_kernel_time_pct"
#define PR_K_FINDINGS_OMITTED "findings_omitted"
/* runs[].tensor_cores.findings[] */
#define PR_K_REASON_ID "reason_id"
#define PR_K_ON_CUBE_PCT "on_cube_pct"
#define PR_K_AIC_MTE2_RATIO "aic_mte2_ratio"
#define PR_K_EVIDENCE_KERNEL "evidence_kernel"
/* runs[].memory */
#define PR_K_UNKNOWN_DEVICE_RECORDS "unknown_device_records"
/* runs[].memory.devices[] */
#define PR_K_PEAK_INCREASE_BYTES "peak_increase_bytes"
#define PR_K_PEAK_AT_US "peak_at_us"
#define PR_K_CURVE_BASIS "curve_basis"
#define PR_K_ALLOCATIONS "allocations"
#define PR_K_FREES "frees"
#define PR_K_UNATTRIBUTED_ALLOCATIONS "unattributed_allocations"
#define PR_K_UNMATCHED_FREES "unmatched_frees"
/* runs[].recommendations[] */
#define PR_K_GAIN_NOTE "gain_note"
#define PR_K_BOUND_US "bound_us"
#define PR_K_GAIN_BASIS "gain_basis"
#define PR_K_GAIN_SOURCE "gain_source"
#define PR_K_DTOD_BY_OPERATOR "dtod_by_operator"
#define PR_K_WHAT_IF "what_if"
/* runs[].critical_path.what_if[] */
#define PR_K_RULE_MISSES "rule_misses"
#define PR_K_OPTIMIZER_PCT "optimizer_pct"
#define PR_K_OPTIMIZER "optimizer"
#define PR_K_GEMM_FED_PCT "gemm_fed_pct"
#define PR_K_FUSIBLE_FED_PCT "fusible_fed_pct"
#define PR_K_COPY_FED_PCT "copy_fed_pct"
#define PR_K_FSDP_PCT "fsdp_pct"
#define PR_K_FSDP_BACKWARD_PCT "fsdp_backward_pct"
#define PR_K_FSDP_PATH_PCT "fsdp_path_pct"
#define PR_K_FSDP_CALLS "fsdp_calls"
#define PR_K_FSDP_RANGES "fsdp_ranges"
#define PR_K_RECURRING_CALLS "recurring_calls"
/* runs[].data_quality */
#define PR_K_SKIPPED_NO_DUR "skipped_no_dur"
#define PR_K_SKIPPED_BAD_TS "skipped_bad_ts"
#define PR_K_NEGATIVE_DUR "negative_dur"
#define PR_K_UNKNOWN_CAT "unknown_cat"
#define PR_K_NON_OBJECT "non_object"
#define PR_K_INVALID_UTF8 "invalid_utf8"
#define PR_K_LONG_TEXT_CUT "long_text_cut"
#define PR_K_KERNEL_TIME_WITHOUT_OPERATOR_PCT "kernel_time_without_operator_pct"
#define PR_K_CRITICAL_PATH_REPLAY_ERROR_PCT "critical_path_replay_error_pct"
#define PR_K_REPLAYED_KERNELS "replayed_kernels"
/* runs[].timeline */
#define PR_K_MERGE_BELOW_US "merge_below_us"
#define PR_K_N_EVENTS "n_events"
/* runs[].fwd_bwd[] */
#define PR_K_FORWARD_HOST_US "forward_host_us"
#define PR_K_BACKWARD_HOST_US "backward_host_us"
/* runs[].modules[] */
#define PR_K_MODULE_ID "module_id"
/* runs[].module_view */
#define PR_K_MODULE_CALLS "module_calls"
/* runs[].roofline.roofs[] */
#define PR_K_KEY "key"
/* runs[].block_dim */
#define PR_K_AI_CORES "ai_cores"
#define PR_K_VECTOR_CORES "vector_cores"
#define PR_K_CORES_SOURCE "cores_source"
#define PR_K_DEVICE_ENTRY "device_entry"
#define PR_K_DEVICE_ENTRY_GUESS "device_entry_guess"
#define PR_K_COMMON_BLOCK_DIM "common_block_dim"
#define PR_K_COMMON_VECTOR_BLOCK_DIM "common_vector_block_dim"
#define PR_K_COMPARED_WITH "compared_with"
#define PR_K_TASK_US "task_us"
#define PR_K_LOW_US "low_us"
#define PR_K_LOW_PCT "low_pct"
/* runs[].block_dim.operators[] */
#define PR_K_MIN_BLOCK_DIM "min_block_dim"
#define PR_K_MAX_BLOCK_DIM "max_block_dim"
#define PR_K_CORES "cores"
#define PR_K_TIME_RATIO_ALL_CORES "time_ratio_all_cores"
/* runs[].layers[] */
#define PR_K_BYTES_SOURCE "bytes_source"
#define PR_K_FORWARD_BYTES_SOURCE "forward_bytes_source"
#define PR_K_FORWARD_ACHIEVED_GBPS "forward_achieved_gbps"
#define PR_K_BACKWARD_BYTES_SOURCE "backward_bytes_source"
#define PR_K_BACKWARD_ACHIEVED_GBPS "backward_achieved_gbps"
/* runs[].layer_view */
#define PR_K_ROWS "rows"
/* runs[].communication */
#define PR_K_COMPUTATION_BASIS "computation_basis"
#define PR_K_PER_STEP "per_step"
#define PR_K_LINKS "links"
#define PR_K_LINK_TYPES "link_types"
#define PR_K_KERNEL_TIMES "kernel_times"
#define PR_K_CLOCK_US "clock_us"
#define PR_K_GROUPS "groups"
#define PR_K_END_US "end_us"
/* runs[].communication.ops[] */
#define PR_K_BACKEND "backend"
#define PR_K_TIMED_CALLS "timed_calls"
#define PR_K_GROUP_SIZE "group_size"
/* runs[].communication.links[] */
#define PR_K_GROUP "group"
#define PR_K_SRC_RANK "src_rank"
#define PR_K_DST_RANK "dst_rank"
#define PR_K_TRANSPORT "transport"
#define PR_K_TIME_US "time_us"
#define PR_K_BANDWIDTH_GBPS "bandwidth_gbps"
/* runs[].step_phases */
#define PR_K_SOURCE "source"
#define PR_K_MEAN_SKIPPED_STEPS "mean_skipped_steps"
#define PR_K_PARALLEL_MODE "parallel_mode"
#define PR_K_PIPELINE_STAGES "pipeline_stages"
/* runs[].step_phases.steps[] */
#define PR_K_COMPUTING_US "computing_us"
#define PR_K_COMMUNICATION_NOT_OVERLAPPED_US "communication_not_overlapped_us"
#define PR_K_OVERLAPPED_US "overlapped_us"
#define PR_K_FREE_US "free_us"
#define PR_K_STAGE_US "stage_us"
#define PR_K_BUBBLE_US "bubble_us"
#define PR_K_COMMUNICATION_NOT_OVERLAPPED_EXCLUDE_RECEIVE_US                   \
    "communication_not_overlapped_exclude_receive_us"
#define PR_K_PREPARING_US "preparing_us"
/* runs[].hccl */
#define PR_K_ROWS_LEFT_OUT "rows_left_out"
/* runs[].hccl.ops[] */
#define PR_K_COLLECTIVE "collective"
#define PR_K_ELAPSE_US "elapse_us"
#define PR_K_TRANSIT_US "transit_us"
#define PR_K_WAIT_US "wait_us"
#define PR_K_SYNCHRONIZATION_US "synchronization_us"
#define PR_K_WAIT_RATIO "wait_ratio"
#define PR_K_TRANSIT_BANDWIDTH_GBPS "transit_bandwidth_gbps"
#define PR_K_RATED_CALLS "rated_calls"
#define PR_K_RATED_BYTES "rated_bytes"
#define PR_K_TRANSIT_ZERO_CALLS "transit_zero_calls"
#define PR_K_TRANSIT_ZERO_BYTES "transit_zero_bytes"
#define PR_K_TRANSIT_ZERO_SMALL_CALLS "transit_zero_small_calls"
#define PR_K_GROUP_TAG "group_tag"
#define PR_K_LINK_TYPE "link_type"
#define PR_K_LINK_BANDWIDTH_GBPS "link_bandwidth_gbps"
/* runs[].npu_memory */
#define PR_K_COMPONENTS "components"
/* runs[].npu_memory.components[] */
#define PR_K_COMPONENT "component"
/* runs[].op_compile */
#define PR_K_STEP_PCT "step_pct"
#define PR_K_COMPILE_US "compile_us"
/* runs[].synchronization */
#define PR_K_METHOD "method"
/* runs[].copies.by_kind[] */
#define PR_K_HOST_CALL_US "host_call_us"
/* runs[].launches */
#define PR_K_SLOWEST_LAUNCH "slowest_launch"
/* runs[].launches.slowest_launch */
#define PR_K_DELAY_US "delay_us"
/* runs[].critical_path */
#define PR_K_SERIAL_STREAMS "serial_streams"
#define PR_K_REPLAY_ERROR_RECORDED_PCT "replay_error_recorded_pct"
#define PR_K_REPLAY_ERROR_NOTE "replay_error_note"
#define PR_K_WHAT_IF_STEPS "what_if_steps"
/* runs[].critical_path.what_if[] */
#define PR_K_CHANGE "change"
#define PR_K_STEP_US "step_us"
/* runs[].critical_path.steps[] */
#define PR_K_UNRECORDED_TAIL_US "unrecorded_tail_us"
#define PR_K_UNRECORDED_LEAD_US "unrecorded_lead_us"
/* runs[].critical_path.steps[].kernel_family_us */
#define PR_K_GEMM "gemm"
#define PR_K_EMBEDDING "embedding"
#define PR_K_CONV "conv"
#define PR_K_ATTENTION "attention"
#define PR_K_ELEMENTWISE "elementwise"
#define PR_K_REDUCTION "reduction"
#define PR_K_NORM "norm"
/* runs[].verdict */
#define PR_K_NO_FINDING "no_finding"
#define PR_K_STARTUP_NOTE "startup_note"
/* runs[].verdict.findings[] */
#define PR_K_HREF_FINDING "href_finding"
#define PR_K_HREF_EVIDENCE "href_evidence"
#define PR_K_SAVES "saves"
#define PR_K_OF_STEP "of_step"
#define PR_K_BOUND_PCT "bound_pct"
/* runs[].copies.graph_wrapper */
#define PR_K_GRAPH_WRAPPER "graph_wrapper"
#define PR_K_INPUT_COPIES "input_copies"
#define PR_K_INPUT_BYTES "input_bytes"
#define PR_K_INPUT_US "input_us"
#define PR_K_OUTPUT_COPIES "output_copies"
#define PR_K_OUTPUT_BYTES "output_bytes"
#define PR_K_OUTPUT_US "output_us"
#define PR_K_BACKWARD_INPUT_BYTES "backward_input_bytes"
#define PR_K_BACKWARD_OUTPUT_BYTES "backward_output_bytes"
/* distributed */
#define PR_K_RANKS_PRESENT "ranks_present"
#define PR_K_RANKS_COMPLETE "ranks_complete"
#define PR_K_WORLD_SIZE_AT_LEAST "world_size_at_least"
#define PR_K_COVERAGE_NOTE "coverage_note"
#define PR_K_STEP_COUNT_MISMATCH "step_count_mismatch"
#define PR_K_PIPELINE "pipeline"
#define PR_K_LINK_GROUPS "link_groups"
/* distributed.pipeline */
#define PR_K_STAGES "stages"
#define PR_K_SLOWEST_STAGE "slowest_stage"
#define PR_K_FINDING "finding"
/* distributed.pipeline.stages[] */
#define PR_K_RANKS "ranks"
#define PR_K_P2P_WAIT_US "p2p_wait_us"
#define PR_K_SLOWEST_RANK "slowest_rank"
#define PR_K_P2P_IDLE_US "p2p_idle_us"
#define PR_K_TOP_REST_US "top_rest_us"
#define PR_K_TOP_REST_PARTS "top_rest_parts"
#define PR_K_P2P_OP "p2p_op"
#define PR_K_CROSS_STAGE_WAITS "cross_stage_waits"
#define PR_K_PEER_RANK "peer_rank"
#define PR_K_PEER_ELAPSE_US "peer_elapse_us"
/* job */
#define PR_K_SLOWEST_BASIS "slowest_basis"
#define PR_K_SLOWEST_BY "slowest_by"
#define PR_K_SLOWEST "slowest"
/* job.slowest's meaning: the least spread of the ranks' mean steps, in %
 * of the median, that names a slowest rank (docs/summary-json.md, "job"):
 * under it the ranks of one synchronous job differ by where their step
 * markers fall, not by work (they end each step together at its
 * collectives); the analysis applies it, the renderers word it */
#define PR_JOB_SPREAD_FLOOR_PCT 0.5
#define PR_K_SLOWEST_BY_MEAN "slowest_by_mean"
#define PR_K_PER_RANK "per_rank"
#define PR_K_OPERATORS_TOTAL "operators_total"
#define PR_K_KERNELS_TOTAL "kernels_total"
#define PR_K_HEATMAP "heatmap"
/* job.step_us */
#define PR_K_RANKS_WITH_STEPS "ranks_with_steps"
#define PR_K_RANKS_FIRST_STEP_EXCLUDED "ranks_first_step_excluded"
#define PR_K_SPREAD_PCT "spread_pct"
/* job.slowest */
#define PR_K_RUN "run"
#define PR_K_VS_MEDIAN_PCT "vs_median_pct"
/* job.per_rank[] */
#define PR_K_FIRST_STEP_EXCLUDED "first_step_excluded"
#define PR_K_RUN_MEAN_US "run_mean_us"
#define PR_K_FIRST_STEP_WARMUP "first_step_warmup"
/* job.operators[] */
#define PR_K_CALLS_MEAN "calls_mean"
#define PR_K_MEAN_DEVICE_SELF_US "mean_device_self_us"
#define PR_K_MIN_DEVICE_SELF_US "min_device_self_us"
#define PR_K_MAX_DEVICE_SELF_US "max_device_self_us"
#define PR_K_MAX_WORKER "max_worker"
#define PR_K_MEAN_HOST_SELF_US "mean_host_self_us"
/* job.kernels[] */
#define PR_K_MEAN_TOTAL_US "mean_total_us"
#define PR_K_MIN_TOTAL_US "min_total_us"
#define PR_K_MAX_TOTAL_US "max_total_us"
/* job.heatmap */
#define PR_K_REDUCE "reduce"
#define PR_K_RUNS_PER_ROW "runs_per_row"
#define PR_K_STEPS_PER_COLUMN "steps_per_column"
#define PR_K_VALUES_US "values_us"
/* rank_form */
#define PR_K_SHARE_PCT "share_pct"
#define PR_K_DETAIL_RANKS "detail_ranks"
#define PR_K_FULL_RUNS "full_runs"
#define PR_K_RANK_FORM_RUNS "rank_form_runs"

/* A category of the step breakdown or of the distributed overlap view:
 * its key in the summary, the label reports show, and its colour
 * (0xRRGGBB, colour-blind safe), so a category looks the same in every
 * chart, table and report. */
struct pr_category {
    const char *key;
    const char *label;
    uint32_t color;
};

/* The values of gain_basis (runs[].recommendations[], verdict.findings[]):
 * the same work a step shorter, or a step's worth of samples with the
 * batch changed (twice the batch, accumulation), which ranks after the
 * same-batch gains and reads "at 2x batch", or a one-time cost the
 * capture paid once (cold_step's first-use costs: not saved on every step
 * of a long run; review 27 #8). */
#define PR_GAIN_PER_STEP "step"
#define PR_GAIN_PER_SAMPLES "samples"
#define PR_GAIN_ONE_TIME "one_time"
/* A capture whose cold_step what-if saves this share or more is cold
 * (whatif.h's PR_WHATIF_COLD_PCT): its other gains are not claimed and
 * twice the batch has no row, which the What-if table says. */
#define PR_COLD_CAPTURE_PCT 20.0
/* gain_source: a what-if replay of the step's graph, or a stated model
 * (a pipeline's balance, a step trace's interval) its evidence names */
#define PR_GAIN_REPLAY "replay"
#define PR_GAIN_MODEL "model"

#define PR_N_BREAKDOWN 8
#define PR_N_OVERLAP 4

/* The keys of breakdown_us, in the summary's order: kernel, memcpy,
 * memset, communication, runtime, dataloader, cpu_exec, other. */
extern const struct pr_category pr_keys_breakdown[PR_N_BREAKDOWN];

/* The kinds of a critical path (critical_path.steps[].by_kind_us). */
#define PR_N_CRITICAL_PATH 11
extern const struct pr_category pr_keys_critical_path[PR_N_CRITICAL_PATH];

/* Computation, overlap, communication, other (distributed.workers[]). */
extern const struct pr_category pr_keys_overlap[PR_N_OVERLAP];

/* The breakdown category with this key, or NULL. */
const struct pr_category *pr_keys_category(const char *key);

/* ---- this session's keys: step_trace (MindSpore), job device kinds,
 * the producer's split (issue #30, third review) */
#define PR_K_METHOD_PRODUCER "method_producer"
#define PR_K_SPLIT_SOURCE "split_source"
#define PR_K_COMM_OVERLAP_PCT "comm_overlap_pct"
#define PR_K_DEVICE_KINDS "device_kinds"
#define PR_K_MIXED_DEVICES_NOTE "mixed_devices_note"
#define PR_K_HAS_STEPS "has_steps"
#define PR_K_IN_SPREAD "in_spread"
#define PR_K_MATMUL_DTYPE_UNKNOWN_PCT "matmul_dtype_unknown_pct"
/* NPU: fp32-typed matmul/conv time whose HF32 no finding judged */
#define PR_K_FP32_HF32_UNKNOWN_US "fp32_hf32_unknown_us"
#define PR_K_STEP_TRACE "step_trace"
#define PR_K_STEPS_IN_FILE "steps_in_file"
#define PR_K_TASKS "tasks"
#define PR_K_COMPUTE_TASKS "compute_tasks"
#define PR_K_STEPS_WITH_TASKS "steps_with_tasks"
#define PR_K_FILE_MEDIAN "file_median"
#define PR_K_ITERATION_INTERVAL_US "iteration_interval_us"
#define PR_K_FP_AND_BP_US "fp_and_bp_us"
#define PR_K_TAIL_US "tail_us"
#define PR_K_FP_AND_BP_TASKS_US "fp_and_bp_tasks_us"
#define PR_K_TAIL_TASKS_US "tail_tasks_us"
/* ---- torch.profiler's raw memory timeline (memtl.h): runs[].memory_timeline
 */
#define PR_K_MEMORY_TIMELINE "memory_timeline"
#define PR_K_POINTS "points"
#define PR_K_ROWS_PREEXISTING "rows_preexisting"
#define PR_K_ROWS_CREATE "rows_create"
#define PR_K_ROWS_INCREMENT_VERSION "rows_increment_version"
#define PR_K_ROWS_DESTROY "rows_destroy"
#define PR_K_PEAK_BYTES "peak_bytes"
#define PR_K_CURVE_T_US "curve_t_us"
#define PR_K_CATEGORIES "categories"
#define PR_K_AT_PEAK_BYTES "at_peak_bytes"
#define PR_K_AT_PEAK_PCT "at_peak_pct"
#define PR_K_MAX_BYTES "max_bytes"
#define PR_K_CURVE_BYTES "curve_bytes"

/* ---- runs[].data_pipeline (mindspore_minddata.c, review 15 #8) */
#define PR_K_DATA_PIPELINE "data_pipeline"
#define PR_K_PIPELINE_OPS "pipeline_ops"
#define PR_K_FEEDING_OP "feeding_op"
#define PR_K_FEEDING_QUEUE_USAGE_PCT "feeding_queue_usage_pct"
#define PR_K_FEEDING_QUEUE_EMPTY_PCT "feeding_queue_empty_pct"
#define PR_K_FEEDING_QUEUE_SAMPLES "feeding_queue_samples"
#define PR_K_EMPTY_QUEUE_OPS "empty_queue_ops"
#define PR_K_LEAF_OP "leaf_op"
#define PR_K_LEAF_QUEUE_USAGE_PCT "leaf_queue_usage_pct"
#define PR_K_LEAF_WORKERS "leaf_workers"
#define PR_K_QUEUES "queues"
#define PR_K_CONFLICT "conflict"
#define PR_K_BOTTLENECK "bottleneck"
#define PR_K_BOTTLENECK_NOTE "bottleneck_note"
#define PR_K_DEVICE_QUEUE_RECORDS "device_queue_records"
#define PR_K_DEVICE_QUEUE_BATCHES "device_queue_batches"
#define PR_K_DEVICE_QUEUE_EMPTY "device_queue_empty"
#define PR_K_DEVICE_QUEUE_FULL "device_queue_full"
#define PR_K_GET_NEXT_BATCHES "get_next_batches"
#define PR_K_GET_NEXT_EMPTY "get_next_empty"
#define PR_K_GET_NEXT_WAIT_US "get_next_wait_us"

#endif
