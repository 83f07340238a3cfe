// agg_data.cpp: aggregation layouts and arithmetic (see agg_data.h).
#include "aggdata/agg_data.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace dtrace::aggdata {

namespace {

using u128 = unsigned __int128;

constexpr int kBitsPerWord = 64;
constexpr size_t kStddevWords = 4;
constexpr size_t kStddevCount = 0;
constexpr size_t kStddevSum = 1;
constexpr size_t kStddevSquaresHigh = 2;
constexpr size_t kStddevSquaresLow = 3;
constexpr size_t kAvgWords = 2;
constexpr int kLquantizeExtraBuckets = 2; // below lo, at or above hi

u128 squares(std::span<const int64_t> data) {
    return (static_cast<u128>(static_cast<uint64_t>(data[kStddevSquaresHigh])) << kBitsPerWord) |
           static_cast<uint64_t>(data[kStddevSquaresLow]);
}

void set_squares(std::span<int64_t> data, u128 value) {
    data[kStddevSquaresHigh] = static_cast<int64_t>(static_cast<uint64_t>(value >> kBitsPerWord));
    data[kStddevSquaresLow] = static_cast<int64_t>(static_cast<uint64_t>(value));
}

// floor(sqrt(n)) for a 128-bit n, one result bit at a time.
uint64_t isqrt128(u128 n) {
    u128 result = 0;
    u128 bit = static_cast<u128>(1) << (2 * kBitsPerWord - 2);
    while (bit > n)
        bit >>= 2;
    while (bit != 0) {
        if (n >= result + bit) {
            n -= result + bit;
            result = (result >> 1) + bit;
        } else {
            result >>= 1;
        }
        bit >>= 2;
    }
    return static_cast<uint64_t>(result);
}

size_t data_size(AggFunc func, std::span<const int64_t> params) {
    switch (func) {
    case AggFunc::Count:
    case AggFunc::Sum:
    case AggFunc::Min:
    case AggFunc::Max:
        return 1;
    case AggFunc::Avg:
        return kAvgWords;
    case AggFunc::Stddev:
        return kStddevWords;
    case AggFunc::Quantize:
        return kQuantizeBuckets;
    case AggFunc::Lquantize:
        return static_cast<size_t>(lquantize_params(params).levels) + kLquantizeExtraBuckets;
    case AggFunc::Llquantize:
        return static_cast<size_t>(llquantize_buckets(llquantize_params(params)));
    }
    return 1;
}

int64_t wrapping_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

} // namespace

