// pid_parts_test.cpp: the pid plugin's pieces that need no kernel.
#include <gtest/gtest.h>

#include "demangle.h"
#include "dwarf_types.h"
#include "elf_functions.h"
#include "event_fetches.h"
#include "function_code.h"
#include "process_modules.h"

#include <algorithm>
#include <string>
#include <vector>

namespace dtrace::pid {
using namespace dtrace::live; // the modules, ELF functions and demangling it tests live there
namespace {

TEST(FunctionCode, InstructionsAndReturns) {
    // push %rbp; mov %rsp,%rbp; lea 0x1(%rdi),%eax; pop %rbp; ret
    const std::vector<uint8_t> code = {0x55, 0x48, 0x89, 0xe5, 0x8d, 0x47, 0x01, 0x5d, 0xc3};
    std::optional<FunctionCode> decoded = decode_function(code, 0x1000);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->instructions, (std::vector<uint32_t>{0, 1, 4, 7, 8}));
    EXPECT_EQ(decoded->returns, (std::vector<uint32_t>{8}));
}

TEST(FunctionCode, TailJumpOutIsAReturnAndAJumpInsideIsNot) {
    // test %edi,%edi; je +2 (inside); jmp -0x100 (outside: a tail call); ret
    const std::vector<uint8_t> code = {0x85, 0xff, 0x74, 0x02, 0xeb, 0x00, 0xe9, 0x00, 0xff, 0xff, 0xff, 0xc3};
    std::optional<FunctionCode> decoded = decode_function(code, 0x2000);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->returns, (std::vector<uint32_t>{6, 11}));
}

TEST(FunctionCode, BytesThatAreNoInstructionGiveNothing) {
    const std::vector<uint8_t> code = {0x48}; // a REX prefix and nothing after it
    EXPECT_FALSE(decode_function(code, 0x1000));
}

// A function without a size ends at the first ret or jmp no earlier branch jumps past.
TEST(FunctionCode, AnUnsizedFunctionEndsAtTheRetNoBranchJumpsPast) {
    // crti's _init: sub $8,%rsp; test %rax,%rax; je +2; call *%rax; add $8,%rsp; ret; then the next function
    const std::vector<uint8_t> init = {0x48, 0x83, 0xec, 0x08, 0x48, 0x85, 0xc0, 0x74, 0x02, 0xff,
                                       0xd0, 0x48, 0x83, 0xc4, 0x08, 0xc3, 0x55, 0x48, 0x89, 0xe5};
    EXPECT_EQ(unsized_function_code(init, 0x1000), std::vector<uint8_t>(init.begin(), init.begin() + 16));
    // je +1 jumps past the first ret: the second one ends it.
    const std::vector<uint8_t> two_rets = {0x74, 0x01, 0xc3, 0x90, 0xc3, 0xcc};
    EXPECT_EQ(unsized_function_code(two_rets, 0x2000).size(), 5u);
    // No end in the bytes, or bytes that are no instruction: nothing.
    EXPECT_TRUE(unsized_function_code(std::vector<uint8_t>{0x90, 0x90}, 0x3000).empty());
    EXPECT_TRUE(unsized_function_code(std::vector<uint8_t>{0x90, 0x48}, 0x3000).empty());
}

