// aggregation_merge.cpp: kernel entries to engine data (see aggregation_merge.h).
#include "fastpath/aggregation_merge.h"

#include "aggdata/agg_data.h"
#include "fastpath/aggregation_code.h"
#include "fastpath/user_stacks.h"

#include <algorithm>
#include <cstring>

namespace dtrace::fastpath {

using compiler::AggFunc;

std::string engine_key(const KernelAggregation &agg, std::string_view kernel_key, const KernelStackSkip &skip) {
    std::string out;
    size_t pos = 0;
    for (const dif::TypeDesc &type : agg.key_types) {
        if (is_kernel_stack(type)) {
            const uint32_t bytes = key_part_bytes(type, agg.string_bytes);
            out.append(engine_stack(type, kernel_key.substr(std::min(pos, kernel_key.size()), bytes), skip));
            pos += bytes;
        } else if (is_user_stack(type)) { // the engine's bytes already
            out.append(kernel_key.substr(std::min(pos, kernel_key.size()), type.size));
            pos += type.size;
        } else if (type.kind == dif::TypeDesc::Kind::String) {
            std::string_view bytes = kernel_key.substr(pos, agg.string_bytes);
            out.append(bytes.substr(0, bytes.find('\0')));
            out.push_back('\0');
            pos += agg.string_bytes;
        } else {
            const size_t size = type.size >= 1 && type.size <= 8 ? type.size : 8;
            out.append(kernel_key.substr(pos, size)); // the low-order bytes (little-endian)
            pos += 8;
        }
    }
    return out;
}

std::vector<int64_t> engine_data(const KernelAggregation &agg, const std::vector<std::vector<int64_t>> &cpu_values) {
    const AggFunc func = agg.decl->func;
    std::vector<int64_t> data = aggdata::aggregate_init(func, agg.decl->params);
    for (const std::vector<int64_t> &v : cpu_values) {
        if (v.size() < agg.value_words)
            continue;
        if (func == AggFunc::Min || func == AggFunc::Max) {
            if (v[0] != 0) // a CPU that saw the key
                aggdata::aggregate_merge(func, data, std::span<const int64_t>(&v[1], 1));
        } else {
            aggdata::aggregate_merge(func, data, std::span<const int64_t>(v.data(), data.size()));
        }
    }
    return data;
}

namespace {

// min() and max() merge their current value; the others their increase.
bool merges_difference(AggFunc func) {
    return func != AggFunc::Min && func != AggFunc::Max;
}

// min() and max(): the firings behind an entry (their first word), to tell
// whether it moved.
int64_t firings(const std::vector<std::vector<int64_t>> &cpu_values) {
    int64_t n = 0;
    for (const std::vector<int64_t> &v : cpu_values)
        n += v.empty() ? 0 : v[0];
    return n;
}

// stddev()'s sum of squares is one 128-bit number in two words (high, low):
// its increase borrows across them.
void subtract_squares(std::vector<int64_t> &merge, const std::vector<int64_t> &now, const std::vector<int64_t> &seen) {
    using u128 = unsigned __int128;
    auto squares = [](const std::vector<int64_t> &v) {
        return static_cast<u128>(static_cast<uint64_t>(v[2])) << 64 | static_cast<uint64_t>(v[3]);
    };
    const u128 increase = squares(now) - squares(seen);
    merge[2] = static_cast<int64_t>(static_cast<uint64_t>(increase >> 64));
    merge[3] = static_cast<int64_t>(static_cast<uint64_t>(increase));
}

} // namespace

std::vector<AggregationDeltas::Change> AggregationDeltas::changes(const KernelAggregation &agg,
                                                                  const std::vector<KernelEntry> &entries,
                                                                  const KernelStackSkip &skip) {
    // The kernel entries of one engine key (stack() keys: kernel stacks that
    // differ in the frames not shown) count as more CPUs of one entry.
    std::map<std::string, std::vector<std::vector<int64_t>>> by_key;
    for (const KernelEntry &entry : entries) {
        if (agg.single_entry && firings(entry.cpu_values) == 0)
            continue; // the array's entry, never fired
        std::vector<std::vector<int64_t>> &values = by_key[engine_key(agg, entry.key, skip)];
        values.insert(values.end(), entry.cpu_values.begin(), entry.cpu_values.end());
    }
    std::vector<Change> out;
    const AggFunc func = agg.decl->func;
    for (auto &[key, cpu_values] : by_key) {
        std::vector<int64_t> now = engine_data(agg, cpu_values);
        if (!merges_difference(func))
            now.push_back(firings(cpu_values)); // kept with what was seen
        auto [it, fresh] = seen_.try_emplace({agg.decl->name, key}, now);
        if (!fresh && it->second == now)
            continue;
        std::vector<int64_t> merge = now;
        if (merges_difference(func) && !fresh)
            for (size_t i = 0; i < merge.size() && i < it->second.size(); i++)
                merge[i] = static_cast<int64_t>(static_cast<uint64_t>(now[i]) - static_cast<uint64_t>(it->second[i]));
        if (func == AggFunc::Stddev && !fresh && merge.size() == 4 && it->second.size() == 4)
            subtract_squares(merge, now, it->second);
        if (!merges_difference(func))
            merge.pop_back();
        it->second = std::move(now);
        out.emplace_back(std::move(key), std::move(merge));
    }
    return out;
}

} // namespace dtrace::fastpath