LquantizeParams lquantize_params(std::span<const int64_t> params) {
    LquantizeParams p;
    const int64_t lo = !params.empty() ? params[0] : 0;
    const int64_t hi = params.size() > 1 ? params[1] : lo;
    const int64_t step = params.size() > 2 && params[2] > 0 ? params[2] : 1;
    p.base = static_cast<int32_t>(
        std::clamp<int64_t>(lo, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
    p.step = static_cast<uint16_t>(std::min<int64_t>(step, std::numeric_limits<uint16_t>::max()));
    const int64_t levels = hi > lo ? (hi - lo) / p.step : 0;
    p.levels = static_cast<uint16_t>(std::clamp<int64_t>(levels, 0, std::numeric_limits<uint16_t>::max()));
    return p;
}

LlquantizeParams llquantize_params(std::span<const int64_t> params) {
    auto at = [&](size_t i) {
        const int64_t v = i < params.size() ? params[i] : 0;
        return static_cast<uint16_t>(std::clamp<int64_t>(v, 0, std::numeric_limits<uint16_t>::max()));
    };
    return LlquantizeParams{at(0), at(1), at(2), at(3)};
}

int64_t quantize_bucket_value(int bucket) {
    if (bucket < kQuantizeZeroBucket)
        return -(int64_t{1} << (kQuantizeZeroBucket - 1 - bucket));
    if (bucket == kQuantizeZeroBucket)
        return 0;
    return int64_t{1} << (bucket - kQuantizeZeroBucket - 1);
}

// The bucket is the power of two below the magnitude: bit arithmetic, not a
// search, as this runs at every quantize() firing.
int quantize_bucket(int64_t value) {
    if (value == 0)
        return kQuantizeZeroBucket;
    if (value > 0)
        return kQuantizeZeroBucket + static_cast<int>(std::bit_width(static_cast<uint64_t>(value)));
    const uint64_t magnitude = 0 - static_cast<uint64_t>(value);
    return std::max(0, kQuantizeZeroBucket - static_cast<int>(std::bit_width(magnitude)));
}

int lquantize_bucket(const LquantizeParams &p, int64_t value) {
    // DTrace aggregates lquantize() values as 32-bit integers.
    const int64_t v = static_cast<int32_t>(value);
    if (v < p.base)
        return 0;
    const int64_t level = (v - p.base) / (p.step == 0 ? 1 : p.step);
    return level < p.levels ? static_cast<int>(level) + 1 : p.levels + 1;
}

int64_t times_factor(int64_t v, int64_t factor) {
    int64_t out = 0;
    return __builtin_mul_overflow(v, factor, &out) ? std::numeric_limits<int64_t>::max() : out;
}

int llquantize_bucket(const LlquantizeParams &p, int64_t value) {
    if (p.factor < 2 || p.steps == 0)
        return 0;
    int64_t power = 1;
    int order = 0;
    for (; order < p.low; ++order)
        power = times_factor(power, p.factor);
    int64_t last = power;
    if (value < last)
        return 0;
    int base = 1;
    for (power = times_factor(power, p.factor); order <= p.high; ++order) {
        const int64_t nbuckets = power > p.steps ? p.steps : power;
        int64_t next = 0;
        if (__builtin_mul_overflow(power, int64_t{p.factor}, &next))
            value = power - 1; // the next order would overflow: clamp, as DTrace does
        if (value < power)
            return base + static_cast<int>((value - last) / (power / nbuckets));
        base += static_cast<int>(nbuckets - nbuckets / p.factor);
        last = power;
        power = next;
    }
    return base;
}

int llquantize_buckets(const LlquantizeParams &p) {
    return llquantize_bucket(p, std::numeric_limits<int64_t>::max()) + 1;
}

std::vector<int64_t> llquantize_bucket_starts(const LlquantizeParams &p) {
    std::vector<int64_t> starts{0};
    if (p.factor < 2 || p.low >= p.high || p.steps == 0 || p.factor > p.steps)
        return starts;
    int64_t value = 1;
    int order = 0;
    for (; order < p.low; ++order)
        value = times_factor(value, p.factor);
    int64_t next = times_factor(value, p.factor);
    int64_t step = next > p.steps ? next / p.steps : 1;
    while (order <= p.high) {
        starts.push_back(value);
        if ((value += step) != next)
            continue;
        next = times_factor(value, p.factor);
        step = next > p.steps ? next / p.steps : 1;
        ++order;
    }
    starts.push_back(value);
    return starts;
}

std::vector<int64_t> aggregate_init(AggFunc func, std::span<const int64_t> params) {
    std::vector<int64_t> data(data_size(func, params), 0);
    if (func == AggFunc::Min)
        data[0] = std::numeric_limits<int64_t>::max();
    if (func == AggFunc::Max)
        data[0] = std::numeric_limits<int64_t>::min();
    return data;
}

void aggregate_update(AggFunc func, std::span<const int64_t> params, std::vector<int64_t> &data, int64_t value,
                      int64_t increment) {
    if (data.size() != data_size(func, params))
        data = aggregate_init(func, params);
    aggregate_add(func, params, data, value, increment);
}

void aggregate_add_any(AggFunc func, std::span<const int64_t> params, std::span<int64_t> data, int64_t value,
                       int64_t increment) {
    switch (func) {
    case AggFunc::Count:
        data[0] = wrapping_add(data[0], 1);
        break;
    case AggFunc::Sum:
        data[0] = wrapping_add(data[0], value);
        break;
    case AggFunc::Avg:
        data[0] = wrapping_add(data[0], 1);
        data[1] = wrapping_add(data[1], value);
        break;
    case AggFunc::Min:
        data[0] = std::min(data[0], value);
        break;
    case AggFunc::Max:
        data[0] = std::max(data[0], value);
        break;
    case AggFunc::Stddev: {
        data[kStddevCount] = wrapping_add(data[kStddevCount], 1);
        data[kStddevSum] = wrapping_add(data[kStddevSum], value);
        const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
        set_squares(data, squares(data) + static_cast<u128>(magnitude) * magnitude);
        break;
    }
    case AggFunc::Quantize: {
        int64_t &bucket = data[static_cast<size_t>(quantize_bucket(value))];
        bucket = wrapping_add(bucket, increment);
        break;
    }
    case AggFunc::Lquantize: {
        int64_t &bucket = data[static_cast<size_t>(lquantize_bucket(lquantize_params(params), value))];
        bucket = wrapping_add(bucket, increment);
        break;
    }
    case AggFunc::Llquantize: {
        const size_t bucket = static_cast<size_t>(llquantize_bucket(llquantize_params(params), value));
        if (bucket < data.size())
            data[bucket] = wrapping_add(data[bucket], increment);
        break;
    }
    }
}

void aggregate_merge(AggFunc func, std::vector<int64_t> &into, std::span<const int64_t> from) {
    if (into.size() != from.size())
        return;
    switch (func) {
    case AggFunc::Min:
        into[0] = std::min(into[0], from[0]);
        return;
    case AggFunc::Max:
        into[0] = std::max(into[0], from[0]);
        return;
    case AggFunc::Stddev:
        into[kStddevCount] = wrapping_add(into[kStddevCount], from[kStddevCount]);
        into[kStddevSum] = wrapping_add(into[kStddevSum], from[kStddevSum]);
        set_squares(into, squares(into) + squares(from));
        return;
    default:
        for (size_t i = 0; i < into.size(); ++i)
            into[i] = wrapping_add(into[i], from[i]);
        return;
    }
}

uint64_t stddev_value(std::span<const int64_t> data, uint64_t normal) {
    if (data.size() < kStddevWords || data[kStddevCount] == 0 || normal == 0)
        return 0;
    const auto n = static_cast<uint64_t>(data[kStddevCount]);
    const u128 mean_of_squares = squares(data) / normal / normal / n;
    const int64_t mean = data[kStddevSum] / static_cast<int64_t>(normal) / static_cast<int64_t>(n);
    const uint64_t magnitude = mean < 0 ? 0 - static_cast<uint64_t>(mean) : static_cast<uint64_t>(mean);
    const u128 square_of_mean = static_cast<u128>(magnitude) * magnitude;
    return isqrt128(mean_of_squares - square_of_mean);
}

} // namespace dtrace::aggdata
