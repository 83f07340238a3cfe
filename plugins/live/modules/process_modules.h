// process_modules.h: the load objects of a traced process, and how a probe
// description's module field names them.
//
// A process's modules are the files it maps executable (/proc/PID/maps),
// its executable first. A -c command stopped at exec has mapped only its
// executable and the dynamic linker: the libraries it is about to load are
// what that linker lists for it (`ld.so --list`, what ldd runs), so that
// `pid$target:libc.so.6::entry` matches before libc is mapped. uprobes are
// placed by file and offset, so a library's probes work once it maps.
//
// A module is named, as DTrace names it, by its file name ("libc.so.6"),
// its soname, that name without its version suffix ("libc.so", "libc"),
// and "a.out" for the executable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "elf_functions.h"

namespace dtrace::live {

struct ProcessModule {
    std::string path;
    bool executable = false; // the process's a.out
};

// The modules process `pid` maps now (empty when it has gone).
std::vector<ProcessModule> mapped_modules(int64_t pid);

// The libraries `interpreter` (the executable's PT_INTERP) will load for
// `executable`, by path; empty when it cannot say.
std::vector<std::string> libraries_to_load(const std::string &interpreter, const std::string &executable);

// The names a probe description may use for a module.
std::vector<std::string> module_aliases(const std::string &path, const std::string &soname, bool executable);

// The module name of a probe: the file's name.
std::string module_file_name(const std::string &path);

// The dynamic linker's function it calls after every change of the list of
// libraries (startup, dlopen, dlclose): _dl_debug_state, what debuggers
// watch. A uprobe there that stops the process shows a tracer each library
// once it is mapped and before its code runs. nullptr: the linker has none.
const ElfFunction *link_map_hook(const ElfFunctions &linker);

} // namespace dtrace::live
