// agg_sort.cpp: aggregation ordering (see agg_sort.h).
#include "consumer/agg_sort.h"

#include "aggdata/agg_data.h"

#include <algorithm>
#include <cstring>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read

namespace {

constexpr uint32_t kIntegerSizes[] = {sizeof(uint8_t), sizeof(uint16_t), sizeof(uint32_t), sizeof(uint64_t)};

int sign(long double d) {
    return d < 0 ? -1 : (d > 0 ? 1 : 0);
}

template <typename T> int three_way(T a, T b) {
    return a < b ? -1 : (a > b ? 1 : 0);
}

bool integer_record(size_t size) {
    return std::find(std::begin(kIntegerSizes), std::end(kIntegerSizes), size) != std::end(kIntegerSizes);
}

int compare_key_element(const Value &l, const Value &r) {
    const size_t size = l.record_size();
    if (int c = three_way(size, r.record_size()))
        return c;
    if (integer_record(size) && l.kind == Value::Kind::Integer && r.kind == Value::Kind::Integer)
        return three_way(l.as_unsigned(), r.as_unsigned());
    // usym(), umod(), uaddr(): the process id, then the address, as numbers
    // (DTrace's dt_aggregate_keycmp), not as their bytes.
    if (auto lu = l.user_address(), ru = r.user_address(); lu && ru) {
        if (int c = three_way(lu->pid, ru->pid))
            return c;
        return three_way(lu->address, ru->address);
    }
    // Byte by byte, unsigned, over records of equal size: a string that is a
    // prefix of the other is followed by its NUL padding and sorts first.
    const size_t common = std::min(l.bytes.size(), r.bytes.size());
    if (int c = common == 0 ? 0 : std::memcmp(l.bytes.data(), r.bytes.data(), common))
        return c < 0 ? -1 : 1;
    return three_way(l.bytes.size(), r.bytes.size());
}

// The quantities DTrace sorts distributions by: the sum of bucket values
// weighted by their counts, then the count at zero.
struct Weighted {
    long double total = 0;
    int64_t zero = 0;
};

Weighted weigh_quantize(std::span<const int64_t> d) {
    Weighted w;
    for (int i = 0; i < kQuantizeBuckets && static_cast<size_t>(i) < d.size(); ++i) {
        const int64_t v = quantize_bucket_value(i);
        if (v == 0)
            w.zero = d[static_cast<size_t>(i)];
        w.total += static_cast<long double>(v) * static_cast<long double>(d[static_cast<size_t>(i)]);
    }
    return w;
}

Weighted weigh_lquantize(const LquantizeParams &p, std::span<const int64_t> d) {
    Weighted w;
    if (d.size() != static_cast<size_t>(p.levels) + 2)
        return w;
    int32_t base = p.base;
    w.total = static_cast<long double>(d[0]) * static_cast<long double>(base - 1);
    if (base - 1 == 0)
        w.zero = d[0];
    bool zero_found = base - 1 == 0;
    for (int i = 0; i < p.levels; ++i, base += p.step) {
        w.total += static_cast<long double>(d[static_cast<size_t>(i) + 1]) * static_cast<long double>(base);
        if (!zero_found && base == 0) {
            w.zero = d[static_cast<size_t>(i) + 1];
            zero_found = true;
        }
    }
    // DTrace weighs the top bucket as one past its start, and looks for zero
    // there the same way.
    w.total += static_cast<long double>(d[p.levels + 1u]) * static_cast<long double>(base + 1);
    if (!zero_found && base + 1 == 0)
        w.zero = d[p.levels + 1u];
    return w;
}

Weighted weigh_llquantize(const LlquantizeParams &p, std::span<const int64_t> d) {
    Weighted w;
    if (d.empty() || p.factor < 2 || p.steps == 0)
        return w;
    int64_t value = 1;
    int order = 0;
    for (; order < p.low; ++order)
        value = times_factor(value, p.factor);
    size_t bin = 0;
    w.total = static_cast<long double>(d[bin++]) * static_cast<long double>(value - 1);
    int64_t next = times_factor(value, p.factor);
    int64_t step = next > p.steps ? next / p.steps : 1;
    while (order <= p.high && bin < d.size()) {
        w.total += static_cast<long double>(d[bin++]) * static_cast<long double>(value);
        if ((value += step) != next)
            continue;
        next = times_factor(value, p.factor);
        step = next > p.steps ? next / p.steps : 1;
        ++order;
    }
    if (bin < d.size())
        w.total += static_cast<long double>(d[bin]) * static_cast<long double>(value);
    w.zero = d[0];
    return w;
}

int compare_weighted(const Weighted &l, const Weighted &r) {
    if (int c = sign(l.total - r.total))
        return c;
    return three_way(l.zero, r.zero);
}

int64_t average(std::span<const int64_t> d) {
    return d.size() >= 2 && d[0] != 0 ? d[1] / d[0] : 0;
}

int apply_reverse(int c, bool reverse) {
    return reverse ? -c : c;
}

} // namespace

