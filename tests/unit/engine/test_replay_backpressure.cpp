// Replay backpressure: a replay that outruns the consumer waits for a buffer
// switch rather than drop records (except under the ring policy).
#include "replayed_engine.h"

#include <atomic>
#include <thread>

using namespace dtrace;
using dtrace::test::ReplayedEngine;

namespace {

constexpr uint64_t kEvents = 200;
constexpr size_t kTraceRecord = sizeof(engine::RecordHeader) + sizeof(uint64_t); // trace(arg0)

struct Consumed {
    uint64_t records = 0;
    uint64_t drops = 0;
    uint64_t switches_asked = 0; // buffer switches the replay asked for
};

uint64_t count_records(const std::vector<uint8_t> &bytes) {
    uint64_t n = 0;
    for (size_t at = 0; at + sizeof(engine::RecordHeader) <= bytes.size(); n++) {
        engine::RecordHeader h;
        std::memcpy(&h, bytes.data() + at, sizeof h);
        at += h.size;
    }
    return n;
}

// Replays kEvents events on `cpus` CPUs in turn while a consumer switches
// the buffers only when the replay asks for it (and once at the end).
Consumed replay_against_lazy_consumer(engine::Engine &engine, dtrace_probe_id event, uint32_t cpus) {
    std::atomic<bool> finished{false};
    std::thread replay([&] {
        for (uint64_t i = 0; i < kEvents; i++) {
            dtrace_event_ctx ctx{};
            ctx.struct_size = sizeof ctx;
            ctx.timestamp = ctx.walltimestamp = 1000 + i;
            ctx.cpu = static_cast<uint32_t>(i % cpus);
            ctx.flags = DTRACE_EVENT_REPLAYED;
            engine.fire(event, ctx);
        }
        finished.store(true);
    });
    Consumed c;
    auto take = [&] {
        for (const engine::Engine::CpuData &d : engine.take_buffers()) {
            c.records += count_records(d.records);
            c.drops += d.drops;
        }
    };
    while (!finished.load()) {
        if (engine.drain_wanted()) {
            c.switches_asked++;
            take();
        }
        std::this_thread::yield();
    }
    replay.join();
    take();
    return c;
}

// Buffers of eight trace(arg0) records: a replay must wait every six.
class Backpressure : public ReplayedEngine {
  protected:
    void SetUp() override {
        ReplayedEngine::SetUp();
        ASSERT_EQ(options.set("bufsize", std::to_string(8 * kTraceRecord)), std::nullopt);
    }
    // Enables `program` and replays with every record kept.
    Consumed replay_without_drops(const char *program, uint32_t cpus) {
        enable(program);
        Consumed c = replay_against_lazy_consumer(engine, event, cpus);
        EXPECT_EQ(c.drops, 0u);
        EXPECT_EQ(c.records, kEvents);
        return c;
    }
};

} // namespace

TEST_F(Backpressure, ReplayWaitsForTheConsumerInsteadOfDropping) {
    Consumed c = replay_without_drops("replay:::event { trace(arg0); }", 1);
    EXPECT_GE(c.switches_asked, kEvents / 8) << "a switch every six records or so";
}

TEST_F(Backpressure, EveryCpusBufferMakesTheReplayWait) {
    replay_without_drops("replay:::event { trace(arg0); }", 3);
}

TEST_F(Backpressure, FaultRecordsMakeTheReplayWaitToo) {
    replay_without_drops("replay:::event { trace(*(int *)0); }", 1); // every firing writes a fault record
}

TEST_F(Backpressure, ARingBufferOverwritesRatherThanWaits) {
    ASSERT_EQ(options.set("bufpolicy", "ring"), std::nullopt);
    enable("replay:::event { trace(arg0); }");
    Consumed c = replay_against_lazy_consumer(engine, event, 1);
    EXPECT_EQ(c.switches_asked, 0u);
    EXPECT_EQ(c.records, 0u) << "a ring buffer is read once tracing has stopped";
    engine.stop();
    for (const engine::Engine::CpuData &d : engine.take_buffers())
        c.records += count_records(d.records);
    EXPECT_EQ(c.records, 8u) << "the newest records that fit";
}