// What the kernel's uprobes refuse (x86 uprobe_init_insn): no probe is made there.
TEST(FunctionCode, InstructionsAUprobeCannotBePlacedOn) {
    const std::vector<uint8_t> lock_decl = {0xf0, 0xff, 0x0f};        // lock decl (%rdi): pthread_spin_lock
    const std::vector<uint8_t> vmovd = {0xc5, 0xf9, 0x6e, 0xc6};      // vmovd %esi,%xmm0: the AVX string functions
    const std::vector<uint8_t> notrack = {0x3e, 0xff, 0xe0};          // notrack jmp *%rax (a ds prefix)
    const std::vector<uint8_t> breakpoint = {0xcc};                   // int3
    const std::vector<uint8_t> push = {0x55, 0x48, 0x89, 0xe5, 0xc3}; // push %rbp; ...
    EXPECT_EQ(uprobe_refusal(lock_decl), "a lock prefix");
    EXPECT_EQ(uprobe_refusal(vmovd), "a VEX or EVEX encoding (an AVX instruction)");
    EXPECT_EQ(uprobe_refusal(notrack), "a segment prefix");
    EXPECT_EQ(uprobe_refusal(breakpoint), "a breakpoint (int3)");
    EXPECT_EQ(uprobe_refusal(std::vector<uint8_t>{0x48}), "bytes that are not an instruction");
    EXPECT_EQ(uprobe_refusal(push), std::nullopt);
    // mov %rdi,%rax; lock incl (%rdi); ret: the lock-prefixed instruction is marked.
    const std::vector<uint8_t> code = {0x48, 0x89, 0xf8, 0xf0, 0xff, 0x07, 0xc3};
    std::optional<FunctionCode> decoded = decode_function(code, 0x3000);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(decoded->unprobeable, (std::vector<uint32_t>{3}));
}

TEST(ModuleNames, AliasesAsDTraceAcceptsThem) {
    std::vector<std::string> names = module_aliases("/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6", false);
    EXPECT_EQ(names, (std::vector<std::string>{"libc.so.6", "libc.so", "libc"}));
    names = module_aliases("/usr/bin/prog", "", true);
    EXPECT_EQ(names, (std::vector<std::string>{"prog", "a.out"}));
    EXPECT_EQ(module_file_name("/usr/lib/libz.so.1.2.13"), "libz.so.1.2.13");
}

TEST(Demangle, CxxAndRustAndPlainNames) {
    EXPECT_EQ(demangle("_ZN4shop4Cart3addEi"), "shop::Cart::add(int)");
    EXPECT_EQ(demangle("_ZN4core3fmt5write17h0123456789abcdefE"), "core::fmt::write");
    EXPECT_EQ(demangle("malloc"), "malloc");
    EXPECT_EQ(demangle("_Znot_mangled!"), "_Znot_mangled!");
}

TEST(ElfFunctions, TheTargetsFunctionsWithOffsetsAndCode) {
    std::string error;
    std::unique_ptr<ElfFunctions> functions = ElfFunctions::read(PID_TARGET, error);
    ASSERT_TRUE(functions) << error;
    EXPECT_FALSE(functions->interpreter().empty());
    EXPECT_FALSE(functions->debug_path().empty());
    auto find = [&](const std::string &name) {
        auto &all = functions->functions();
        auto it = std::find_if(all.begin(), all.end(), [&](const ElfFunction &f) { return f.name == name; });
        return it == all.end() ? nullptr : &*it;
    };
    const ElfFunction *respond = find("respond");
    ASSERT_NE(respond, nullptr);
    EXPECT_GT(respond->size, 0u);
    std::optional<FunctionCode> code = decode_function(functions->code(*respond), respond->address);
    ASSERT_TRUE(code);
    EXPECT_EQ(code->returns.size(), 1u); // straight-line code: one ret
    EXPECT_NE(find("tiny_framed"), nullptr);
    EXPECT_EQ(find("no_such_function"), nullptr);
    EXPECT_FALSE(ElfFunctions::read("/dev/null", error));
    EXPECT_NE(error.find("not a readable ELF file"), std::string::npos);
}

