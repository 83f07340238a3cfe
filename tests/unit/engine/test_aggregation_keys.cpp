// Aggregation keys as the consumer reads them back, whichever way a firing
// made them (no key, one integer, a tuple).
#include "replayed_engine.h"

#include <cstring>

using namespace dtrace;
using dtrace::test::entries_of;
using Entries = dtrace::test::AggregationEntries;
using dtrace::test::ReplayedEngine;

namespace {

std::string bytes_of(uint64_t v, size_t size) {
    return std::string(reinterpret_cast<const char *>(&v), size);
}

} // namespace

TEST_F(ReplayedEngine, AnIntegerKeyIsItsTypesLowBytes) {
    enable("replay:::event { @wide[arg0] = count(); @narrow[(int)arg0] = sum(arg0); @byte[(char)arg0] = count(); }");
    const uint64_t args[] = {0x1122334455667788ull};
    for (int i = 0; i < 3; i++)
        fire_event(1000 + i, 0, 0, args);
    EXPECT_EQ(entries_of(engine, "wide"), (Entries{{bytes_of(args[0], 8), 3}}));
    EXPECT_EQ(entries_of(engine, "narrow"), (Entries{{bytes_of(args[0], 4), 3 * int64_t(args[0])}}));
    EXPECT_EQ(entries_of(engine, "byte"), (Entries{{bytes_of(args[0], 1), 3}}));
}

TEST_F(ReplayedEngine, IntegerKeysThatDifferAreApart) {
    enable("replay:::event { @[arg0] = count(); }");
    for (uint64_t v : {1, 2, 1, 256, 1}) {
        const uint64_t args[] = {v};
        fire_event(1000, 0, 0, args);
    }
    EXPECT_EQ(entries_of(engine, ""), (Entries{{bytes_of(1, 8), 3}, {bytes_of(2, 8), 1}, {bytes_of(256, 8), 1}}));
}

TEST_F(ReplayedEngine, NoKeyIsTheEmptyKey) {
    enable("replay:::event { @ = count(); }");
    fire_event(1000);
    fire_event(1001);
    EXPECT_EQ(entries_of(engine, ""), (Entries{{"", 2}}));
}

TEST_F(ReplayedEngine, ATupleKeyIsItsFieldsBackToBack) {
    enable("replay:::event { @[arg0, probename, (short)arg0] = count(); }");
    const uint64_t args[] = {0x0102030405060708ull};
    fire_event(1000, 0, 0, args);
    EXPECT_EQ(entries_of(engine, ""),
              (Entries{{bytes_of(args[0], 8) + std::string("event", 6) + bytes_of(args[0], 2), 1}}));
}

// A clause of aggregations whose keys and arguments are builtins is applied
// without running its DIFOs (Ecb::direct_aggregations); it must aggregate as
// the same clause run through the VM does (the `+ 0` keeps a DIFO from being
// a plain builtin read).
TEST_F(ReplayedEngine, ADirectAggregationAggregatesAsTheClauseRunsIt) {
    enable("replay:::event { @direct[arg0] = sum(arg1); @q = quantize(arg1, arg2); @e[epid] = count(); }\n"
           "replay:::event { @run[arg0 + 0] = sum(arg1 + 0); @qrun = quantize(arg1 + 0, arg2 + 0); }");
    const engine::Ecb *direct = engine.ecb(2);
    const engine::Ecb *run = engine.ecb(3);
    ASSERT_TRUE(direct && run);
    EXPECT_TRUE(direct->direct_aggregations);
    EXPECT_FALSE(run->direct_aggregations);
    for (uint64_t v : {1, 2, 1, 7}) {
        const uint64_t args[] = {v, v * 10, v};
        fire_event(1000 + v, 0, 0, args);
    }
    EXPECT_EQ(entries_of(engine, "direct"), entries_of(engine, "run"));
    EXPECT_EQ(entries_of(engine, "direct"),
              (Entries{{bytes_of(1, 8), 20}, {bytes_of(2, 8), 20}, {bytes_of(7, 8), 70}}));
    EXPECT_EQ(entries_of(engine, "q"), entries_of(engine, "qrun"));
    EXPECT_EQ(entries_of(engine, "e"), (Entries{{bytes_of(2, 4), 4}})) << "epid is the clause's own";
}

TEST_F(ReplayedEngine, APredicateOrARecordingActionKeepsAClauseOffTheDirectWay) {
    enable("replay:::event /arg0 == 2/ { @p = count(); }\n"
           "replay:::event { @t = count(); trace(arg0); }\n"
           "replay:::event { @k[arg0, arg1] = count(); }");
    for (int epid = 2; epid <= 4; epid++) {
        ASSERT_NE(engine.ecb(epid), nullptr);
        EXPECT_FALSE(engine.ecb(epid)->direct_aggregations) << "epid " << epid;
    }
    for (uint64_t v : {1, 2, 2}) {
        const uint64_t args[] = {v, v};
        fire_event(1000 + v, 0, 0, args);
    }
    EXPECT_EQ(count_of("p"), 2);
    EXPECT_EQ(count_of("t"), 3);
}

// A probe whose clauses are all direct (Probe::direct_only) is fired without
// run_ecbs(), unless its context needs filling in (a CPU beyond the buffers).
TEST_F(ReplayedEngine, AProbeOfDirectClausesOnlyAggregatesWithoutTheVm) {
    enable("replay:::event { @a = count(); }\n"
           "replay:::event { @b[arg0] = sum(arg1); @e[epid] = count(); }");
    ASSERT_NE(engine.ecb(2), nullptr);
    EXPECT_TRUE(engine.ecb(2)->probe->direct_only);
    const uint64_t args[] = {3, 4};
    fire_event(1000, 0, 0, args);
    fire_event(1001, 200, 0, args);
    EXPECT_EQ(count_of("a"), 2);
    EXPECT_EQ(entries_of(engine, "b"), (Entries{{bytes_of(3, 8), 8}}));
    EXPECT_EQ(entries_of(engine, "e"), (Entries{{bytes_of(3, 4), 2}})) << "epid is the clause's own";
}

TEST_F(ReplayedEngine, AClauseThatRunsItsDifosKeepsItsProbeOffTheDirectWay) {
    enable("replay:::event { @a = count(); }\n"
           "replay:::event { this->v = arg0; @t[this->v] = count(); }");
    ASSERT_NE(engine.ecb(2), nullptr);
    EXPECT_FALSE(engine.ecb(2)->probe->direct_only);
    for (uint64_t v : {1, 2, 1}) {
        const uint64_t args[] = {v};
        fire_event(1000 + v, 0, 0, args);
    }
    EXPECT_EQ(count_of("a"), 3);
    EXPECT_EQ(entries_of(engine, "t"), (Entries{{bytes_of(1, 8), 2}, {bytes_of(2, 8), 1}}));
}
