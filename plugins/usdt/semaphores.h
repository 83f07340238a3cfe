// semaphores.h: USDT is-enabled semaphores of a live process.
//
// A probe's semaphore is an unsigned short in the process's writable data
// (the `.probes` section) that the program tests before doing the work of
// a probe's arguments (PROVIDER_PROBE_ENABLED()). While a probe is enabled
// its tracer adds one to it, and takes that one away afterwards, so that
// several tracers (this dtrace, bpftrace) can share it; it is written
// through /proc/PID/mem, as bpftrace and bcc do. The semaphore is found by
// file offset in the process's mappings of the file: the file must be
// mapped (an executable is, from exec on; a library only once loaded).
#pragma once

#include <cstdint>
#include <string>

#include "plugin_result.h"

namespace dtrace::usdt {

// Adds `delta` (+1 or -1) to the semaphore at `file_offset` of `path` in
// process `pid`, never below 0.
plugin_common::Status adjust_semaphore(int64_t pid, const std::string &path, uint64_t file_offset, int delta);

// The address at which process `pid` maps byte `file_offset` of `path` (0: not mapped).
uint64_t mapped_address(int64_t pid, const std::string &path, uint64_t file_offset);

} // namespace dtrace::usdt
