// kernel_unwind_table.h: the CFI rows and the mappings of a process as
// dtrace's in-kernel ustack() walk reads them from BPF maps
// (dtrace_fastpath_unwind_row, dtrace_fastpath_user_mapping in the SDK;
// core/fastpath/user_stacks.h): each mapped file's rows in the kernel's
// compact form, NONE where its code has no CFI, OTHER where the user-space
// unwinder would evaluate libdw's rules (those events go to user space).
#pragma once

#include "elf_image.h"
#include "process_maps.h"

#include <dtrace/provider.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::live::stacks {

// The row a BPF program walks for `row`: OTHER when it needs what the
// kernel's form lacks (a CFA of another register than rsp or rbp, offsets
// beyond its fields, a return address not saved at the CFA).
dtrace_fastpath_unwind_row kernel_row(const UnwindRow &row);

// The rows of `image`'s code at link-time addresses [start, end), sorted:
// each holds up to the next one's start, the last is NONE. From the file's
// rows, computed once per image in one pass over its CFI
// (cfi_section_rows.h).
std::vector<dtrace_fastpath_unwind_row> kernel_unwind_rows(ElfImage &image, uint64_t start, uint64_t end);

// The same rows asked of libdw address by address (dwarf_cfi_addrframe at
// each row's start, and at each byte without CFI): what kernel_unwind_rows()
// does for an FDE cfi_section_rows.h does not follow, and its test's reference.
std::vector<dtrace_fastpath_unwind_row> kernel_unwind_rows_by_libdw(ElfImage &image, uint64_t start, uint64_t end);

struct KernelUnwindTable {
    std::vector<dtrace_fastpath_unwind_row> rows;       // at most DTRACE_UNWIND_ROWS_MAX
    std::vector<uint32_t> blocks;                       // at most DTRACE_UNWIND_BLOCKS_MAX
    std::vector<dtrace_fastpath_user_mapping> mappings; // DTRACE_UNWIND_MAPPINGS_MAX, unused ones at the end
};

// The block entries of `rows` (kernel_unwind_rows()'s, from link-time
// address `start` on, the first at index `first_row` of the rows map):
// each block's first row, then the last row; nullopt when a block holds more
// rows than the walk searches (DTRACE_UNWIND_BLOCK_ROWS).
std::optional<std::vector<uint32_t>> kernel_unwind_blocks(const std::vector<dtrace_fastpath_unwind_row> &rows,
                                                          uint64_t start, uint32_t first_row);

// One mapped file's rows (kernel_unwind_rows()'s) and block entries
// (kernel_unwind_blocks()'s, counted from its first row).
struct FileUnwindRows {
    std::vector<dtrace_fastpath_unwind_row> rows;
    std::vector<uint32_t> blocks;
};

// The rows of `image`'s code mapped from link-time address `link_start`
// for `length` bytes; nullopt when the walk cannot use them (addresses past
// the rows' 32 bits, a block of more rows than it searches).
std::optional<FileUnwindRows> file_unwind_rows(ElfImage &image, uint64_t link_start, uint64_t length);

// The table of `mappings` (parse_maps()'s, sorted), each file's image from
// `image_of` (nullptr: unreadable). A mapping whose image cannot be read,
// whose addresses do not fit the rows' 32 bits, whose rows or blocks do not
// fit their maps or whose block holds too many rows has no rows (its events
// go to user space); nullopt when the mappings do not fit their map.
std::optional<KernelUnwindTable>
kernel_unwind_table(const std::vector<Mapping> &mappings,
                    const std::function<std::shared_ptr<ElfImage>(const std::string &path)> &image_of);

} // namespace dtrace::live::stacks
