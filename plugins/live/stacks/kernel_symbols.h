// kernel_symbols.h: kernel addresses named through /proc/kallsyms.
//
// Loaded on the first lookup (dtrace -l and scripts without stack() never
// read the ~120k lines), then a sorted table: an address belongs to the
// text symbol at or below it, in the module kallsyms names in brackets
// ("vmlinux" for the kernel itself, as DTrace on Linux prints it). A module
// loaded later is named once the table is read again (reload_later()).
#pragma once

#include <cstdint>
#include <memory>
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
    // The names stay valid as long as this object, across reloads.
    std::optional<KernelSymbol> lookup(uint64_t address);
    // Loads the table from `text` (kallsyms' format) instead, for tests and the fuzzer.
    void load_from(std::string_view text);
    // Reads the table again at the next lookup (a module was loaded). The
    // tables read before are kept: another thread may hold their names.
    void reload_later();

  private:
    struct Entry {
        uint64_t address;
        uint32_t name;   // offset in names
        uint32_t module; // index in modules
    };
    struct Table {
        std::string names; // NUL-separated
        std::vector<std::string> modules;
        std::vector<Entry> entries;
    };
    void load();

    std::string path_;
    std::mutex mutex_;
    bool stale_ = true;
    std::vector<std::unique_ptr<const Table>> tables_; // the last is the current one
};

} // namespace dtrace::live::stacks
