// result.h: errors as values for the ETL reader.
//
// Opening a trace can fail for reasons the user must read ("<file>: buffer at
// offset 0x...: ..."); the reader never throws across its API, so open()
// returns either the reader or that message. Problems found later, while
// reading, do not stop the reader: they are counted in ReaderStats instead.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtrace::etw {

// Why an operation failed: a complete sentence fragment naming the file and,
// where there is one, the file offset.
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

} // namespace dtrace::etw
