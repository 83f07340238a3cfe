// syscall_numbers.h: a system call's number, from its tracefs name.
//
// The raw_syscalls tracepoints identify a call by its number only. The
// numbers are the architecture's ABI (they never change), taken at build
// time from the kernel headers' asm/unistd_64.h; a few tracefs names differ
// from the __NR_ names (newstat is stat); x86-64's calls newer than the
// oldest headers are listed too. A call neither knows (a kernel newer than
// both) is traced through its own tracepoint.
#pragma once

#include <optional>
#include <string_view>

namespace dtrace::syscall {

std::optional<int> syscall_number(std::string_view tracefs_name);

} // namespace dtrace::syscall
