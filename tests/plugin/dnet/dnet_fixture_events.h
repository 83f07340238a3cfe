// dnet_fixture_events.h: the .NET runtime events of the dnet tests' traces.
//
// One list of events (GCStart/GCEnd pairs, allocation ticks of three
// versions — one newer than the CLR manifest knows —, exceptions, a jitted
// method's load) with payloads laid out for a 32- or 64-bit process, written
// both as .etl and as .nettrace (make_dnet_fixtures.cpp, and the live test's
// stream), so that one dnet script prints the same on every format.
#pragma once

#include <cstdint>
#include <vector>

#include "reader/guid.h"

namespace dtrace::dnet::fixture {

struct RuntimeEvent {
    int64_t time_us = 0; // from the trace's start
    uint16_t id = 0;
    uint8_t version = 0;
    uint64_t keywords = 0;
    uint8_t level = 4;
    std::vector<uint8_t> payload;
};

inline constexpr uint32_t kPid = 300;
inline constexpr uint32_t kTid = 301;

// The events, in time order, for a process of pointer_size 4 or 8.
std::vector<RuntimeEvent> runtime_events(uint8_t pointer_size);

// The whole trace as a .nettrace stream of NetTrace `version` (4, 5, 6).
std::vector<uint8_t> runtime_nettrace(uint32_t version, uint8_t pointer_size);
// The whole trace as an .etl file.
std::vector<uint8_t> runtime_etl(uint8_t pointer_size);

} // namespace dtrace::dnet::fixture
