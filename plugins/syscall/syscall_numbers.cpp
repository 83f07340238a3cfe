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

#if defined(__x86_64__)
// x86-64's calls newer than the oldest headers the project builds with
// (Debian 12's 6.1: up to 450), from the kernel's syscall_64.tbl: without
// them, each would keep a tracepoint of its own under syscall:::entry, and
// detaching 20 tracepoints takes seconds. A number the headers give wins.
constexpr Numbered kNewerNumbers[] = {
    {"uretprobe", 335},        {"uprobe", 336},        {"cachestat", 451},         {"fchmodat2", 452},
    {"map_shadow_stack", 453}, {"futex_wake", 454},    {"futex_wait", 455},        {"futex_requeue", 456},
    {"statmount", 457},        {"listmount", 458},     {"lsm_get_self_attr", 459}, {"lsm_set_self_attr", 460},
    {"lsm_list_modules", 461}, {"mseal", 462},         {"setxattrat", 463},        {"getxattrat", 464},
    {"listxattrat", 465},      {"removexattrat", 466}, {"open_tree_attr", 467},    {"file_getattr", 468},
    {"file_setattr", 469},
};
#else
constexpr Numbered kNewerNumbers[] = {{"", -1}};
#endif

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
    auto named = [&](const Numbered &n) { return n.name == tracefs_name && n.number >= 0; };
    if (auto found = std::find_if(std::begin(kNumbers), std::end(kNumbers), named); found != std::end(kNumbers))
        return found->number;
    if (auto found = std::find_if(std::begin(kNewerNumbers), std::end(kNewerNumbers), named);
        found != std::end(kNewerNumbers))
        return found->number;
    return std::nullopt;
}

} // namespace dtrace::syscall
