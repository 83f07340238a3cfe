// test_support.h: small helpers shared by the consumer tests.
#pragma once

#include "consumer/printf_format.h"

#include <gtest/gtest.h>

#include <string>

namespace dtrace::consumer::test {

inline std::string spaces(size_t n) {
    return std::string(n, ' ');
}

// Parses `text`, failing the test if it does not parse.
Format parsed(std::string_view text);

// printf() of `args` through `text`; "<error: ...>" if it fails.
std::string printf_of(std::string_view text, std::initializer_list<Value> args, const FormatContext &ctx = {});

// Sets TZ for the duration of a test (time conversions are in local time).
class ScopedTimeZone {
  public:
    explicit ScopedTimeZone(const char *tz);
    ~ScopedTimeZone();

  private:
    std::string saved_;
    bool had_ = false;
};

} // namespace dtrace::consumer::test
