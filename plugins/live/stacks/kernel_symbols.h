// kernel_symbols.h: kernel addresses named through /proc/kallsyms.
//
// Loaded on the first lookup (dtrace -l and scripts without stack() never
// read the ~120k lines), then a sorted table: an address belongs to the
// text symbol at or below it, in the module kallsyms names in brackets
// ("vmlinux" for the kernel itself, as DTrace on Linux prints it).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::live::stacks {

struct KernelSymbol {
    std::string_view module;
    std::string_view function;
    uint64_t offset;
};

class KernelSymbols {
  public:
    // `path` is /proc/kallsyms except in tests.
    explicit KernelSymbols(std::string path = "/proc/kallsyms") : path_(std::move(path)) {}
    std::optional<KernelSymbol> lookup(uint64_t address);
    // Loads the table from `text` (kallsyms' format) instead, for tests and the fuzzer.
    void load_from(std::string_view text);

  private:
    struct Entry {
        uint64_t address;
        uint32_t name;   // offset in names_
        uint32_t module; // index in modules_
    };
    void load();

    std::string path_;
    std::mutex mutex_;
    bool loaded_ = false;
    std::string names_; // NUL-separated
    std::vector<std::string> modules_;
    std::vector<Entry> entries_;
};

} // namespace dtrace::live::stacks
