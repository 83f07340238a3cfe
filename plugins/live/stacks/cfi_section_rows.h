// cfi_section_rows.h: every row of a file's CFI section in one pass over
// its FDEs, each FDE's program run once from its start (the rows of a
// whole file cost what its CFI's size does), where asking libdw at each
// address (dwarf_cfi_addrframe) runs an FDE's program from its start for
// every row and fails once for every byte of code without CFI.
//
// The rows are libdw's, exactly: an FDE's program is run as libdw runs it
// (execute_cfi, elfutils 0.188), from the rules libdw gives at the start of
// one of its CIE's FDEs (the CIE's initial rules, over the ABI's). What this
// reader does not follow is left to libdw: an FDE whose program holds
// another instruction than DW_CFA_def_cfa*, advance_loc*, offset*,
// restore*, remember/restore_state, same_value, undefined, nop and
// GNU_args_size (the others are rare: a DWARF expression, set_loc,
// val_offset, register) is one span asked of libdw at each address, and a
// section it does not read (FDEs that overlap, a pointer encoding other than
// absolute or pc-relative, an augmentation it does not know) is all asked.
#pragma once

#include "unwind_rows.h"

#include <elfutils/libdw.h>

#include <cstdint>
#include <functional>
#include <optional>

namespace dtrace::live::stacks {

// The section libdw reads the CFI from (ElfImage::cfi_section()).
struct CfiSection {
    Elf_Data *data = nullptr;             // nullptr: the file has no CFI
    uint64_t address = 0;                 // the section's link-time address (pc-relative pointers)
    bool eh_frame = true;                 // .eh_frame, else .debug_frame
    const unsigned char *ident = nullptr; // the file's e_ident
};

// Addresses [start, end) with one row; none of them is covered by another
// span (addresses no span covers have no CFI).
struct CfiSpan {
    uint64_t start = 0, end = 0;
    bool ask_libdw = false;       // an FDE this reader does not follow: libdw's rows, address by address
    std::optional<UnwindRow> row; // else the row (nullopt: not of the compact form)
};

// Visits the spans of `section`'s FDEs in address order; `rules_at` is
// libdw's rules at an address (nullopt where libdw has none). False when
// the reader does not read this section: ask libdw at every address.
bool for_each_cfi_span(const CfiSection &section,
                       const std::function<std::optional<RowRules>(uint64_t address)> &rules_at,
                       const std::function<void(const CfiSpan &)> &visit);

} // namespace dtrace::live::stacks
