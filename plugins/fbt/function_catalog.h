// function_catalog.h: the kernel functions fbt can probe, and where each
// lives (module "vmlinux" for the kernel itself, else the module's name).
//
// The list is read once, when a description first names fbt: tracefs's
// available_filter_functions where the kernel lets us read it (the functions
// ftrace, and so kprobes' fast path, can attach to), else the text symbols of
// /proc/kallsyms without what is not a function entry (__pfx_ padding,
// .cold parts, section markers); in both cases minus the kprobe blacklist
// (debugfs's kprobes/blacklist) when the kernel publishes it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "result.h"

namespace dtrace::fbt {

struct KernelFunction {
    std::string module; // "vmlinux" or the module's name
    std::string name;
    bool operator<(const KernelFunction &o) const { return module != o.module ? module < o.module : name < o.name; }
    bool operator==(const KernelFunction &o) const = default;
};

// Parsers, public for the tests and the fuzzer. Each gives the functions in
// the order of the text; sort_unique() makes the catalog's order.
std::vector<KernelFunction> parse_filter_functions(std::string_view text);
std::vector<KernelFunction> parse_kallsyms_functions(std::string_view text);
// The blacklist's names ("0xstart-0xend\tname [module]" lines).
std::vector<std::string> parse_blacklist(std::string_view text);
void sort_unique(std::vector<KernelFunction> &functions);
void remove_blacklisted(std::vector<KernelFunction> &functions, std::vector<std::string> blacklist);

class FunctionCatalog {
  public:
    // Paths are the kernel's except in tests.
    struct Sources {
        std::string filter_functions; // "" : tracefs's, found (and mounted) through live/tracefs.h
        std::string kallsyms = "/proc/kallsyms";
        std::string blacklist = "/sys/kernel/debug/kprobes/blacklist";
    };
    FunctionCatalog() = default;
    explicit FunctionCatalog(Sources sources) : sources_(std::move(sources)) {}

    // Sorted by module, then name (then the functions of modules added
    // since, which keep their index); loaded at the first call.
    live::Result<const std::vector<KernelFunction> *> functions();
    // Appends the functions of `module`, loaded since, that the catalog
    // lacks; the range of their indexes. (The vector may move.)
    live::Result<std::pair<size_t, size_t>> add_module(std::string_view module);
    // The function of that module and name, or null.
    const KernelFunction *find(std::string_view module, std::string_view name);

  private:
    live::Status load();
    live::Result<std::vector<KernelFunction>> read_all() const;
    Sources sources_;
    bool loaded_ = false;
    size_t sorted_ = 0; // functions_[0, sorted_) are sorted
    std::vector<KernelFunction> functions_;
};

} // namespace dtrace::fbt
