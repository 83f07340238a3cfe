// Probes whose arguments are not contiguous words (DTRACE_FASTPATH_ARG_FIELDS,
// or the older DTRACE_FASTPATH_ARG_TABLE: a pid probe's struct pt_regs): the
// translation reads each where the layout says (a stack argument from user
// memory), leaves a clause reading an argument the program cannot in user
// space, and (root) the programs pass this kernel's verifier as the uprobe program
// tail-calls them (kprobe programs, uprobe_multi's attach type or none).
#include "verifier_load.h"

#include <asm/ptrace.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cstddef>

using namespace dtrace;
using dtrace::test::refusal_of;

namespace {

constexpr uint32_t kUprobeMultiAttachType = 48; // BPF_TRACE_UPROBE_MULTI (uapi 6.6)

constexpr uint16_t kRegisters[] = {offsetof(pt_regs, rdi), offsetof(pt_regs, rsi), offsetof(pt_regs, rdx),
                                   offsetof(pt_regs, rcx), offsetof(pt_regs, r8),  offsetof(pt_regs, r9)};

fastpath::ProbeShape shape_of(const dtrace_fastpath_probe &layout) {
    fastpath::ProbeShape shape;
    shape.nargs = layout.nargs;
    shape.context = fastpath::probe_context_of(layout);
    return shape;
}

// A pid entry probe of `nargs` arguments as the pid plugin describes it:
// the SysV registers, then the stack above the return address (or,
// `stack_readable` false, arguments the program cannot read: size 0).
dtrace_fastpath_probe entry_layout(uint32_t nargs, bool stack_readable) {
    dtrace_fastpath_probe layout{};
    layout.struct_size = sizeof layout;
    layout.flags = DTRACE_FASTPATH_ARG_FIELDS;
    layout.nargs = nargs;
    for (uint32_t i = 0; i < nargs; ++i) {
        if (i < 6) {
            layout.arg_field_offset[i] = kRegisters[i];
            layout.arg_field_size[i] = 8;
        } else if (stack_readable) {
            layout.arg_field_offset[i] = offsetof(pt_regs, rsp);
            layout.arg_field_size[i] = DTRACE_FASTPATH_ARG_FIELD_USER_WORD;
            layout.arg_field_user_displacement[i] = uint16_t(8 * (i - 5));
        }
    }
    return layout;
}
fastpath::ProbeShape entry_shape(uint32_t nargs, bool stack_readable = true) {
    return shape_of(entry_layout(nargs, stack_readable));
}

// A pid return probe: arg0 its offset (the attach cookie's high half), arg1 rax.
fastpath::ProbeShape return_shape() {
    dtrace_fastpath_probe layout{};
    layout.struct_size = sizeof layout;
    layout.flags = DTRACE_FASTPATH_ARG_FIELDS;
    layout.nargs = 2;
    layout.arg_field_size[0] = DTRACE_FASTPATH_ARG_FIELD_COOKIE_HIGH;
    layout.arg_field_offset[1] = offsetof(pt_regs, rax);
    layout.arg_field_size[1] = 8;
    return shape_of(layout);
}

// Loads the clauses of `source` as a kprobe program of `attach_type`;
// returns the verifier's log when it refuses.
std::optional<std::string> load_as_uprobe(const std::string &source, const fastpath::ProbeShape &shape,
                                          uint32_t attach_type) {
    live::FastpathLoader loader;
    loader.set_program_kind(BPF_PROG_TYPE_KPROBE, attach_type);
    return test::load_clauses(loader, source, shape);
}

const char *kEntryClauses = "pid1:a.out:f:entry /arg0 > 2/ { @[arg1, arg5] = sum(arg2); self->x = arg3 + arg4; "
                            "@q = quantize(args[0]); }";
const char *kStackClauses = "pid1:a.out:f:entry /arg6 > 2/ { @[arg7] = sum(arg6); @n = count(); }";
const char *kReturnClauses =
    "pid1:a.out:f:return { @[arg0] = count(); @v = sum(arg1); printf(\"%d %d\\n\", arg0, arg1); }";

} // namespace

TEST(FastpathUprobeLayout, TranslatesRegisterArgumentsAndTheReturnOffset) {
    EXPECT_EQ(refusal_of(kEntryClauses, entry_shape(6)), std::nullopt);
    EXPECT_EQ(refusal_of(kReturnClauses, return_shape()), std::nullopt);
    // Past a probe's arguments, 0 (as the user-space path reads them).
    EXPECT_EQ(refusal_of("pid1:a.out:f:return { @ = sum(arg4); }", return_shape()), std::nullopt);
}

