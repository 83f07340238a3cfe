// kernel_symbol_table.h: a kernel symbol's address by name, for backquoted
// identifiers (`jiffies, `vmlinux`jiffies, `ext4`ext4_fill_super), from
// /proc/kallsyms. Each lookup scans the file (a script names a few symbols;
// nothing is kept).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtrace::fbt {

struct KallsymsEntry {
    uint64_t address = 0;
    char type = 0; // kallsyms' letter: 't'/'T' text, 'd'/'D' data, 'b'/'B' bss...
};

// The first symbol `name` of `module` ("" any; "vmlinux" the kernel's own)
// in kallsyms' text.
std::optional<KallsymsEntry> find_kallsyms(std::string_view text, std::string_view module, std::string_view name);

// The same over a file (/proc/kallsyms); nullopt also when it cannot be read.
std::optional<KallsymsEntry> find_kernel_symbol(const std::string &path, std::string_view module,
                                                std::string_view name);

} // namespace dtrace::fbt
