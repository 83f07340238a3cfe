// Variables: D semantics of every scope, directly and through the VM —
// unset reads, deletion by 0 and "", thread-local isolation, associative
// keys of mixed types, by-value strings, clause-local reset and the dynamic
// variable budget.
#include "dif/variables.h"
#include "dif_test_util.h"

#include <gtest/gtest.h>

#include <cstring>

namespace dtrace::dif {
namespace {

using test::Runner;

constexpr const char *kVars = "NAME ID KND SCP FLAG TYPE\n"
                              "g 100 scl glb int64\n"
                              "gs 101 scl glb string\n"
                              "a 102 arr glb int64\n"
                              "as 103 arr glb string\n"
                              "t 100 scl tls int64\n"
                              "ts 101 scl tls string\n"
                              "ta 102 arr tls int64\n"
                              "l 100 scl loc int64\n"
                              "ls 101 scl loc string\n";

std::string with_vars(const std::string &body) {
    return body + "\n" + kVars;
}

class VariablesVm : public ::testing::Test {
  protected:
    uint64_t run(const std::string &body) { return r.run(with_vars(body)); }
    std::string run_string(const std::string &body) { return r.string_at(run(body)); }
    Runner r;
};

TEST_F(VariablesVm, UnsetReadsAreZeroOrEmpty) {
    EXPECT_EQ(run("ldgv %r1, g\nret %r1"), 0u);
    EXPECT_EQ(run_string("ldgv %r1, gs\nret %r1"), "");
    EXPECT_EQ(run("ldtv %r1, t\nret %r1"), 0u);
    EXPECT_EQ(run_string("ldtv %r1, ts\nret %r1"), "");
    EXPECT_EQ(run("setx %r2, 1\npushtv %r2, 8\nldga %r1, a\nret %r1"), 0u);
    EXPECT_EQ(run_string("setx %r2, 1\npushtv %r2, 8\nldga %r1, as\nret %r1"), "");
    EXPECT_EQ(run("ldlv %r1, l\nret %r1"), 0u);
    EXPECT_EQ(run_string("ldlv %r1, ls\nret %r1"), "");
}

TEST_F(VariablesVm, GlobalScalarsPersistAcrossClauses) {
    run("setx %r1, 42\nstgv g, %r1\nret %r0");
    r.vm.begin_clause();
    EXPECT_EQ(run("ldgv %r1, g\nret %r1"), 42u);
}

TEST_F(VariablesVm, StringsAreStoredByValue) {
    // The source is scratch, which the next clause reuses.
    run("sets %r1, \"hello\"\npushts %r1\ncall %r2, toupper\nstgv gs, %r2\nret %r0");
    r.vm.begin_clause();
    run("sets %r1, \"zzzzzzzz\"\npushts %r1\ncall %r2, toupper\nret %r2"); // overwrite the old scratch
    EXPECT_EQ(run_string("ldgv %r1, gs\nret %r1"), "HELLO");
}

TEST_F(VariablesVm, StringsAreCutToStrsize) {
    VmConfig c;
    c.strsize = 4;
    Runner small(c);
    uint64_t a = small.run(with_vars("sets %r1, \"abcdefg\"\nstgv gs, %r1\nldgv %r2, gs\nret %r2"));
    EXPECT_EQ(small.string_at(a), "abc");
}

TEST_F(VariablesVm, ThreadLocalsAreIsolatedByThread) {
    r.env.builtins[VarId::Tid] = 1;
    run("setx %r1, 11\nsttv t, %r1\nret %r0");
    r.env.builtins[VarId::Tid] = 2;
    EXPECT_EQ(run("ldtv %r1, t\nret %r1"), 0u);
    run("setx %r1, 22\nsttv t, %r1\nret %r0");
    r.env.builtins[VarId::Tid] = 1;
    EXPECT_EQ(run("ldtv %r1, t\nret %r1"), 11u);
    r.env.builtins[VarId::Tid] = 2;
    EXPECT_EQ(run("ldtv %r1, t\nret %r1"), 22u);
    EXPECT_EQ(r.vm.variables().dynamic_count(), 2u);
}

TEST_F(VariablesVm, StoringZeroDeletesDynamicVariables) {
    run("setx %r1, 5\nsttv t, %r1\nret %r0");
    EXPECT_EQ(r.vm.variables().dynamic_count(), 1u);
    run("sttv t, %r0\nret %r0");
    EXPECT_EQ(r.vm.variables().dynamic_count(), 0u);
    EXPECT_EQ(run("ldtv %r1, t\nret %r1"), 0u);
    EXPECT_EQ(r.vm.variables().dynamic_bytes_used(), 0u);
}

TEST_F(VariablesVm, StoringEmptyStringDeletes) {
    run("sets %r1, \"x\"\nsttv ts, %r1\nret %r0");
    EXPECT_EQ(r.vm.variables().dynamic_count(), 1u);
    run("sets %r1, \"\"\nsttv ts, %r1\nret %r0");
    EXPECT_EQ(r.vm.variables().dynamic_count(), 0u);
    run("sets %r1, \"y\"\nsetx %r2, 1\npushtv %r2, 8\nstga as, %r1\nret %r0");
    EXPECT_EQ(r.vm.variables().dynamic_count(), 1u);
    run("setx %r2, 1\npushtv %r2, 8\nstga as, %r0\nret %r0"); // a null string deletes too
    EXPECT_EQ(r.vm.variables().dynamic_count(), 0u);
}

TEST_F(VariablesVm, AssociativeKeysOfMixedTypes) {
    // a["x", 1] = 10; a["x", 2] = 20; a["xy", 1] = 30; a[1, "x"] = 40 (another shape)
    auto store = [&](const std::string &keys, int value) {
        run(keys + "setx %r7, " + std::to_string(value) + "\nstga a, %r7\nret %r0");
    };
    auto load = [&](const std::string &keys) { return run(keys + "ldga %r7, a\nret %r7"); };
    std::string x1 = "sets %r1, \"x\"\nsetx %r2, 1\npushts %r1\npushtv %r2, 8\n";
    std::string x2 = "sets %r1, \"x\"\nsetx %r2, 2\npushts %r1\npushtv %r2, 8\n";
    std::string xy1 = "sets %r1, \"xy\"\nsetx %r2, 1\npushts %r1\npushtv %r2, 8\n";
    std::string one_x = "sets %r1, \"x\"\nsetx %r2, 1\npushtv %r2, 8\npushts %r1\n";
    store(x1, 10);
    store(x2, 20);
    store(xy1, 30);
    store(one_x, 40);
    EXPECT_EQ(load(x1), 10u);
    EXPECT_EQ(load(x2), 20u);
    EXPECT_EQ(load(xy1), 30u);
    EXPECT_EQ(load(one_x), 40u);
    // Equal strings at different addresses are the same key.
    std::string x1_copy = "sets %r1, \"x\"\npushts %r1\ncall %r1, toupper\npushts %r1\ncall %r1, tolower\n"
                          "setx %r2, 1\npushts %r1\npushtv %r2, 8\n";
    EXPECT_EQ(load(x1_copy), 10u);
}

TEST_F(VariablesVm, ByRefKeys) {
    // a[*p] where p points at 12 bytes: equal bytes are the same key.
    std::string key = "setx %r1, 12\nallocs %r2, %r1\nsetx %r3, 5\nstw [%r2+8], %r3\npushtr %r2, %r1\n";
    run(key + "setx %r4, 50\nstga a, %r4\nret %r0");
    EXPECT_EQ(run(key + "ldga %r4, a\nret %r4"), 50u);
    std::string other = "setx %r1, 12\nallocs %r2, %r1\nsetx %r3, 6\nstw [%r2+8], %r3\npushtr %r2, %r1\n";
    EXPECT_EQ(run(other + "ldga %r4, a\nret %r4"), 0u);
}

TEST_F(VariablesVm, ThreadLocalArraysAreKeyedByThreadAndTuple) {
    std::string key = "setx %r2, 7\npushtv %r2, 8\n";
    r.env.builtins[VarId::Tid] = 1;
    run(key + "setx %r1, 70\nstta ta, %r1\nret %r0");
    EXPECT_EQ(run(key + "ldta %r1, ta\nret %r1"), 70u);
    r.env.builtins[VarId::Tid] = 2;
    EXPECT_EQ(run(key + "ldta %r1, ta\nret %r1"), 0u);
}

TEST_F(VariablesVm, ClauseLocalsLiveAcrossClausesAndResetAtEachFiring) {
    EXPECT_EQ(run("setx %r1, 3\nstlv l, %r1\nldlv %r2, l\nret %r2"), 3u);
    EXPECT_EQ(run("ldlv %r2, l\nret %r2"), 3u); // another DIFO of the same clause
    r.vm.begin_clause();
    EXPECT_EQ(run("ldlv %r2, l\nret %r2"), 3u); // the next clause of the same firing
    run("sets %r1, \"s\"\nstlv ls, %r1\nret %r0");
    r.vm.begin_clause();
    EXPECT_EQ(run_string("ldlv %r2, ls\nret %r2"), "s");
    r.vm.begin_firing();
    EXPECT_EQ(run("ldlv %r2, l\nret %r2"), 0u);
    EXPECT_EQ(run_string("ldlv %r2, ls\nret %r2"), "");
}

TEST_F(VariablesVm, ALoadedStringSurvivesItsDeletionWithinTheClause) {
    // this->s = self->s; self->s = 0; strlen(this->s-as-register)
    run("sets %r1, \"abcd\"\nsttv ts, %r1\nret %r0");
    EXPECT_EQ(run("ldtv %r1, ts\nsttv ts, %r0\npushts %r1\ncall %r2, strlen\nret %r2"), 4u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
}

TEST_F(VariablesVm, VariableStorageIsReadableOnlyAfterItIsHandedOut) {
    uint64_t a = run("sets %r1, \"v\"\nstgv gs, %r1\nldgv %r2, gs\nret %r2");
    r.vm.begin_clause();
    // The address is remembered from the last clause but not loaded in this one.
    run("setx %r1, " + std::to_string(a) + "\nldub %r2, [%r1]\nret %r2");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
}

TEST_F(VariablesVm, DynamicVariableDropsWhenTheBudgetIsExhausted) {
    VmConfig c;
    c.dynvarsize = 1024;
    Runner small(c);
    for (int tid = 1; tid <= 100; tid++) {
        small.env.builtins[VarId::Tid] = static_cast<uint64_t>(tid);
        small.run(with_vars("setx %r1, 1\nsttv t, %r1\nret %r0"));
        ASSERT_EQ(small.fault.kind, FaultKind::None);
    }
    Variables &v = small.vm.variables();
    EXPECT_GT(v.dynamic_count(), 0u);
    EXPECT_LT(v.dynamic_count(), 100u);
    EXPECT_LE(v.dynamic_bytes_used(), 1024u);
    EXPECT_EQ(v.drops(), 100u - v.dynamic_count());
    EXPECT_EQ(v.take_drops(), v.drops());
    EXPECT_EQ(v.take_drops(), 0u);
    // A dropped store reads back as unset; existing elements still update.
    small.env.builtins[VarId::Tid] = 100;
    EXPECT_EQ(small.run(with_vars("ldtv %r1, t\nret %r1")), 0u);
    small.env.builtins[VarId::Tid] = 1;
    EXPECT_EQ(small.run(with_vars("setx %r1, 9\nsttv t, %r1\nldtv %r1, t\nret %r1")), 9u);
}

TEST(Variables, DeclarationsMustAgree) {
    Variables v;
    Variable x{0x100, Scope::Global, false, {}, "x"};
    EXPECT_TRUE(v.declare(x));
    EXPECT_TRUE(v.declare(x));
    Variable conflicting = x;
    conflicting.type = {TypeDesc::Kind::String, 256, false};
    EXPECT_FALSE(v.declare(conflicting));
    Variable other_scope = conflicting;
    other_scope.scope = Scope::ThreadLocal;
    EXPECT_TRUE(v.declare(other_scope));
    EXPECT_FALSE(v.declare(Variable{0x10, Scope::Global, false, {}, "low"}));
    EXPECT_FALSE(v.declare(Variable{kMaxVariableId + 1, Scope::Global, false, {}, "high"}));
    EXPECT_FALSE(v.declare(Variable{0x101, Scope::ClauseLocal, true, {}, "local array"}));
    ASSERT_NE(v.find(Scope::Global, 0x100), nullptr);
    EXPECT_EQ(v.find(Scope::Global, 0x101), nullptr);
}

TEST(Variables, ByRefValuesAreCopied) {
    Variables v;
    Variable s{0x100, Scope::Global, true, {TypeDesc::Kind::ByRef, 12, false}, "st"};
    ASSERT_TRUE(v.declare(s));
    const VarDecl &d = *v.find(Scope::Global, 0x100);
    uint8_t bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const uint64_t k[] = {1, 'k'}, other[] = {1, 'o'};
    v.store_element(d, 0, k, StoreSource{1, bytes, sizeof bytes});
    bytes[0] = 99;
    VarValue got = v.load_element(d, 0, k);
    ASSERT_NE(got.storage, nullptr);
    EXPECT_EQ(got.size, 12u);
    EXPECT_EQ(got.storage[0], 1);
    EXPECT_EQ(got.storage[11], 12);
    EXPECT_EQ(v.load_element(d, 0, other).value, 0u); // unset by-ref reads as a null pointer
    v.store_element(d, 0, k, StoreSource{0});
    EXPECT_EQ(v.dynamic_count(), 0u);
}

TEST(Variables, ManyElementsSurviveGrowthAndDeletion) {
    Variables v(VariablesConfig{256, 64 << 20});
    Variable a{0x100, Scope::Global, true, {}, "a"};
    ASSERT_TRUE(v.declare(a));
    const VarDecl &d = *v.find(Scope::Global, 0x100);
    uint64_t word;
    auto key = [&](uint64_t i) {
        word = i;
        return Variables::TupleKey(&word, 1);
    };
    constexpr uint64_t kCount = 5000;
    for (uint64_t i = 1; i <= kCount; i++)
        v.store_element(d, 0, key(i), StoreSource{i * 3});
    for (uint64_t i = 1; i <= kCount; i += 2)
        v.store_element(d, 0, key(i), StoreSource{0});
    v.begin_clause();
    EXPECT_EQ(v.dynamic_count(), kCount / 2);
    for (uint64_t i = 1; i <= kCount; i++)
        ASSERT_EQ(v.load_element(d, 0, key(i)).value, i % 2 ? 0 : i * 3) << i;
    // Reinsertion reuses pooled elements and finds the right slots.
    for (uint64_t i = 1; i <= kCount; i += 2)
        v.store_element(d, 0, key(i), StoreSource{i});
    for (uint64_t i = 1; i <= kCount; i++)
        ASSERT_EQ(v.load_element(d, 0, key(i)).value, i % 2 ? i : i * 3) << i;
    EXPECT_EQ(v.drops(), 0u);
}

} // namespace
} // namespace dtrace::dif
