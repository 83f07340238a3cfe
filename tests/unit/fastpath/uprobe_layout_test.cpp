// Probes whose arguments are not contiguous words (DTRACE_FASTPATH_ARG_TABLE:
// a pid probe's struct pt_regs): the translation reads each where the table
// says (a stack argument from user memory), leaves a clause reading an
// argument the program cannot in user space, and (root) the programs pass this kernel's verifier as the uprobe program
// tail-calls them (kprobe programs, uprobe_multi's attach type or none).
#include "compiled_clauses.h"
#include "fastpath_loader.h"

#include <asm/ptrace.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cstddef>

using namespace dtrace;
using dtrace::test::refusal_of;

namespace {

constexpr uint32_t kUprobeMultiAttachType = 48; // BPF_TRACE_UPROBE_MULTI (uapi 6.6)

// A pid entry probe of `nargs` arguments: the SysV registers, then the
// stack above the return address (or, `stack_readable` false, arguments the
// program cannot read).
fastpath::ProbeShape entry_shape(uint32_t nargs, bool stack_readable = true) {
    const uint32_t registers[] = {offsetof(pt_regs, rdi), offsetof(pt_regs, rsi), offsetof(pt_regs, rdx),
                                  offsetof(pt_regs, rcx), offsetof(pt_regs, r8),  offsetof(pt_regs, r9)};
    fastpath::ProbeShape shape;
    shape.nargs = nargs;
    for (uint32_t i = 0; i < nargs; ++i)
        shape.arg_table.push_back(i < 6 ? registers[i]
                                  : stack_readable
                                      ? DTRACE_FASTPATH_ARG_USER_WORD_AT(offsetof(pt_regs, rsp), 8 * (i - 5))
                                      : DTRACE_FASTPATH_ARG_UNAVAILABLE);
    return shape;
}

// A pid return probe: arg0 its offset (the attach cookie's high half), arg1 rax.
fastpath::ProbeShape return_shape() {
    fastpath::ProbeShape shape;
    shape.nargs = 2;
    shape.arg_table = {DTRACE_FASTPATH_ARG_COOKIE_HIGH, offsetof(pt_regs, rax)};
    return shape;
}

// Loads the clauses of `source` as a kprobe program of `attach_type`;
// returns the verifier's log when it refuses.
std::optional<std::string> load_as_uprobe(const std::string &source, const fastpath::ProbeShape &shape,
                                          uint32_t attach_type) {
    auto program = test::compile_d(source);
    if (!program)
        return "does not compile";
    fastpath::MapPlan plan;
    plan.ring_bytes = 1u << 16;
    const fastpath::ProbeIdentity probe = test::test_probe(*program);
    const std::vector<uint64_t> insns = fastpath::build_program(plan, shape, test::clauses_of(*program), &probe);
    live::FastpathLoader loader;
    loader.set_program_kind(BPF_PROG_TYPE_KPROBE, attach_type);
    std::vector<int32_t> maps;
    for (const fastpath::MapSpec &m : plan.maps) {
        dtrace_bpf_map_spec spec{sizeof spec,  uint32_t(m.type), m.key_size,
                                 m.value_size, m.max_entries,    m.name.c_str()};
        std::string error;
        maps.push_back(loader.create_map(spec, error));
        if (maps.back() < 0)
            return error;
    }
    std::string log(1 << 20, '\0');
    dtrace_bpf_program p{
        sizeof p,    "uprobe_layout", insns.data(),        uint32_t(insns.size()), uint32_t(maps.size()),
        maps.data(), log.data(),      uint32_t(log.size())};
    if (loader.load_program(p) >= 0)
        return std::nullopt;
    return std::string(log.c_str());
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

TEST(FastpathUprobeLayout, ReadsArgumentsFromTheStack) {
    EXPECT_EQ(refusal_of(kStackClauses, entry_shape(8)), std::nullopt);
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(args[7]); }", entry_shape(8)), std::nullopt);
}

TEST(FastpathUprobeLayout, LeavesArgumentsItCannotReadInUserSpace) {
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(arg6); }", entry_shape(8, false)),
              "arg6 of this probe (read from user memory) is not available in the kernel path");
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(args[7]); }", entry_shape(8, false)),
              "arg7 of this probe (read from user memory) is not available in the kernel path");
    EXPECT_EQ(refusal_of("pid1:a.out:f:entry { @ = sum(arg5); }", entry_shape(8, false)), std::nullopt);
}

TEST(FastpathUprobeLayout, PassesTheVerifierAsTheUprobeProgramsKind) {
    if (geteuid() != 0)
        GTEST_SKIP() << "loading BPF programs needs root";
    for (uint32_t attach_type : {0u, kUprobeMultiAttachType}) {
        EXPECT_EQ(load_as_uprobe(kEntryClauses, entry_shape(6), attach_type), std::nullopt);
        EXPECT_EQ(load_as_uprobe(kReturnClauses, return_shape(), attach_type), std::nullopt);
        EXPECT_EQ(load_as_uprobe(kStackClauses, entry_shape(8), attach_type), std::nullopt);
    }
}
