// What the DIF-to-BPF translation takes, and the reason it gives for what
// it leaves in user space (what -x fastpath=explain prints).
#include "compiled_clauses.h"

#include <cstring>

using dtrace::test::refusal_of;

// A plugin without the walk of user stacks' rows, registers and way back.
const std::string kNoUserStacks =
    "ustack() keys are not available in the kernel path of this provider (its plugin does not give the walk by the "
    "CFI its process's rows, the user registers and a way back to user space)";

TEST(FastpathTranslate, TakesTheIssuesOneLiners) {
    EXPECT_EQ(refusal_of("syscall:::entry { @[execname] = count(); }"), std::nullopt);
    EXPECT_EQ(refusal_of("syscall::read:entry { self->ts = timestamp; } syscall::read:return /self->ts/ "
                         "{ @[execname] = quantize(timestamp - self->ts); self->ts = 0; }",
                         {2, 16, true}),
              std::nullopt);
    EXPECT_EQ(refusal_of("syscall::getppid:entry /pid == 42/ { @ = count(); }"), std::nullopt);
}

TEST(FastpathTranslate, TakesPredicatesArithmeticAndTheAggregatingFunctions) {
    EXPECT_EQ(
        refusal_of("a:::b /tid != 3 && execname == \"bash\" && arg1 > 2/ { this->x = (arg0 * 3 + 1) % 7; "
                   "@s = sum(this->x); @a = avg(arg0); @mn = min(arg0); @mx = max(arg0); "
                   "@l = lquantize(arg0, 0, 100, 10); @q = quantize(arg0, 2); @k[uid, gid, cpu, \"x\"] = count(); }"),
        std::nullopt);
    EXPECT_EQ(refusal_of("a:::b /execname < \"m\" || !(arg0 & 1)/ { @[args[1] >> 2, (int)arg0] = count(); }"),
              std::nullopt);
}

TEST(FastpathTranslate, TakesGlobalsAndAssociativeArraysOfIntegers) {
    EXPECT_EQ(refusal_of("a:::b { n++; t = timestamp; a[pid, execname, \"k\"] = arg0 + 1; a[pid, execname, \"k\"] += "
                         "arg0; self->b[arg1] = a[pid, execname, "
                         "\"k\"] + n; @ = sum(self->b[arg1] - t); a[pid, execname, \"k\"] = 0; }"),
              std::nullopt);
}

TEST(FastpathTranslate, TakesPpidVtimestampAndWalltimestamp) {
    const dtrace::fastpath::ProbeShape knows_tasks{6, 16, false, 100, 200, 300};
    EXPECT_EQ(refusal_of("a:::b { trace(walltimestamp); @[ppid] = sum(vtimestamp); }", knows_tasks), std::nullopt);
    EXPECT_EQ(refusal_of("a:::b { trace(walltimestamp - timestamp); }"), std::nullopt);
}

TEST(FastpathTranslate, TakesStddevAndLlquantize) {
    EXPECT_EQ(refusal_of("a:::b { @s = stddev(arg0); @l = llquantize(arg0, 10, 0, 6, 20); }"), std::nullopt);
    EXPECT_EQ(refusal_of("a:::b { @l[execname] = llquantize(arg0, 2, 0, 30, 2, arg1); }"), std::nullopt);
    // Orders of magnitude up to 2^62 (the most D allows with factor 2): the engine clamps the last; the
    // kernel path does not count so.
    EXPECT_EQ(refusal_of("a:::b { @ = llquantize(arg0, 2, 0, 61, 2); }"),
              "llquantize() with these parameters is not available in the kernel path");
}

