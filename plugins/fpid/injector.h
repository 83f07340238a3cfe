// injector.h: loading the fpid agent into a process dtrace holds under
// ptrace (stopped: a -c command at exec, a -p process where it was grabbed).
//
// The thread dtrace stopped calls dlopen(agent, RTLD_NOW) on our behalf: its
// registers are saved, it is set to enter libc's dlopen with a return address
// of 0, resumed, and caught at the fault that return makes; its registers are
// then put back (a system call it was stopped in restarts as if nothing
// happened) and it stays stopped for dtrace to release. The agent's
// constructor, run by that dlopen, hooks the functions.
//
// A -c command stopped at exec has no libc yet: it is first run to its entry
// point (a breakpoint there, removed when hit), where its libraries are
// loaded and initialised but none of its own code has run.
#pragma once

#include <cstdint>
#include <string>

#include "result.h"

namespace dtrace::fpid {

// Runs `pid` (stopped at exec, traced by this thread) to its entry point.
live::Status run_to_entry(int64_t pid);

// Makes stopped `pid` dlopen `agent_path`; ok once dlopen returned a handle.
live::Status inject_agent(int64_t pid, const std::string &agent_path);

} // namespace dtrace::fpid
