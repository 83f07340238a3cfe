// expected.h: errors as values for the consumer (C++20 has no std::expected).
//
// Formatting can fail at run time the way libdtrace's consumer fails: a record
// that does not fit its conversion, a conversion the engine did not feed. The
// caller reports the error (dtrace(1M) says "processing aborted: <message>")
// and nothing throws across the consumer's boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtrace::consumer {

// A run-time consumer error, worded as libdtrace words its error number.
struct ConsumerError {
    std::string message;
};

template <typename T, typename E = ConsumerError> class [[nodiscard]] Expected {
  public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Expected(E error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool has_value() const { return state_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T &value() { return std::get<0>(state_); }
    const T &value() const { return std::get<0>(state_); }
    const E &error() const { return std::get<1>(state_); }

  private:
    std::variant<T, E> state_;
};

} // namespace dtrace::consumer
