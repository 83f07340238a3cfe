// result.h: errors as values, the one vocabulary of the core's module
// boundaries (plugin host, consumer formatting, the CLI's file reading).
//
// An operation that can fail for a reason the user must read returns either
// its value or that reason, and nothing throws across a module boundary.
// The reason is a sentence fragment without the "dtrace: " prefix; the
// caller decides how to word the report around it. A module whose errors
// carry more than a sentence (the compiler's tagged diagnostics) names its
// own error type as the second parameter.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtrace {

// Why an operation failed.
struct Failure {
    std::string reason;
};

template <typename T, typename E = Failure> class [[nodiscard]] Result {
  public:
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Result(E error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T &value() { return std::get<0>(state_); }
    const T &value() const { return std::get<0>(state_); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const E &error() const { return std::get<1>(state_); }
    const std::string &reason() const requires std::is_same_v<E, Failure> { return error().reason; }

  private:
    std::variant<T, E> state_;
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

} // namespace dtrace