TEST(DwarfTypes, SignatureAndStructOfTheTarget) {
    std::string error;
    std::unique_ptr<ElfFunctions> functions = ElfFunctions::read(PID_TARGET, error);
    ASSERT_TRUE(functions) << error;
    std::unique_ptr<DwarfTypes> types = DwarfTypes::open(functions->debug_path());
    ASSERT_TRUE(types);
    std::optional<Signature> parse = types->signature("parse_request");
    ASSERT_TRUE(parse);
    EXPECT_EQ(parse->params, (std::vector<std::string>{"const char *", "struct request *"}));
    EXPECT_EQ(parse->result, "int");
    const dtrace_type_graph *graph = types->describe("struct request");
    ASSERT_NE(graph, nullptr);
    const dtrace_type_node &root = graph->types[graph->root];
    EXPECT_EQ(root.kind, DTRACE_TYPE_STRUCT);
    EXPECT_EQ(root.size, 56u);
    ASSERT_EQ(root.nmembers, 4u);
    EXPECT_STREQ(root.members[2].name, "path");
    EXPECT_EQ(root.members[2].offset_bits, 16u * 8);
    const dtrace_type_node &path = graph->types[root.members[2].type];
    EXPECT_EQ(path.kind, DTRACE_TYPE_ARRAY);
    EXPECT_EQ(path.count, 32u);
    EXPECT_EQ(types->describe("struct no_such_struct"), nullptr);
}

TEST(DwarfTypes, NoDebugInformationNoTypes) {
    std::string error;
    std::unique_ptr<ElfFunctions> functions = ElfFunctions::read(PID_TARGET_NODEBUG, error);
    ASSERT_TRUE(functions) << error;
    EXPECT_TRUE(functions->debug_path().empty());
}

} // namespace
} // namespace dtrace::pid

namespace dtrace::pid {

// dtrace's fetch plan as the uprobe program's steps: arguments in
// registers, absolute addresses and pointers of kept steps; curthread and
// stack arguments are left out, and a pointer into a step left out too.
TEST(EventFetches, StepsOfTheFetchPlan) {
    dtrace_probe_usage usage{};
    usage.nfetches = 5;
    usage.fetches[0] = {DTRACE_FETCH_ARG, 0, 0, 16, 8};
    usage.fetches[1] = {DTRACE_FETCH_CURTHREAD, 0, 0, 8, 0};
    usage.fetches[2] = {DTRACE_FETCH_POINTER, DTRACE_FETCH_STRING, 1, 256, 0};
    usage.fetches[3] = {DTRACE_FETCH_ARG, 0, 7, 8, 0};
    usage.fetches[4] = {DTRACE_FETCH_POINTER, DTRACE_FETCH_STRING, 0, 5000, 0};
    const std::vector<live_fetch_step> steps = fetch_steps_of(usage);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].base, LIVE_FETCH_ARG);
    EXPECT_EQ(steps[0].offset, 8);
    EXPECT_EQ(steps[0].length, 16u);
    EXPECT_EQ(steps[1].base, LIVE_FETCH_POINTER);
    EXPECT_EQ(steps[1].index, 0);
    EXPECT_EQ(steps[1].flags, LIVE_FETCH_STRING);
    EXPECT_EQ(steps[1].length, uint32_t(UPROBE_FETCH_MAX_LENGTH));
}

// Reads inside what was fetched are answered from it; a string shorter
// than asked ends at its NUL; a failed fetch or bytes past one answer nothing.
TEST(EventFetches, ReadsAnsweredFromWhatWasFetched) {
    uprobe_tail tail{};
    tail.nfetched = 3;
    tail.fetched[0] = {0x1000, 8, 0, 0};
    tail.fetched[1] = {0x2000, 4, 8, LIVE_FETCH_STRING};
    tail.fetched[2] = {0x3000, -14, 16, 0};
    const std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6, 7, 8, 'a', 'b', 'c', 0, 0, 0, 0, 0};
    EventFetches fetches;
    fetches.set(tail, data);
    uint8_t buffer[16] = {};
    EXPECT_EQ(fetches.read(0x1002, buffer, 4), 4);
    EXPECT_EQ(buffer[0], 3);
    EXPECT_EQ(fetches.read(0x2000, buffer, 100), 4);
    EXPECT_STREQ(reinterpret_cast<const char *>(buffer), "abc");
    EXPECT_EQ(fetches.read(0x1004, buffer, 8), std::nullopt);
    EXPECT_EQ(fetches.read(0x3000, buffer, 4), std::nullopt);
    EXPECT_EQ(fetches.read(0x4000, buffer, 4), std::nullopt);
}

} // namespace dtrace::pid
