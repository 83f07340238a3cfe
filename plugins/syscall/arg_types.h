// arg_types.h: the D types of system call arguments.
//
// tracefs's format files give each argument's C type as the kernel declares
// it ("const char *", "umode_t", "struct stat *"). D must know a type to
// show it in -lv and to compile args[i]; the syscall provider's D library
// (syscall_d_types()) declares the kernel's scalar typedefs and the structure
// tags syscalls take pointers to. A type still unknown becomes the nearest
// generic one (a pointer `void *`, an integer of the field's size and
// signedness), so every probe's arguments compile.
#pragma once

#include <string>

#include "tracepoint_format.h"

namespace dtrace::syscall {

// The D type of a format field.
std::string d_type_of(const live::TracepointField &field);

// The D declarations d_type_of() relies on.
const std::string &syscall_d_types();

} // namespace dtrace::syscall
