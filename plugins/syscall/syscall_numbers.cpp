// syscall_numbers.cpp: the build-time table of system call numbers.
#include "syscall_numbers.h"

#include <algorithm>
#include <utility>

namespace dtrace::syscall {

namespace {

struct Numbered {
    std::string_view name;
    int number;
};

// Generated from asm/unistd_64.h at configure time (empty where the header
// is not x86-64's).
constexpr Numbered kNumbers[] = {
#include "syscall_numbers.inc"
    {"", -1},
};

// tracefs names (the kernel's SYSCALL_DEFINE names) that differ from __NR_ names.
constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
    {"newstat", "stat"},   {"newfstat", "fstat"},      {"newlstat", "lstat"},
    {"newuname", "uname"}, {"sendfile64", "sendfile"}, {"umount", "umount2"},
};

} // namespace

std::optional<int> syscall_number(std::string_view tracefs_name) {
    for (const auto &[alias, name] : kAliases) {
        if (alias == tracefs_name)
            tracefs_name = name;
    }
    auto found = std::find_if(std::begin(kNumbers), std::end(kNumbers),
                              [&](const Numbered &n) { return n.name == tracefs_name && n.number >= 0; });
    if (found == std::end(kNumbers))
        return std::nullopt;
    return found->number;
}

} // namespace dtrace::syscall