TEST(FastpathTranslate, NamesWhatStaysInUserSpace) {
    EXPECT_EQ(refusal_of("a:::b { @[strjoin(execname, \"x\")] = count(); }"),
              "strjoin() is not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { printf(\"%s\", strjoin(execname, \"x\")); }"),
              "strjoin() is not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { @ = count(); printa(@); }"), "printa() is not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { trace(pid); exit(0); }"), "exit() is not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { x = execname; }"),
              "global variables other than integers are not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { @ = sum(arg0 / arg1); }"), "division by a value not known to be non-zero");
    EXPECT_EQ(refusal_of("a:::b { @[ppid] = count(); }"),
              "ppid is not available in the kernel path (the plugin does not know the kernel's task_struct)");
    EXPECT_EQ(refusal_of("a:::b { self->s = execname; }"),
              "self-> variables other than integers are not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { a[pid] = execname; }"),
              "associative arrays of values other than integers are not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { a[\"a string longer than sixteen\"] = 1; }"),
              "string keys other than execname and constants of under 16 bytes");
    EXPECT_EQ(refusal_of("a:::b { a[copyinstr(arg0)] = 1; }"),
              "associative array keys of strings other than execname and constants of under 16 bytes");
    // (stack() keys need the plugin's kernel_stack_skip: StackKeys below.)
    EXPECT_EQ(refusal_of("a:::b { @[stack()] = count(); }"),
              "stack() is not available in the kernel path of this provider");
    EXPECT_EQ(refusal_of("a:::b { @[ustack()] = count(); }"), kNoUserStacks);
    EXPECT_EQ(refusal_of("a:::b { stack(); }"), "stack() is not available in the kernel path of this provider");
    EXPECT_EQ(refusal_of("a:::b { @[sym(arg0)] = count(); }"),
              "aggregation keys other than integers, strings, stack() and ustack()");
    EXPECT_EQ(refusal_of("a:::b { @[copyinstr(arg0, arg1)] = count(); }"),
              "copyinstr() with a length not known at compile time");
    EXPECT_EQ(refusal_of("a:::b { @[(uint64_t)copyin(arg0, 8)] = count(); }"),
              "copyin()'s bytes where a value is wanted (the kernel path reads them only by loads at offsets known at "
              "compile time)");
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(arg0, arg1)] = count(); }"),
              "copyin() of a size not known at compile time");
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(arg0, 2)] = count(); }"),
              "a load outside the 2 bytes copyin() read");
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)((char *)copyin(arg0, 8) + 2)] = count(); }"),
              "a load of 4 bytes at offset 2 of copyin()'s bytes, not aligned");
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(arg0, 1025)] = count(); }"),
              "copyin() of 0 bytes, or of more than 1024 in a clause");
    // A record of the plugin's own at a kernel-half address (curpsinfo's), base plus a member's offset.
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(0xffffff0000000000 + 8, 4)] = count(); }"),
              "copyin() of a provider's record (as curpsinfo's and fds[]'s), which only user space reads");
    EXPECT_EQ(refusal_of("a:::b { @[copyinstr(0xffffff0000010000)] = count(); }"),
              "copyinstr() of a provider's record (as curpsinfo's and fds[]'s), which only user space reads");
    // fds[fd]'s: a kernel-half base plus an offset known only at the event.
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(0xffffff0001000000 + (uint32_t)arg0 * 64, 8)] = count(); }"),
              "copyin() of a provider's record (as curpsinfo's and fds[]'s), which only user space reads");
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(arg1 + 0xffffff0001000000 - 8, 8)] = count(); }"),
              "copyin() of a provider's record (as curpsinfo's and fds[]'s), which only user space reads");
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)copyin(arg0 + 16, 8)] = count(); }"), std::nullopt);
    EXPECT_EQ(refusal_of("a:::b { @[*(int *)(arg0 ? copyin(arg0, 8) : copyin(arg1, 8))] = count(); }"),
              "memory loads and stores are not available in the kernel path");
    EXPECT_EQ(refusal_of("a:::b { trace(vtimestamp); }"),
              "vtimestamp is not available in the kernel path (the plugin does not know the kernel's task_struct)");
    EXPECT_EQ(refusal_of("a:::b { trace(curthread); }"), "curthread is not available in the kernel path");
}

