// plugin_result.h: errors as values inside the plugins.
//
// A plugin's setup and its file readers fail for reasons the user must read
// ("cannot mount tracefs at /sys/kernel/tracing: Operation not permitted",
// "<file>: buffer at offset 0x...: ..."); nothing throws across their APIs,
// so each step returns its value or that message. Plugins build only against
// the SDK, so they cannot use the core's own Result.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtrace::plugin_common {

// Why an operation failed: a complete sentence fragment naming what failed
// (the file, the kernel object) and where.
struct Error {
    std::string message;
};

template <typename T> class [[nodiscard]] Result {
  public:
    Result(T value) : state_(std::move(value)) {}
    Result(Error error) : state_(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<T>(state_); }
    const T &value() const { return std::get<T>(state_); }
    const std::string &error() const { return std::get<Error>(state_).message; }

  private:
    std::variant<T, Error> state_;
};

// A step that yields nothing but may fail.
struct Done {};
using Status = Result<Done>;

} // namespace dtrace::plugin_common