int compare_keys(std::span<const Value> lhs, std::span<const Value> rhs, int keypos) {
    if (int c = three_way(lhs.size(), rhs.size()))
        return c;
    const size_t n = lhs.size();
    const size_t start = keypos < 0 || static_cast<size_t>(keypos) >= n ? 0 : static_cast<size_t>(keypos);
    for (size_t i = 0; i < n; ++i) {
        const size_t k = (i + start) % n;
        if (int c = compare_key_element(lhs[k], rhs[k]))
            return c;
    }
    return 0;
}

namespace {

// What an entry sorts by, computed once per entry (long double holds every
// 64-bit integer exactly, so scalar values compare as they are).
Weighted weigh(AggFunc func, std::span<const int64_t> params, std::span<const int64_t> data) {
    Weighted w;
    switch (func) {
    case AggFunc::Avg:
        w.total = static_cast<long double>(average(data));
        break;
    case AggFunc::Stddev:
        w.total = static_cast<long double>(stddev_value(data));
        break;
    case AggFunc::Quantize:
        return weigh_quantize(data);
    case AggFunc::Lquantize:
        return weigh_lquantize(lquantize_params(params), data);
    case AggFunc::Llquantize:
        return weigh_llquantize(llquantize_params(params), data);
    case AggFunc::Count:
    case AggFunc::Sum:
    case AggFunc::Min:
    case AggFunc::Max:
        w.total = static_cast<long double>(data.empty() ? 0 : data[0]);
        break;
    }
    return w;
}

} // namespace

int compare_values(AggFunc func, std::span<const int64_t> params, std::span<const int64_t> lhs,
                   std::span<const int64_t> rhs) {
    return compare_weighted(weigh(func, params, lhs), weigh(func, params, rhs));
}

namespace {

// The first key element compare_keys() looks at, reduced to what decides
// most comparisons: its record size, then its value (integers), its process
// id (usym() and kin) or its first eight bytes read big-endian (so that they
// order as memcmp() would).
struct KeyPrefix {
    size_t size = 0;
    uint64_t head = 0;
};

KeyPrefix key_prefix(std::span<const Value> key, int keypos) {
    KeyPrefix p;
    if (key.empty())
        return p;
    const size_t k = keypos < 0 || static_cast<size_t>(keypos) >= key.size() ? 0 : static_cast<size_t>(keypos);
    const Value &v = key[k];
    p.size = v.record_size();
    if (v.kind == Value::Kind::Integer && integer_record(p.size)) {
        p.head = v.as_unsigned();
        return p;
    }
    if (auto user = v.user_address()) {
        p.head = user->pid;
        return p;
    }
    for (size_t i = 0; i < sizeof p.head; ++i)
        p.head = p.head << 8 | (i < v.bytes.size() ? static_cast<uint8_t>(v.bytes[i]) : 0);
    return p;
}

} // namespace