TEST(FastpathTranslate, TakesRecordsOfIntegersExecnameAndTheProbesNames) {
    EXPECT_EQ(refusal_of("a:::b { printf(\"%d %s %s\\n\", arg0, execname, probefunc); trace(pid); trace(\"x\"); }"),
              std::nullopt);
    EXPECT_EQ(refusal_of("a:::b { }"), std::nullopt);
    EXPECT_EQ(refusal_of("a:::b /probename == \"name\"/ { @[probeprov, probemod] = count(); }"), std::nullopt);
}

// copyinstr() (a string of up to strsize bytes in the scratch map) and
// string constants of 16 bytes or more: keys, predicates, records.
TEST(FastpathTranslate, TakesCopyinstrAndLongStrings) {
    EXPECT_EQ(refusal_of("a:::b /copyinstr(arg1) == \"/etc/passwd\"/ { @[copyinstr(arg1), execname] = count(); "
                         "printf(\"%s %s\\n\", copyinstr(arg0, 10), copyinstr(arg2 + 8)); }"),
              std::nullopt);
    EXPECT_EQ(refusal_of("a:::b { @[\"a string longer than sixteen\"] = count(); }"), std::nullopt);
    EXPECT_EQ(refusal_of("a:::b /execname != \"a string longer than sixteen\"/ { trace(\"x\"); }"), std::nullopt);
}

// copyin() of a constant size (its bytes in the scratch map), read by loads
// at known offsets: a struct's fields, through a this-> variable, a pointer
// copyinstr() follows.
TEST(FastpathTranslate, TakesCopyinReadByLoadsAtKnownOffsets) {
    EXPECT_EQ(
        refusal_of("struct r { int id; short s; char c; char *name; }; "
                   "a:::b /(*(int *)copyin(arg0, 4)) > 2/ { this->r = (struct r *)copyin(arg1, sizeof(struct r)); "
                   "@[this->r->id, this->r->s, this->r->c] = sum(this->r->id); "
                   "printf(\"%s %d\\n\", copyinstr((uintptr_t)this->r->name), *(uint64_t *)copyin(arg2 + 8, 8)); }"),
        std::nullopt);
}

TEST(FastpathTranslate, CopyinstrSizesStringsByStrsize) {
    auto program = dtrace::test::compile_d("a:::b { @[copyinstr(arg0)] = count(); }");
    ASSERT_TRUE(program);
    dtrace::fastpath::MapPlan plan;
    plan.strsize = 100;
    const dtrace::fastpath::ProbeIdentity probe = dtrace::test::test_probe(*program);
    dtrace::fastpath::build_program(plan, {2, 16, false}, dtrace::test::clauses_of(*program), &probe);
    EXPECT_EQ(plan.string_bytes, 104u);
    EXPECT_EQ(plan.aggregations.begin()->second.key_bytes, 104u);
    EXPECT_TRUE(plan.by_name.count("scratch"));
    dtrace::fastpath::MapPlan huge;
    huge.strsize = 4096; // beyond what the kernel path holds: the engine's
    EXPECT_THROW(dtrace::fastpath::build_program(huge, {2, 16, false}, dtrace::test::clauses_of(*program), &probe),
                 dtrace::fastpath::Refusal);
}

TEST(FastpathTranslate, ASharedProgramNeedsAWordTellingItsProbesApart) {
    auto program = dtrace::test::compile_d("a:::b { printf(\"%s\\n\", probefunc); }");
    ASSERT_TRUE(program);
    dtrace::fastpath::ProbeIdentity probe{"p", "m", "f", "n", {2}, 5};
    dtrace::fastpath::SharedProgram shared{{&probe}};
    dtrace::fastpath::MapPlan plan;
    EXPECT_THROW(
        dtrace::fastpath::build_shared_program(plan, {0, 16, false}, dtrace::test::clauses_of(*program), shared),
        dtrace::fastpath::Refusal);
    dtrace::fastpath::ProbeShape shape{0, 16, false};
    shape.probe_word_offset = 8;
    shape.probe_word_size = 4;
    dtrace::fastpath::build_shared_program(plan, shape, dtrace::test::clauses_of(*program), shared);
    ASSERT_EQ(plan.initial_entries.size(), 1u);
    uint32_t key = 0, epid = 0;
    std::memcpy(&key, plan.initial_entries[0].key.data(), 4);
    std::memcpy(&epid, plan.initial_entries[0].value.data(), 4);
    EXPECT_EQ(key, 5u);
    EXPECT_EQ(epid, 2u);
    EXPECT_EQ(plan.records.at(2).fields.at(0).text, "f"); // the name, known by the epid
}

