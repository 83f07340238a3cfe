// Probes whose arguments are tracepoint fields and whose thread is a task
// the context points to (core/fastpath/probe_context.h): what translates,
// what is refused with which reason, and the code that reads them.
#include "compiled_clauses.h"

using namespace dtrace;

namespace {

// A tracepoint's probe: args[0] a signed int at 8, args[1] an unsigned
// short at 12, args[2] a string (not in the kernel), 3 arguments.
fastpath::ProbeShape tracepoint_shape() {
    fastpath::ProbeShape shape;
    shape.nargs = 3;
    shape.context.flags = DTRACE_FASTPATH_ARG_FIELDS;
    shape.context.args = {fastpath::arg_field(8, 4, true), fastpath::arg_field(12, 2)};
    return shape;
}

// sched:::on-cpu's: the thread is the raw sched_switch's `next` (word 2).
fastpath::ProbeShape on_cpu_shape(bool offsets_known) {
    fastpath::ProbeShape shape;
    shape.nargs = DTRACE_FASTPATH_MAX_ARG_FIELDS;
    shape.context.flags = DTRACE_FASTPATH_ARG_FIELDS | DTRACE_FASTPATH_THREAD_TASK | DTRACE_FASTPATH_RAW_TRACEPOINT;
    shape.context.thread_task_offset = 16;
    if (offsets_known) {
        shape.task_tgid = 100;
        shape.task_real_parent = 108;
        shape.task_exec_runtime = 116;
        shape.context.task_pid = 96;
        shape.context.task_comm = 200;
        shape.context.task_cred = 216;
        shape.context.cred_uid = 8;
        shape.context.cred_gid = 12;
    }
    return shape;
}

// Whether the program of `source` at `shape` holds instruction `code` with the given immediate.
bool has_instruction(const std::string &source, const fastpath::ProbeShape &shape, uint8_t code, int32_t imm) {
    auto program = test::compile_d(source);
    fastpath::MapPlan plan;
    const fastpath::ProbeIdentity probe = test::test_probe(*program);
    for (uint64_t word : fastpath::build_program(plan, shape, test::clauses_of(*program), &probe))
        if (static_cast<uint8_t>(word) == code && static_cast<int32_t>(word >> 32) == imm)
            return true;
    return false;
}

} // namespace

TEST(FastpathProbeContext, IntegerFieldsTranslateAndStringsAreRefused) {
    EXPECT_EQ(test::refusal_of("a:::b /args[0] < 0/ { @[args[1], arg0] = count(); }", tracepoint_shape()),
              std::nullopt);
    // Past the probe's arguments, 0 as in user space.
    EXPECT_EQ(test::refusal_of("a:::b { @[arg5] = count(); }", tracepoint_shape()), std::nullopt);
    EXPECT_EQ(test::refusal_of("a:::b { @[arg2] = count(); }", tracepoint_shape()),
              "arg2 of this probe is not available in the kernel path (the plugin reads it in user space: a string, "
              "user memory, a value it builds)");
    fastpath::ProbeShape many = tracepoint_shape();
    many.nargs = 12; // arguments past the table's 10 are not described
    EXPECT_NE(test::refusal_of("a:::b { @[args[11]] = count(); }", many), std::nullopt);
}

TEST(FastpathProbeContext, SignedFieldsAreSignExtended) {
    const uint8_t lsh = fastpath::bpf::kAlu64 | fastpath::bpf::kK | fastpath::bpf::kLsh;
    const uint8_t arsh = fastpath::bpf::kAlu64 | fastpath::bpf::kK | fastpath::bpf::kArsh;
    EXPECT_TRUE(has_instruction("a:::b { @[arg0] = count(); }", tracepoint_shape(), arsh, 32));
    EXPECT_TRUE(has_instruction("a:::b { @[arg0] = count(); }", tracepoint_shape(), lsh, 32));
    EXPECT_FALSE(has_instruction("a:::b { @[arg1] = count(); }", tracepoint_shape(), arsh, 48));
}

TEST(FastpathProbeContext, AnotherTasksBuiltinsNeedItsOffsets) {
    const std::string clause = "a:::b /pid != 0/ { @[execname, tid, uid, gid, ppid] = max(vtimestamp); }";
    EXPECT_EQ(test::refusal_of(clause, on_cpu_shape(true)), std::nullopt);
    const std::optional<std::string> refused = test::refusal_of(clause, on_cpu_shape(false));
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find("of this probe's thread is not available in the kernel path"), std::string::npos)
        << *refused;
    // The current task's helpers are not called for the thread's builtins.
    const uint8_t call = fastpath::bpf::kJmp | fastpath::bpf::kCall;
    EXPECT_FALSE(has_instruction(clause, on_cpu_shape(true), call, int32_t(fastpath::bpf::Helper::GetCurrentComm)));
    EXPECT_FALSE(has_instruction(clause, on_cpu_shape(true), call, int32_t(fastpath::bpf::Helper::GetCurrentPidTgid)));
    EXPECT_FALSE(has_instruction(clause, on_cpu_shape(true), call, int32_t(fastpath::bpf::Helper::GetCurrentTask)));
    EXPECT_TRUE(
        has_instruction("a:::b { @[execname] = count(); }", {}, call, int32_t(fastpath::bpf::Helper::GetCurrentComm)));
    EXPECT_EQ(test::refusal_of("a:::b { @[args[0]] = count(); }", on_cpu_shape(true)),
              "args[0] of this probe is not available in the kernel path (the plugin reads it in user space: a "
              "string, user memory, a value it builds)");
}
