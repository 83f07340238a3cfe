// result.h: errors as values for the plugin host.
//
// Everything the host does to a plugin can fail for a reason the user must
// read (a dlerror text, a plugin's own report_error message). The host never
// throws across the plugin boundary, so each operation returns either its
// value or that reason; callers decide whether to go on with the others.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtrace::host {

// Why an operation failed, as a sentence fragment (no "dtrace: " prefix).
struct Failure {
    std::string reason;
};

template <typename T> class [[nodiscard]] Result {
  public:
    Result(T value) : state_(std::move(value)) {}
    Result(Failure failure) : state_(std::move(failure)) {}

    bool ok() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<T>(state_); }
    const T &value() const { return std::get<T>(state_); }
    const std::string &reason() const { return std::get<Failure>(state_).reason; }

  private:
    std::variant<T, Failure> state_;
};

// The result of an operation that yields nothing but may fail.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(Failure failure) : failure_(std::move(failure)), failed_(true) {}

    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string &reason() const { return failure_.reason; }

  private:
    Failure failure_;
    bool failed_ = false;
};

} // namespace dtrace::host