TEST(FastpathTranslate, ARecordNeedsItsProbesOwnProgram) {
    auto program = dtrace::test::compile_d("a:::b { trace(pid); }");
    ASSERT_TRUE(program);
    dtrace::fastpath::MapPlan plan;
    EXPECT_TRUE(dtrace::fastpath::needs_probe_identity(dtrace::test::clauses_of(*program)));
    EXPECT_THROW(dtrace::fastpath::build_program(plan, {0, 16, false}, dtrace::test::clauses_of(*program)),
                 dtrace::fastpath::Refusal);
    auto counting = dtrace::test::compile_d("a:::b { @[execname] = count(); }");
    ASSERT_TRUE(counting);
    EXPECT_FALSE(dtrace::fastpath::needs_probe_identity(dtrace::test::clauses_of(*counting)));
}

TEST(FastpathTranslate, ProgramsEndWithExit) {
    auto program = dtrace::test::compile_d("a:::b { @ = count(); }");
    ASSERT_TRUE(program);
    dtrace::fastpath::MapPlan plan;
    const std::vector<uint64_t> insns =
        dtrace::fastpath::build_program(plan, {0, 16, false}, dtrace::test::clauses_of(*program));
    ASSERT_FALSE(insns.empty());
    EXPECT_EQ(insns.back() & 0xff, 0x95u); // BPF_JMP | BPF_EXIT
    // The drop counters, the zero value, and the keyless count's per-CPU array of one entry.
    ASSERT_EQ(plan.maps.size(), 3u);
    EXPECT_EQ(plan.maps[2].type, DTRACE_BPF_MAP_PERCPU_ARRAY);
    EXPECT_EQ(plan.maps[2].key_size, 4u);
    EXPECT_EQ(plan.maps[2].value_size, 8u);
    EXPECT_EQ(plan.maps[2].max_entries, 1u);
}

TEST(FastpathTranslate, KeyedAndSummedAggregationsAreHashMaps) {
    // A key, or a function without a count of firings (sum's 0 may be a sum
    // of zeros): entries exist only once fired.
    auto program = dtrace::test::compile_d("a:::b { @k[arg0] = count(); @s = sum(arg1); }");
    ASSERT_TRUE(program);
    dtrace::fastpath::MapPlan plan;
    dtrace::fastpath::build_program(plan, {2, 16, false}, dtrace::test::clauses_of(*program));
    ASSERT_EQ(plan.maps.size(), 4u);
    EXPECT_EQ(plan.maps[2].type, DTRACE_BPF_MAP_PERCPU_HASH);
    EXPECT_EQ(plan.maps[3].type, DTRACE_BPF_MAP_PERCPU_HASH);
    EXPECT_EQ(plan.maps[3].key_size, 8u);
}

using namespace dtrace;

namespace {

// Why `source` cannot run in the kernel of a plugin that tells the tracing
// machinery's frames of a kernel stack (stack() keys); nothing when it can.
std::optional<std::string> stack_refusal(const std::string &source, fastpath::ProbeShape shape = {6, 16, false}) {
    auto program = test::compile_d(source);
    fastpath::MapPlan plan;
    shape.kernel_stacks = true;
    const fastpath::ProbeIdentity probe = test::test_probe(*program);
    try {
        fastpath::build_program(plan, shape, test::clauses_of(*program), &probe);
        return std::nullopt;
    } catch (const fastpath::Refusal &r) {
        return std::string(r.what());
    }
}

} // namespace