std::vector<size_t> sorted_entries(const AggregationSnapshot &agg, const AggSortOptions &options) {
    // Sorting a million entries is mostly comparing them: everything a
    // comparison needs first sits in one contiguous item per entry, and the
    // whole keys are looked at only when those are equal.
    struct Item {
        Weighted value;
        KeyPrefix key;
        size_t index;
    };
    std::vector<Item> items(agg.entries.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const AggEntry &e = agg.entries[i];
        items[i].index = i;
        items[i].key = key_prefix(e.key, options.sortkeypos);
        if (!options.sortkey)
            items[i].value = weigh(agg.decl.func, agg.decl.params, e.data);
    }
    auto compare = [&](const Item &a, const Item &b) {
        int c = options.sortkey ? 0 : compare_weighted(a.value, b.value);
        if (c == 0)
            c = three_way(a.key.size, b.key.size);
        if (c == 0)
            c = three_way(a.key.head, b.key.head);
        if (c == 0)
            c = compare_keys(agg.entries[a.index].key, agg.entries[b.index].key, options.sortkeypos);
        return apply_reverse(c, options.sortrev) < 0;
    };
    std::stable_sort(items.begin(), items.end(), compare);
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < items.size(); ++i)
        order[i] = items[i].index;
    return order;
}

std::vector<int64_t> zero_data(const AggregationSnapshot &agg) {
    return std::vector<int64_t>(aggregate_init(agg.decl.func, agg.decl.params).size(), 0);
}

std::vector<JoinedRow> join_aggregations(std::span<const AggregationSnapshot> aggs, const AggSortOptions &options) {
    const size_t n = aggs.size();
    if (n == 0)
        return {};
    const size_t sortpos =
        options.sortpos < 0 || static_cast<size_t>(options.sortpos) >= n ? 0 : static_cast<size_t>(options.sortpos);

    // Every (aggregation, entry), grouped by key: one group is one row.
    struct Item {
        size_t agg;
        size_t entry;
    };
    std::vector<Item> items;
    for (size_t a = 0; a < n; ++a) {
        for (size_t e = 0; e < aggs[a].entries.size(); ++e)
            items.push_back({a, e});
    }
    auto key_of = [&](const Item &it) -> const std::vector<Value> & { return aggs[it.agg].entries[it.entry].key; };
    std::stable_sort(items.begin(), items.end(), [&](const Item &l, const Item &r) {
        if (int c = compare_keys(key_of(l), key_of(r), 0))
            return c < 0;
        return aggs[l.agg].decl.id < aggs[r.agg].decl.id;
    });

    std::vector<JoinedRow> rows;
    for (size_t start = 0; start < items.size();) {
        size_t end = start + 1;
        while (end < items.size() && compare_keys(key_of(items[start]), key_of(items[end]), 0) == 0)
            ++end;
        JoinedRow row;
        row.key = key_of(items[start]);
        for (size_t p = 0; p < n; ++p) {
            const AggEntry *found = nullptr;
            for (size_t i = start; i < end && found == nullptr; ++i) {
                if (aggs[items[i].agg].decl.id == aggs[p].decl.id)
                    found = &aggs[items[i].agg].entries[items[i].entry];
            }
            row.data.push_back(found != nullptr ? found->data : zero_data(aggs[p]));
            row.normals.push_back(found != nullptr ? found->normal : 1);
        }
        rows.push_back(std::move(row));
        start = end;
    }

    // Rows sort by the values starting with aggregation `sortpos` (and
    // wrapping around), then by key; aggsortkey puts the key first.
    std::stable_sort(rows.begin(), rows.end(), [&](const JoinedRow &l, const JoinedRow &r) {
        int c = options.sortkey ? compare_keys(l.key, r.key, options.sortkeypos) : 0;
        for (size_t i = 0; i < n && c == 0; ++i) {
            const size_t p = (i + sortpos) % n;
            c = compare_values(aggs[p].decl.func, aggs[p].decl.params, l.data[p], r.data[p]);
        }
        if (c == 0 && !options.sortkey)
            c = compare_keys(l.key, r.key, options.sortkeypos);
        return apply_reverse(c, options.sortrev) < 0;
    });
    return rows;
}

} // namespace dtrace::consumer
