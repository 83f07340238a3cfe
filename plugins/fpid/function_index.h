// function_index.h: the functions of a traced process that fpid probes can
// name, and where each runs once the process has mapped its module.
//
// Modules and functions are the pid provider's (plugins/live/modules: process_modules.h
// names modules as DTrace does, a.out, libc.so.6, libc; elf_functions.h reads
// symbols with one canonical name per address), so that fpid and pid
// descriptions match the same probes. A -c command stopped at exec has mapped
// only its executable and the dynamic linker: its libraries are those the
// linker lists, and their functions are placed when the agent is loaded
// (after the process has run to its entry point). Each function is planned
// for a hook from the file's bytes (hook/prologue.h), so a function that
// cannot be hooked is known when the description is read.
// The fpid agent and the decoder it links are left out: hooking them would
// trace the tracer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "elf_functions.h"
#include "process_maps.h"
#include "process_modules.h"
#include "prologue.h"
#include "result.h"

namespace dtrace::fpid {

struct TracedFunction {
    std::string module_path;
    std::string module;                      // as the probe registers it: the file's name
    std::vector<std::string> module_aliases; // the module's other names (libc, a.out), matched exactly
    std::string name;                        // as the probe registers it
    uint64_t file_offset = 0;
    uint32_t patch_length = 0; // from the plan
};

// A function the description matched and whether it can be hooked.
struct FunctionMatch {
    TracedFunction function;
    std::string refusal; // empty: hookable
};

class FunctionIndex {
  public:
    // The functions of process `pid` whose module and name match the
    // description's globs (nullptr or "" matches anything), in the modules
    // whose path is not in `skip` (those provided before).
    live::Result<std::vector<FunctionMatch>> match(int64_t pid, const char *module_glob, const char *function_glob,
                                                   const std::set<std::string> &skip = {});
    // The paths of the modules match() goes through in process `pid` now.
    std::set<std::string> module_paths(int64_t pid);
    // The dynamic linker's link-map function (_dl_debug_state) in process
    // `pid`, planned for the agent's own hook that follows dlopen and
    // dlclose; nullopt for a static program or a linker without it.
    std::optional<TracedFunction> link_map_hook(int64_t pid);

  private:
    // The process's modules: those mapped, and while it is stopped at exec
    // those the dynamic linker is about to load.
    std::vector<live::ProcessModule> modules_of(int64_t pid);
    struct Module {
        std::unique_ptr<live::ElfFunctions> functions;
        std::vector<uint64_t> starts; // every function's link address, sorted
    };
    const Module *module(const std::string &path);
    std::string plan(const Module &module, const live::ElfFunction &function, uint32_t &patch_length) const;

    std::map<std::string, std::unique_ptr<Module>> modules_; // by path; null: not an ELF file
};

// Where a process's files are mapped now, read once from /proc/PID/maps.
class ProcessAddresses {
  public:
    explicit ProcessAddresses(int64_t pid);
    // Where byte `file_offset` of `path` runs; 0 when not mapped.
    uint64_t of(const std::string &path, uint64_t file_offset) const;

  private:
    std::vector<live::stacks::Mapping> mappings_; // their paths resolved (realpath)
};

} // namespace dtrace::fpid
