// pmc_sources.cpp: PMC source and counter names (see pmc_sources.h).
#include "kernel/pmc_sources.h"

#include <array>

#include "reader/utf16.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId Source{"Source"};
const MofFieldId SourceName{"SourceName"};
const MofFieldId CounterCount{"CounterCount"};
} // namespace field

// KPROFILE_SOURCE (wdm.h): the ids every Windows names the same way. Higher
// ids are the machine's own (its HAL's list), named only by the trace.
// clang-format off
constexpr std::array<std::string_view, 24> kStandardSources = {
    "Timer",                 "AlignmentFixup",        "TotalIssues",           "PipelineDry",
    "LoadInstructions",      "PipelineFrozen",        "BranchInstructions",    "TotalNonissues",
    "DcacheMisses",          "IcacheMisses",          "CacheMisses",           "BranchMispredictions",
    "StoreInstructions",     "FpInstructions",        "IntegerInstructions",   "2Issue",
    "3Issue",                "4Issue",                "SpecialInstructions",   "TotalCycles",
    "IcacheIssues",          "DcacheAccesses",        "MemoryBarrierCycles",   "LoadLinkedIssues",
};
// clang-format on

constexpr size_t kCounterConfigHeader = 4; // CounterCount
constexpr uint32_t kMaxCounters = 64;      // far more than a CPU has

} // namespace

std::vector<std::string> counter_config_names(std::span<const uint8_t> payload, uint32_t count) {
    std::vector<std::string> names;
    size_t at = kCounterConfigHeader;
    while (names.size() < count && names.size() < kMaxCounters && at < payload.size()) {
        Utf16String name = read_utf16z(payload.subspan(at));
        if (!name.terminated) {
            break;
        }
        names.push_back(std::move(name.utf8));
        at += name.bytes;
    }
    return names;
}

void PmcSources::note(const Event &event, const MofRecord &record) {
    if (event.opcode == kPmcCounterConfigOpcode) {
        counters_ = counter_config_names(event.payload, static_cast<uint32_t>(record.u(field::CounterCount)));
    } else if (event.opcode >= kSetIntervalOpcode && event.opcode <= kCollectionEndOpcode &&
               !record.s(field::SourceName).empty()) {
        sources_[static_cast<uint32_t>(record.u(field::Source))] = record.s(field::SourceName);
    }
}

std::string_view PmcSources::source_name(uint32_t id) const {
    if (auto it = sources_.find(id); it != sources_.end()) {
        return it->second;
    }
    return id < kStandardSources.size() ? kStandardSources[id] : std::string_view();
}

} // namespace dtrace::etw::plugin::kernel
