// elf_functions.h: the functions of one ELF file, as the pid provider probes
// them: each function's name, its file offset (where a uprobe goes) and its
// bytes (what the decoder reads for offsets and return instructions).
//
// Symbols come from .symtab, else from the separate debug file named by the
// build-id (/usr/lib/debug/.build-id/xx/rest.debug), else from .dynsym.
// Several names for one address (aliases: malloc and __libc_malloc) make one
// function, under one canonical name, as DTrace chooses one: a global
// symbol before a weak one before a local one, then the name with fewer
// leading underscores, then the shorter, then the first in order. Its other
// names are kept as its aliases.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::live {

struct ElfFunction {
    std::string name;         // canonical
    uint64_t address = 0;     // link-time
    uint64_t size = 0;        // bytes (0: unknown, no offsets or return probes)
    uint64_t file_offset = 0; // of its first byte
    std::vector<std::string> aliases;
};

class ElfFunctions {
  public:
    // Reads `path`; nullptr with `error` when it is not a readable ELF file.
    static std::unique_ptr<ElfFunctions> read(const std::string &path, std::string &error);
    ~ElfFunctions();
    ElfFunctions(const ElfFunctions &) = delete;
    ElfFunctions &operator=(const ElfFunctions &) = delete;

    const std::string &path() const { return path_; }
    const std::string &soname() const { return soname_; } // DT_SONAME, empty if none
    const std::string &build_id() const { return build_id_; }
    const std::string &interpreter() const { return interpreter_; } // PT_INTERP, empty if none
    // Where debug information lives: the file itself or its build-id debug file (empty: none).
    const std::string &debug_path() const { return debug_path_; }
    const std::vector<ElfFunction> &functions() const { return functions_; }
    // The bytes of `function` from the file (empty when unreadable).
    std::vector<uint8_t> code(const ElfFunction &function) const;
    // Up to `length` bytes from its start (fewer at the end of the file), whatever its size.
    std::vector<uint8_t> code(const ElfFunction &function, uint64_t length) const;

  private:
    ElfFunctions() = default;

    // The file, kept open for code(): a glob over a library reads thousands of functions.
    int fd_ = -1;
    std::string path_, soname_, build_id_, interpreter_, debug_path_;
    std::vector<ElfFunction> functions_; // sorted by name
};

// The separate debug file of a build-id, if installed.
std::optional<std::string> debug_file_for(const std::string &build_id);

} // namespace dtrace::live
