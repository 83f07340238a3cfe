// elf_image.h: one ELF file as the stack helpers need it.
//
// Opened with libelf once per file (the ImageCache shares it per build-id):
// its PT_LOAD segments (to turn a file offset of a mapping into the link-time
// address its symbols and CFI use), its function symbols (.symtab, else
// .dynsym; a stripped file's .symtab is looked for in its separate debug file
// under /usr/lib/debug/.build-id/; with the code labels, for code no
// function covers), and its call frame information (.eh_frame
// through libdw, else .debug_frame) for the unwinder.
#pragma once

#include "cfi_section_rows.h"
#include "unwind_rows.h"

#include <dtrace/provider.h>

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::live::stacks {

struct FunctionSymbol {
    std::string_view name;
    uint64_t start; // link-time address
};

// Visits the defined function symbols (STT_FUNC, STT_GNU_IFUNC, with an
// address and a name) of `elf`'s first section of `section_type` (SHT_SYMTAB,
// SHT_DYNSYM). Returns how many it visited; nullopt when there is no such
// section. Shared by the stack helper and the user-space providers'
// function lists (live/modules/elf_functions.h). With `code_labels`, also
// the untyped symbols of executable sections: assembly's labels, such as
// ld.so's _start and _dl_start_user (STT_NOTYPE).
std::optional<size_t> for_each_function_symbol(Elf *elf, uint32_t section_type,
                                               const std::function<void(const GElf_Sym &, const char *)> &visit,
                                               bool code_labels = false);

// A file's rows in the in-kernel walk's form, each from `start` up to the
// next one's (kernel_unwind_table.cpp's kernel_cfi_rows()).
struct KernelCfiRow {
    uint64_t start = 0;
    dtrace_fastpath_unwind_row row{}; // its `start` unused
    bool ask_libdw = false;           // an FDE cfi_section_rows.h does not follow: libdw's rows, address by address
};

// Frees what frame_at() returns.
struct FrameFree {
    void operator()(Dwarf_Frame *frame) const { std::free(frame); }
};

class ElfImage {
  public:
    // Opens `path`; nullptr with `error` when it is not a readable ELF file.
    static std::shared_ptr<ElfImage> open(const std::string &path, std::string &error);
    ~ElfImage();
    ElfImage(const ElfImage &) = delete;
    ElfImage &operator=(const ElfImage &) = delete;

    const std::string &build_id() const { return build_id_; } // hex; empty when the file has none
    // The link-time address of byte `offset` of the file, when a PT_LOAD segment maps it.
    std::optional<uint64_t> address_of_offset(uint64_t offset) const;
    // The function containing link-time address `address`, else the code
    // label at or below it that no function follows (ld.so's entry frame,
    // _dl_start_user). Thread-safe, as is frame_at.
    std::optional<FunctionSymbol> function_at(uint64_t address);
    // The CFI rules at link-time address `address` (caller frees with free()).
    Dwarf_Frame *frame_at(uint64_t address);
    // The rules at `address` in compact form, cached per row (at most one
    // entry per row of the file's CFI); nullopt where the CFI has none or
    // they are not compact (the caller evaluates frame_at()'s).
    std::optional<UnwindRow> unwind_row(uint64_t address);
    // The section frame_at() reads the CFI from (.eh_frame, else
    // .debug_frame; no data when there is none); nullopt when the file has
    // CFI but not in a section for_each_cfi_span() reads (no section headers,
    // compressed).
    std::optional<CfiSection> cfi_section();
    // The file's kernel rows: `compute`'s, at the first call.
    std::span<const KernelCfiRow> kernel_cfi_rows(const std::function<std::vector<KernelCfiRow>()> &compute);

  private:
    ElfImage() = default;
    struct Symbol {
        uint64_t start, size;
        uint32_t name; // offset in names_
        bool label;    // a code label (for_each_function_symbol), not a function
    };
    struct Segment {
        uint64_t offset, vaddr, size;
    };
    void load_symbols();
    Dwarf_CFI *cfi_locked(); // eh_frame_, else debug_frame_ (opened at the first call); mutex_ held
    bool read_symbols(Elf *elf, uint32_t section_type);

    std::mutex mutex_; // the lazy parts: symbols and CFI
    int fd_ = -1;
    Elf *elf_ = nullptr;
    std::string build_id_;
    std::vector<Segment> segments_;
    bool symbols_loaded_ = false;
    std::vector<Symbol> symbols_;
    std::string names_;
    Dwarf_CFI *eh_frame_ = nullptr;
    bool debug_frame_tried_ = false;
    Dwarf *dwarf_ = nullptr;
    Dwarf_CFI *debug_frame_ = nullptr;
    struct CachedRow {
        uint64_t end;
        std::optional<UnwindRow> row; // nullopt: not compact
    };
    std::map<uint64_t, CachedRow> rows_; // by the row's first address
    std::once_flag kernel_rows_once_;
    std::vector<KernelCfiRow> kernel_rows_;
};

} // namespace dtrace::live::stacks
