// demangle.cpp: demangling with the C++ runtime's __cxa_demangle.
#include "demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace dtrace::live {

namespace {

// Rust's legacy names end in "::h" and 16 hex digits, a hash of the crate.
void drop_rust_hash(std::string &name) {
    constexpr size_t kHashLength = 3 + 16;
    if (name.size() <= kHashLength || name.compare(name.size() - kHashLength, 3, "::h") != 0)
        return;
    if (name.find_first_not_of("0123456789abcdef", name.size() - 16) == std::string::npos)
        name.resize(name.size() - kHashLength);
}

} // namespace

std::string demangle(const std::string &name) {
    if (name.size() < 3 || name.compare(0, 2, "_Z") != 0)
        return name;
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> plain(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                      &std::free);
    if (status != 0 || !plain)
        return name;
    std::string out = plain.get();
    drop_rust_hash(out);
    return out;
}

} // namespace dtrace::live
