// test_support.cpp: helpers shared by the consumer tests (see test_support.h).
#include "test_support.h"

#include <cstdlib>
#include <ctime>
#include <vector>

namespace dtrace::consumer::test {

Format parsed(std::string_view text) {
    auto f = parse_format(text);
    EXPECT_TRUE(f.ok()) << "format \"" << text << "\" failed: " << (f ? "" : f.error().message);
    return f ? f.value() : Format{};
}

std::string printf_of(std::string_view text, std::initializer_list<Value> args, const FormatContext &ctx) {
    const std::vector<Value> v(args);
    auto out = format(parsed(text), v, ctx);
    return out ? out.value() : "<error: " + out.reason() + ">";
}

ScopedTimeZone::ScopedTimeZone(const char *tz) {
    if (const char *old = std::getenv("TZ")) {
        had_ = true;
        saved_ = old;
    }
    setenv("TZ", tz, 1);
    tzset();
}

ScopedTimeZone::~ScopedTimeZone() {
    if (had_)
        setenv("TZ", saved_.c_str(), 1);
    else
        unsetenv("TZ");
    tzset();
}

} // namespace dtrace::consumer::test