TEST(FastpathTranslate, StackKeys) {
    EXPECT_EQ(stack_refusal("a:::b { @[stack()] = count(); }"), std::nullopt);
    EXPECT_EQ(stack_refusal("a:::b { @[stack(3), execname] = sum(arg0); @q[stack(1)] = quantize(arg1); }"),
              std::nullopt);
    EXPECT_EQ(stack_refusal("a:::b { @[stack(), ustack()] = count(); }"), kNoUserStacks);
    // A plugin that writes its process's rows and has a way back (pid):
    // ustack() keys run in the kernel, unless an event the walk sends to
    // user space would run a clause there that the kernel's events run
    // against other state (records, variables).
    fastpath::ProbeShape walks{6, 16, false};
    walks.user_stacks = true;
    walks.user_registers = {128, 152, 32};
    EXPECT_EQ(stack_refusal("a:::b { @[ustack(5)] = count(); }", walks), std::nullopt);
    EXPECT_EQ(stack_refusal("a:::b { @[ustack(), execname] = sum(arg0); @m[ustack(64)] = max(arg1); }", walks),
              std::nullopt);
    // At a tracepoint (syscall): the registers are the task's; without a process, the plugin's reason.
    fastpath::ProbeShape tracepoint{6, 16, false};
    tracepoint.user_stacks = true;
    tracepoint.user_registers = {128, 152, 32, true};
    EXPECT_EQ(stack_refusal("a:::b { @[ustack(5), execname] = count(); }", tracepoint), std::nullopt);
    fastpath::ProbeShape no_target{6, 16, false};
    no_target.user_stacks_unavailable = "at these probes the walk needs -c or -p";
    EXPECT_EQ(stack_refusal("a:::b { @[ustack()] = count(); }", no_target),
              "ustack() keys are not available in the kernel path: at these probes the walk needs -c or -p");
    EXPECT_EQ(stack_refusal("a:::b { @[ustack(65)] = count(); }", walks),
              "ustack() of more than 64 frames is not available in the kernel path");
    EXPECT_EQ(stack_refusal("a:::b { @[ustack()] = count(); self->n++; }", walks),
              "ustack() keys in the kernel path with self-> or global variables on the same probe (an event the walk "
              "sends to user space would see the user space's copies)");
    EXPECT_EQ(stack_refusal("a:::b { @[ustack()] = count(); printf(\"%d\", pid); }", walks),
              "ustack() keys in the kernel path with a clause on the same probe that records (an event the walk sends "
              "to user space would record out of order)");
    fastpath::ProbeShape on_cpu{0, 16, false};
    on_cpu.context.flags = DTRACE_FASTPATH_THREAD_TASK;
    on_cpu.context.thread_task_offset = 16;
    EXPECT_EQ(stack_refusal("a:::b { @[stack()] = count(); }", on_cpu),
              "stack() of another thread than the current one is not available in the kernel path");
    EXPECT_EQ(stack_refusal("a:::b { stack(); }", on_cpu),
              "stack() of another thread than the current one is not available in the kernel path");
}

TEST(FastpathTranslate, StackKeysTakeTheFramesShownAndRoomForTheTracingOnes) {
    auto program =
        test::compile_d("a:::b { @a[stack()] = count(); @b[stack(2), pid] = count(); @c[stack(200)] = count(); }");
    fastpath::MapPlan plan;
    fastpath::ProbeShape shape{6, 16, false};
    shape.kernel_stacks = true;
    fastpath::build_program(plan, shape, test::clauses_of(*program));
    EXPECT_EQ(plan.aggregations.at("a").key_bytes, (20u + 8u) * 8u); // stackframes' default 20
    EXPECT_EQ(plan.aggregations.at("b").key_bytes, (2u + 8u) * 8u + 8u);
    EXPECT_EQ(plan.aggregations.at("c").key_bytes, 127u * 8u); // the kernel's deepest stack
    EXPECT_TRUE(plan.aggregations.at("a").key_in_scratch);
    EXPECT_FALSE(plan.aggregations.at("b").key_in_scratch);
}
