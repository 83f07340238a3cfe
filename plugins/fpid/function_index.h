// function_index.h: the functions of a traced process that fpid probes can
// name: every function symbol of the executable (module "a.out") and of
// each shared object it has mapped (module: the file's base name), at the
// address it runs at in the process.
//
// Read from /proc/PID/maps and the files' symbol tables (the stack helper's
// ElfImage, shared per build-id). A process stopped at exec has only its
// executable and the dynamic loader mapped; libraries appear once it runs.
// The fpid agent and the decoder library it links are left out: hooking
// them would trace the tracer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "image_cache.h"
#include "result.h"

namespace dtrace::fpid {

struct TracedFunction {
    std::string module; // "a.out" for the executable
    std::string name;   // the symbol, mangled as it is
    uint64_t address;   // in the process
    uint64_t size;      // bytes (0: the symbol gives none)
    uint64_t room;      // bytes up to the next symbol (padding after a tiny function)
};

// The functions of process `pid` whose module and name match the globs
// (nullptr or "" matches anything).
live::Result<std::vector<TracedFunction>> list_functions(int64_t pid, live::stacks::ImageCache &images,
                                                         const char *module_glob, const char *function_glob);

} // namespace dtrace::fpid
