// live_options.cpp: reading the live options.
#include "live_options.h"

#include <charconv>
#include <string>

#include "bpf/live_record.h"

namespace dtrace::live {

namespace {

constexpr uint64_t kMaxRingBytes = 1ull << 30;

} // namespace

Result<uint64_t> parse_size(std::string_view text) {
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data())
        return Error{"'" + std::string(text) + "' is not a size"};
    std::string_view suffix(end, static_cast<size_t>(text.data() + text.size() - end));
    unsigned shift = 0;
    if (suffix == "k" || suffix == "K")
        shift = 10;
    else if (suffix == "m" || suffix == "M")
        shift = 20;
    else if (suffix == "g" || suffix == "G")
        shift = 30;
    else if (!suffix.empty())
        return Error{"'" + std::string(text) + "' is not a size"};
    if (value > (UINT64_MAX >> shift))
        return Error{"'" + std::string(text) + "' is too large"};
    return value << shift;
}

Result<LiveOptions> read_live_options(dtrace_host *host, const dtrace_host_ops *ops) {
    LiveOptions options;
    if (const char *ring = ops->get_option(host, "livebufsize")) {
        Result<uint64_t> bytes = parse_size(ring);
        if (!bytes)
            return Error{"livebufsize: " + bytes.error()};
        if (bytes.value() == 0 || bytes.value() > kMaxRingBytes)
            return Error{"livebufsize: " + std::string(ring) + " is outside 1 to 1g"};
        options.ring_bytes = bytes.value();
    }
    options.kernel_filter = ops->get_option(host, "livenofilter") == nullptr;
    return options;
}

uint32_t capture_limit(dtrace_host *host, const dtrace_host_ops *ops) {
    uint64_t limit = kDefaultStrsize;
    if (const char *strsize = ops->get_option(host, "strsize")) {
        if (Result<uint64_t> bytes = parse_size(strsize); bytes && bytes.value() > 0)
            limit = bytes.value();
    }
    return static_cast<uint32_t>(limit < LIVE_CAPTURE_MAX ? limit : LIVE_CAPTURE_MAX);
}

} // namespace dtrace::live