TEST(FastpathUprobeLayout, TheOlderArgumentTableIsReadAsFields) {
    // A plugin built before DTRACE_FASTPATH_ARG_FIELDS said the same with arg_offsets.
    dtrace_fastpath_probe table{};
    table.struct_size = sizeof table;
    table.flags = DTRACE_FASTPATH_ARG_TABLE;
    table.nargs = 8;
    for (uint32_t i = 0; i < 8; ++i)
        table.arg_offsets[i] = i < 6 ? kRegisters[i] : DTRACE_FASTPATH_ARG_UNAVAILABLE;
    EXPECT_EQ(shape_of(table), entry_shape(8, false));
    table.nargs = 2;
    table.arg_offsets[0] = DTRACE_FASTPATH_ARG_COOKIE_HIGH;
    table.arg_offsets[1] = offsetof(pt_regs, rax);
    EXPECT_EQ(shape_of(table).context.args[0].kind, fastpath::ArgPlace::Kind::CookieHigh);
    EXPECT_EQ(shape_of(table).context.args[1], fastpath::arg_field(offsetof(pt_regs, rax), 8));
}

TEST(FastpathUprobeLayout, ReadsArgumentsFromTheStack) {
    EXPECT_EQ(shape_of(entry_layout(8, true)).context.args[7].kind, fastpath::ArgPlace::Kind::UserWord);
    EXPECT_EQ(shape_of(entry_layout(8, true)).context.args[7].displacement, 16);
    EXPECT_EQ(refusal_of(kStackClauses, entry_shape(8)), std::nullopt);
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(args[7]); }", entry_shape(8)), std::nullopt);
}

TEST(FastpathUprobeLayout, LeavesArgumentsItCannotReadInUserSpace) {
    const std::string why = " of this probe is not available in the kernel path (the plugin reads it in user space: a "
                            "string, user memory, a value it builds)";
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(arg6); }", entry_shape(8, false)), "arg6" + why);
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(args[7]); }", entry_shape(8, false)), "args[7]" + why);
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(arg5); }", entry_shape(8, false)), std::nullopt);
}

TEST(FastpathUprobeLayout, PassesTheVerifierAsTheUprobeProgramsKind) {
    if (geteuid() != 0)
        GTEST_SKIP() << "loading BPF programs needs root";
    for (uint32_t attach_type : {0u, kUprobeMultiAttachType}) {
        EXPECT_EQ(load_as_uprobe(kEntryClauses, entry_shape(6), attach_type), std::nullopt);
        EXPECT_EQ(load_as_uprobe(kStackClauses, entry_shape(8), attach_type), std::nullopt);
        EXPECT_EQ(load_as_uprobe(kReturnClauses, return_shape(), attach_type), std::nullopt);
    }
}

namespace {

// A pid entry probe as the pid plugin describes it for the walk of user
// stacks: its maps' rows, the registers in struct pt_regs, a way back, and
// (`main_stack`) where the kernel's BTF says a main stack starts.
fastpath::ProbeShape walking_entry_shape(bool main_stack) {
    fastpath::ProbeShape shape = entry_shape(6);
    shape.user_stacks = true;
    shape.user_registers = {offsetof(pt_regs, rip), offsetof(pt_regs, rsp), offsetof(pt_regs, rbp)};
    if (main_stack) {
        dtrace_fastpath_probe layout{};
        layout.struct_size = sizeof layout;
        live::FastpathLoader::describe_task(layout);
        shape.main_stack = {layout.task_mm, layout.mm_start_stack};
    }
    return shape;
}

} // namespace

TEST(FastpathUprobeLayout, UstackKeysPassTheVerifier) {
    if (geteuid() != 0)
        GTEST_SKIP() << "loading BPF programs needs root";
    EXPECT_TRUE(walking_entry_shape(true).main_stack.known()) << "the kernel's BTF: no task_struct.mm->start_stack";
    for (uint32_t attach_type : {0u, kUprobeMultiAttachType})
        for (bool main_stack : {false, true}) {
            const fastpath::ProbeShape shape = walking_entry_shape(main_stack);
            EXPECT_EQ(load_as_uprobe("pid1:a.out:f:entry { @[ustack()] = count(); }", shape, attach_type),
                      std::nullopt);
            EXPECT_EQ(load_as_uprobe("pid1:a.out:f:entry /arg0 > 2/ { @[ustack(5), arg1] = sum(arg2); } "
                                     "pid1:a.out:f:entry { @q[ustack(64)] = quantize(arg0); }",
                                     shape, attach_type),
                      std::nullopt);
        }
}
