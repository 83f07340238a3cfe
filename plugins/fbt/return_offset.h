// return_offset.h: arg0 of fbt return probes, the offset in the function of
// the instruction it returns by, as DTrace gives it.
//
// A kretprobe or fexit program does not know which instruction returned
// (a kretprobe knows the caller's address, fexit nothing). What can be told
// honestly is the offset when there is only one way out: the function's
// code (read from the kernel's text, its extent from kallsyms) is decoded
// (plugins/pid's function_code.h: every `ret`, and a `jmp` out of the
// function: a tail call, or the kernel's return thunk), and when exactly one
// instruction leaves, its offset is arg0; with several, or code that does
// not decode, arg0 is 0, as DTrace gives when it does not know.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtrace::fbt {

// The offset of the one instruction that leaves the code of a function at
// `address`, or 0.
uint64_t single_return_offset(std::span<const uint8_t> code, uint64_t address);

class ReturnOffsets {
  public:
    // Reads kernel memory (KernelMemory::read's contract).
    using Reader = std::function<int64_t(uint64_t address, void *buffer, size_t length)>;
    // `kallsyms` is /proc/kallsyms except in tests.
    explicit ReturnOffsets(Reader read_kernel, std::string kallsyms = "/proc/kallsyms")
        : read_kernel_(std::move(read_kernel)), kallsyms_(std::move(kallsyms)) {}

    // arg0 of `module`'s function `name`'s return probe (0: not known).
    uint64_t offset_of(std::string_view module, std::string_view name);
    // The function's start and length in kallsyms (up to the next text
    // symbol); reads the table at the first call.
    std::optional<std::pair<uint64_t, uint64_t>> extent(std::string_view module, std::string_view name);
    // Reads the table again at the next call (a module was loaded).
    void forget() { loaded_ = false; }
    // Takes the table from `text` (kallsyms' format) instead, for tests.
    void load_from(std::string_view text);

  private:
    struct Symbol {
        uint64_t address;
        std::string module;
        std::string name;
    };
    Reader read_kernel_;
    std::string kallsyms_;
    bool loaded_ = false;
    std::vector<Symbol> symbols_; // text symbols by address
};

} // namespace dtrace::fbt
