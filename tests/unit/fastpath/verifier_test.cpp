// Generated programs against this kernel's verifier (root; skipped
// otherwise, saying so), loaded as the syscall plugin loads them
// (live/fastpath_loader.h), and programs refused with the reason.
#include "fastpath/bpf_emitter.h"
#include "verifier_load.h"

#include <unistd.h>

using namespace dtrace;

namespace {

class FastpathVerifier : public ::testing::Test {
  protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "loading BPF programs needs root";
    }

    // Loads the clauses of `source`; returns the verifier's log when it refuses.
    std::optional<std::string> load(const std::string &source, fastpath::ProbeShape shape = {6, 16, false}) {
        return test::load_clauses(loader, source, shape);
    }

    std::optional<std::string> load_insns(const std::vector<uint64_t> &insns, const std::vector<int32_t> &maps,
                                          uint32_t layout_flags = 0) {
        return test::load_insns(loader, insns, maps, layout_flags);
    }

    live::FastpathLoader loader;
};

} // namespace

TEST_F(FastpathVerifier, AcceptsTheIssuesOneLiners) {
    EXPECT_EQ(load("syscall:::entry { @[execname] = count(); }"), std::nullopt);
    EXPECT_EQ(load("syscall::getppid:entry /pid == 42/ { @ = count(); }", {0, 16, false}), std::nullopt);
    EXPECT_EQ(load("syscall::read:entry { self->ts = timestamp; }"), std::nullopt);
    EXPECT_EQ(load("self uint64_t ts; syscall::read:return /self->ts/ { @[execname] = quantize(timestamp - self->ts); "
                   "self->ts = 0; }",
                   {2, 16, true}),
              std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsEveryKindOfClauseTheTranslationTakes) {
    EXPECT_EQ(load("a:::b /tid != 3 && execname == \"bash\" && arg1 > 2/ { this->x = (arg0 * 3 + 1) % 7; "
                   "@s = sum(this->x); @a = avg(arg0); @mn = min(arg0); @mx = max(arg0); "
                   "@l = lquantize(arg0, -10, 100, 10); @q = quantize(arg0, arg1); @k[uid, gid, cpu, \"x\"] = count(); "
                   "@d[arg0 / 3, (int)arg0 % -5] = count(); }"),
              std::nullopt);
    EXPECT_EQ(load("a:::b /execname < \"m\" || !(arg0 & 1)/ { @[args[1] >> 2, (char)arg0, errno] = count(); }",
                   {2, 16, true}),
              std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsGlobalsAndAssociativeArrays) {
    EXPECT_EQ(load("a:::b { n++; t = timestamp; a[pid, execname, \"k\"] = arg0 + 1; a[pid, execname, \"k\"] += arg0; "
                   "self->b[arg1] = a[pid, execname, \"k\"] + "
                   "n; @ = sum(self->b[arg1] - t); a[pid, execname, \"k\"] = 0; } a:::b /n > 3/ { self->b[arg1] = 0; "
                   "printf(\"%d %d\", n, a[tid, \"x\", \"y\"]); }"),
              std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsPpidVtimestampAndWalltimestamp) {
    dtrace_fastpath_probe layout{};
    layout.struct_size = sizeof layout;
    live::FastpathLoader::describe_task(layout);
    if (layout.task_real_parent == 0 || layout.task_exec_runtime == 0)
        GTEST_SKIP() << "this kernel's BTF (/sys/kernel/btf/vmlinux) does not describe task_struct";
    const fastpath::ProbeShape shape{6, 16, false, layout.task_real_parent, layout.task_tgid, layout.task_exec_runtime};
    EXPECT_EQ(
        load("a:::b /ppid != 1/ { trace(walltimestamp); @[ppid] = sum(vtimestamp); printf(\"%d\", ppid); }", shape),
        std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsCopyinstrAndLongStrings) {
    // Keys of strsize (256) bytes in the scratch map, compared with constants, recorded; faults go to the ring.
    EXPECT_EQ(load("a:::b /copyinstr(arg1) != \"/etc/passwd\"/ { @[copyinstr(arg1)] = count(); }"), std::nullopt);
    EXPECT_EQ(load("a:::b { @[copyinstr(arg0), execname, arg1, copyinstr(arg2, 8)] = sum(arg3); "
                   "printf(\"%s %s %d\\n\", copyinstr(arg1), execname, arg2); }"),
              std::nullopt);
    EXPECT_EQ(load("a:::b /execname == \"a string longer than sixteen\" || copyinstr(arg0) < copyinstr(arg1)/ "
                   "{ @[\"a string longer than sixteen\", execname] = count(); trace(copyinstr(arg0)); }"),
              std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsAProgramSharedByProbes) {
    // Records, probe names as keys and in predicates, and faults, each probe's found by its word at offset 8.
    auto program = test::compile_d("a:::b /probefunc != \"a_name_longer_than_sixteen\"/ { printf(\"%s %s %d\\n\", "
                                   "probefunc, probename, arg0); @[probefunc, probename] = count(); "
                                   "@s[copyinstr(arg1)] = count(); }");
    ASSERT_TRUE(program);
    fastpath::ProbeIdentity read{"syscall", "", "read", "entry", {7}, 0};
    fastpath::ProbeIdentity longer{"syscall", "", "a_name_longer_than_sixteen", "entry", {8}, 1};
    fastpath::SharedProgram shared{{&read, &longer}};
    fastpath::MapPlan plan;
    plan.ring_bytes = 1u << 16;
    fastpath::ProbeShape shape{6, 16, false};
    shape.probe_word_offset = 8;
    shape.probe_word_size = 4;
    const std::vector<uint64_t> insns = fastpath::build_shared_program(plan, shape, test::clauses_of(*program), shared);
    EXPECT_EQ(plan.initial_entries.size(), 2u);
    EXPECT_EQ(plan.records.size(), 2u); // a layout per enabled probe id
    EXPECT_EQ(plan.records.at(8).fields[0].text, "a_name_longer_than_sixteen");
    std::vector<int32_t> handles;
    const std::string map_error = test::create_maps(loader, plan, handles);
    ASSERT_EQ(map_error, "");
    for (const fastpath::MapPlan::Entry &e : plan.initial_entries) {
        std::string error;
        EXPECT_TRUE(loader.update_map(handles[e.map], e.key.data(), e.value.data(), error)) << error;
    }
    EXPECT_EQ(load_insns(insns, handles), std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsStddevAndLlquantize) {
    EXPECT_EQ(load("a:::b { @s[execname] = stddev(arg0); @l = llquantize(arg0, 10, 0, 6, 20); "
                   "@m = llquantize(arg1, 2, 0, 30, 2); }"),
              std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsRecordsOfEveryKindTheTranslationTakes) {
    EXPECT_EQ(load("a:::b /arg0 > 1/ { printf(\"%d %s %s:%s\\n\", arg0, execname, probefunc, probename); "
                   "trace(pid); trace(\"x\"); @ = count(); trace(arg1 * 2); }"),
              std::nullopt);
    EXPECT_EQ(load("a:::b { } a:::b /execname == \"sh\"/ { printf(\"%d\\n\", errno); }", {2, 16, true}), std::nullopt);
    EXPECT_EQ(load("a:::b { printf(\"%d %d %d %d %d %d %d %d %d %d\", arg0, arg1, arg2, arg3, arg4, arg5, pid, tid, "
                   "uid, gid); printf(\"%s %s %s %s\", execname, execname, execname, execname); }"),
              std::nullopt);
}

TEST_F(FastpathVerifier, RefusesAProgramThatReturnsNothingWithItsLog) {
    // exit without setting r0.
    fastpath::BpfEmitter out;
    out.exit();
    std::optional<std::string> log = load_insns(out.finish(), {});
    ASSERT_TRUE(log);
    EXPECT_NE(log->find("R0 !read_ok"), std::string::npos) << *log;
}

TEST_F(FastpathVerifier, RefusesAProgramNamingAMapItWasNotGiven) {
    fastpath::BpfEmitter out;
    out.load_map(fastpath::bpf::R1, 3);
    out.mov_imm(fastpath::bpf::R0, 0);
    out.exit();
    std::optional<std::string> log = load_insns(out.finish(), {});
    ASSERT_TRUE(log);
    EXPECT_EQ(*log, "the program names map 3, which it was not given");
}

// The sdt plugin's layouts (plugins/sdt/sdt_fastpath.cpp): a tracepoint's
// fields of each size and sign, and sched:::on-cpu on the raw sched_switch
// with the builtins of the task coming on (this kernel's offsets).
TEST_F(FastpathVerifier, AcceptsTracepointFieldsAndAnotherTasksBuiltins) {
    fastpath::ProbeShape fields;
    fields.nargs = 4;
    fields.context.flags = DTRACE_FASTPATH_ARG_FIELDS;
    fields.context.args = {fastpath::arg_field(8, 4, true), fastpath::arg_field(12, 2, true),
                           fastpath::arg_field(14, 1), fastpath::arg_field(16, 8)};
    EXPECT_EQ(load("a:::b /args[0] > 0/ { @[arg1, arg2, arg3, execname, pid] = count(); }", fields), std::nullopt);

    dtrace_fastpath_probe layout{};
    layout.struct_size = sizeof layout;
    live::FastpathLoader::describe_task(layout);
    if (layout.task_comm == 0 || layout.task_cred == 0)
        GTEST_SKIP() << "this kernel's BTF does not say where task_struct keeps comm and cred";
    layout.flags = DTRACE_FASTPATH_ARG_FIELDS | DTRACE_FASTPATH_THREAD_TASK | DTRACE_FASTPATH_RAW_TRACEPOINT;
    layout.thread_task_offset = 16;
    fastpath::ProbeShape on_cpu{DTRACE_FASTPATH_MAX_ARG_FIELDS,
                                0,
                                false,
                                layout.task_real_parent,
                                layout.task_tgid,
                                layout.task_exec_runtime,
                                fastpath::probe_context_of(layout)};
    EXPECT_EQ(load("a:::b { @[execname, pid, tid, uid, gid, ppid] = sum(vtimestamp); self->on = timestamp; }", on_cpu),
              std::nullopt);
}

TEST_F(FastpathVerifier, AcceptsStacks) {
    fastpath::ProbeShape shape{6, 16, false};
    shape.kernel_stacks = true; // as the syscall and sdt plugins give it
    // In the frame (a short stack with an integer) and in the scratch map (the default 20 frames, a string).
    EXPECT_EQ(load("a:::b { @[stack(2), pid] = count(); }", shape), std::nullopt);
    EXPECT_EQ(load("a:::b /pid == 42/ { @[stack(), execname] = sum(arg0); @q[stack(200)] = quantize(arg1); }", shape),
              std::nullopt);
    // In a record, between integers.
    EXPECT_EQ(load("a:::b { printf(\"%d\", arg0); stack(); trace(arg1); }", shape), std::nullopt);
}
