// replay_counters.cpp: the PMC counters of replayed events (see replay_counters.h).
#include "replay_counters.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

#include "reader/extended_items.h"

namespace dtrace::etw::plugin {

namespace {

constexpr size_t kCounterSize = 8; // little-endian u64 each

bool same_name(const char *a, const std::string &b) {
    return std::equal(b.begin(), b.end(), a, a + std::strlen(a), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

uint64_t counter_at(std::span<const uint8_t> counters, size_t i) {
    uint64_t value = 0;
    for (size_t b = 0; b < kCounterSize; ++b) {
        value |= static_cast<uint64_t>(counters[i * kCounterSize + b]) << (8 * b);
    }
    return value;
}

} // namespace

int ReplayCounters::resolve(bool replaying, const char *name, uint64_t &cookie, const char *&why) {
    if (!replaying) {
        why = nullptr;
        return -1;
    }
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end()) {
        it = names_.insert(names_.end(), name);
    }
    cookie = static_cast<uint64_t>(it - names_.begin());
    return 0;
}

int ReplayCounters::read(uint64_t cookie, const dtrace_event_ctx &ctx, uint64_t &value) const {
    const size_t end = offsetof(dtrace_event_ctx, counters) + sizeof ctx.counters;
    if (cookie >= names_.size() || ctx.struct_size < end || ctx.counters == nullptr) {
        return -1;
    }
    for (uint32_t i = 0; i < ctx.ncounters; ++i) {
        if (same_name(ctx.counters[i].name, names_[cookie])) {
            value = ctx.counters[i].value;
            return 0;
        }
    }
    return -1;
}

void event_counters(const Event &event, const kernel::PmcSources &pmc, std::vector<dtrace_counter_value> &out) {
    out.clear();
    const std::vector<std::string> &names = pmc.counter_names();
    if (names.empty()) { // no counters named: the common case, without a walk of the extended items
        return;
    }
    std::span<const uint8_t> counters = event.pmc_counters;
    if (counters.empty()) {
        if (std::optional<ExtendedItem> item = find_extended_item(event, ext_type::kPmcCounters)) {
            counters = item->data;
        }
    }
    const size_t n = std::min(names.size(), counters.size() / kCounterSize);
    for (size_t i = 0; i < n; ++i) {
        out.push_back({sizeof(dtrace_counter_value), names[i].c_str(), counter_at(counters, i)});
    }
}

} // namespace dtrace::etw::plugin
