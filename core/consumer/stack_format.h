// stack_format.h: stack() and ustack() records as DTrace prints them.
//
// A stack starts on a new line and prints one frame per line, indented by the
// stackindent option, until the first zero program counter. Each frame is
// the symbol a resolver finds ("module`function+0x1c") or the bare address.
// printf's %k runs every frame through its own conversion, hence `frame`.
#pragma once

#include "consumer/printf_format.h"
#include "consumer/value.h"

#include <functional>
#include <string>

namespace dtrace::consumer {

inline constexpr int kDefaultStackIndent = 14;

// `stack` is a Value of kind Stack (kernel frames) or UserStack (pid, then
// user frames); anything else prints as nothing.
std::string format_stack(const Value &stack, const Resolvers &resolvers, int indent = kDefaultStackIndent,
                         const std::function<std::string(const std::string &)> &frame = {});

} // namespace dtrace::consumer
