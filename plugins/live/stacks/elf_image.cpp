// elf_image.cpp: segments, function symbols and CFI of one ELF file.
#include "elf_image.h"

#include <elfutils/libdwelf.h>
#include <gelf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace dtrace::live::stacks {

namespace {

std::string hex(const uint8_t *bytes, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < n; i++) {
        out.push_back(digits[bytes[i] >> 4]);
        out.push_back(digits[bytes[i] & 15]);
    }
    return out;
}

// An open ELF file that closes itself.
struct ElfFile {
    int fd = -1;
    Elf *elf = nullptr;
    explicit ElfFile(const std::string &path) {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0)
            elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    }
    ~ElfFile() {
        if (elf != nullptr)
            elf_end(elf);
        if (fd >= 0)
            close(fd);
    }
};

// Whether section `index` of `elf` holds code.
bool is_code_section(Elf *elf, size_t index) {
    GElf_Shdr header;
    Elf_Scn *section = elf_getscn(elf, index);
    return section != nullptr && gelf_getshdr(section, &header) != nullptr && (header.sh_flags & SHF_EXECINSTR) != 0;
}

} // namespace

std::shared_ptr<ElfImage> ElfImage::open(const std::string &path, std::string &error) {
    elf_version(EV_CURRENT);
    std::shared_ptr<ElfImage> image(new ElfImage());
    image->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (image->fd_ < 0) {
        error = path + ": " + std::strerror(errno);
        return nullptr;
    }
    image->elf_ = elf_begin(image->fd_, ELF_C_READ_MMAP, nullptr);
    if (image->elf_ == nullptr || elf_kind(image->elf_) != ELF_K_ELF) {
        error = path + ": not an ELF file";
        return nullptr;
    }
    const void *id = nullptr;
    ssize_t id_size = dwelf_elf_gnu_build_id(image->elf_, &id);
    if (id_size > 0)
        image->build_id_ = hex(static_cast<const uint8_t *>(id), static_cast<size_t>(id_size));
    size_t count = 0;
    elf_getphdrnum(image->elf_, &count);
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr phdr;
        if (gelf_getphdr(image->elf_, static_cast<int>(i), &phdr) != nullptr && phdr.p_type == PT_LOAD)
            image->segments_.push_back({phdr.p_offset, phdr.p_vaddr, phdr.p_filesz});
    }
    return image;
}

ElfImage::~ElfImage() {
    if (eh_frame_ != nullptr)
        dwarf_cfi_end(eh_frame_);
    if (dwarf_ != nullptr)
        dwarf_end(dwarf_); // owns debug_frame_
    if (elf_ != nullptr)
        elf_end(elf_);
    if (fd_ >= 0)
        close(fd_);
}

std::optional<uint64_t> ElfImage::address_of_offset(uint64_t offset) const {
    for (const Segment &s : segments_)
        if (offset >= s.offset && offset < s.offset + s.size)
            return s.vaddr + (offset - s.offset);
    return std::nullopt;
}

std::optional<size_t> for_each_function_symbol(Elf *elf, uint32_t section_type,
                                               const std::function<void(const GElf_Sym &, const char *)> &visit,
                                               bool code_labels) {
    Elf_Scn *section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
        GElf_Shdr header;
        if (gelf_getshdr(section, &header) == nullptr || header.sh_type != section_type || header.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(section, nullptr);
        if (data == nullptr)
            continue;
        size_t visited = 0;
        const size_t count = header.sh_size / header.sh_entsize;
        for (size_t i = 0; i < count; i++) {
            GElf_Sym sym;
            if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr || sym.st_value == 0 ||
                sym.st_shndx == SHN_UNDEF)
                continue;
            const int type = GELF_ST_TYPE(sym.st_info);
            const bool label = code_labels && type == STT_NOTYPE && is_code_section(elf, sym.st_shndx);
            if (type != STT_FUNC && type != STT_GNU_IFUNC && !label)
                continue;
            const char *name = elf_strptr(elf, header.sh_link, sym.st_name);
            if (name == nullptr || name[0] == '\0')
                continue;
            visit(sym, name);
            ++visited;
        }
        return visited;
    }
    return std::nullopt;
}

bool ElfImage::read_symbols(Elf *elf, uint32_t section_type) {
    return for_each_function_symbol(
               elf, section_type,
               [&](const GElf_Sym &sym, const char *name) {
                   symbols_.push_back({sym.st_value, sym.st_size, static_cast<uint32_t>(names_.size()),
                                       GELF_ST_TYPE(sym.st_info) == STT_NOTYPE});
                   // A versioned name of a static table ("memcpy@GLIBC_2.2.5") prints as DTrace names it.
                   names_.append(name, std::strcspn(name, "@"));
                   names_.push_back('\0');
               },
               true)
        .has_value();
}

void ElfImage::load_symbols() {
    symbols_loaded_ = true;
    bool found = read_symbols(elf_, SHT_SYMTAB);
    if (!found && build_id_.size() > 2) {
        ElfFile debug("/usr/lib/debug/.build-id/" + build_id_.substr(0, 2) + "/" + build_id_.substr(2) + ".debug");
        if (debug.elf != nullptr)
            found = read_symbols(debug.elf, SHT_SYMTAB);
    }
    if (!found)
        read_symbols(elf_, SHT_DYNSYM);
    // By address; of aliases at one address the first listed is kept.
    std::stable_sort(symbols_.begin(), symbols_.end(),
                     [](const Symbol &a, const Symbol &b) { return a.start < b.start; });
}

std::optional<FunctionSymbol> ElfImage::function_at(uint64_t address) {
    std::lock_guard lock(mutex_);
    if (!symbols_loaded_)
        load_symbols();
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address,
                               [](uint64_t a, const Symbol &s) { return a < s.start; });
    // The nearest functions at or below the address, the first that covers it
    // (a zero-sized one covers up to the next symbol); a few, for nested ones.
    // Else the nearest code label below it with no function in between.
    auto label = symbols_.end();
    bool function_between = false;
    for (int tries = 0; it != symbols_.begin() && tries < 8; tries++) {
        --it;
        if (it->label) {
            if (label == symbols_.end() && !function_between)
                label = it;
            continue;
        }
        const bool covers = it->size == 0 ? std::next(it) == symbols_.end() || address < std::next(it)->start
                                          : address < it->start + it->size;
        if (covers)
            return FunctionSymbol{std::string_view(names_.c_str() + it->name), it->start};
        function_between = true;
    }
    if (label == symbols_.end())
        return std::nullopt;
    return FunctionSymbol{std::string_view(names_.c_str() + label->name), label->start};
}

Dwarf_CFI *ElfImage::cfi_locked() {
    if (eh_frame_ == nullptr)
        eh_frame_ = dwarf_getcfi_elf(elf_);
    if (eh_frame_ != nullptr)
        return eh_frame_;
    // .debug_frame has no search table: libdw scans it, which costs
    // milliseconds in a large file. Only code without .eh_frame needs it.
    if (!debug_frame_tried_) {
        debug_frame_tried_ = true;
        dwarf_ = dwarf_begin_elf(elf_, DWARF_C_READ, nullptr);
        if (dwarf_ != nullptr)
            debug_frame_ = dwarf_getcfi(dwarf_);
    }
    return debug_frame_;
}

Dwarf_Frame *ElfImage::frame_at(uint64_t address) {
    std::lock_guard lock(mutex_);
    Dwarf_Frame *frame = nullptr;
    Dwarf_CFI *cfi = cfi_locked();
    if (cfi != nullptr && dwarf_cfi_addrframe(cfi, address, &frame) == 0)
        return frame;
    return nullptr;
}

std::optional<CfiSection> ElfImage::cfi_section() {
    std::lock_guard lock(mutex_);
    if (cfi_locked() == nullptr)
        return CfiSection{}; // no CFI: no rows
    const char *wanted = eh_frame_ != nullptr ? ".eh_frame" : ".debug_frame";
    size_t names = 0;
    if (elf_getshdrstrndx(elf_, &names) != 0)
        return std::nullopt;
    Elf_Scn *scn = nullptr;
    while ((scn = elf_nextscn(elf_, scn)) != nullptr) {
        GElf_Shdr header;
        const char *name = gelf_getshdr(scn, &header) ? elf_strptr(elf_, names, header.sh_name) : nullptr;
        if (name == nullptr || std::strcmp(name, wanted) != 0)
            continue;
        if (header.sh_type == SHT_NOBITS || (header.sh_flags & SHF_COMPRESSED) != 0)
            return std::nullopt;
        CfiSection section{elf_getdata(scn, nullptr), header.sh_addr, eh_frame_ != nullptr,
                           reinterpret_cast<const unsigned char *>(elf_getident(elf_, nullptr))};
        return section.data != nullptr ? std::optional(section) : std::nullopt;
    }
    return std::nullopt;
}

std::span<const KernelCfiRow> ElfImage::kernel_cfi_rows(const std::function<std::vector<KernelCfiRow>()> &compute) {
    std::call_once(kernel_rows_once_, [&] { kernel_rows_ = compute(); });
    return kernel_rows_;
}

std::optional<UnwindRow> ElfImage::unwind_row(uint64_t address) {
    {
        std::lock_guard lock(mutex_);
        auto it = rows_.upper_bound(address);
        if (it != rows_.begin() && address < std::prev(it)->second.end)
            return std::prev(it)->second.row;
    }
    std::unique_ptr<Dwarf_Frame, FrameFree> frame(frame_at(address));
    Dwarf_Addr start = 0, end = 0;
    bool signal = false;
    if (frame == nullptr || dwarf_frame_info(frame.get(), &start, &end, &signal) < 0 || address < start ||
        address >= end)
        return std::nullopt;
    std::optional<UnwindRow> row = compact_row(frame.get());
    std::lock_guard lock(mutex_);
    rows_.emplace(start, CachedRow{end, row});
    return row;
}

} // namespace dtrace::live::stacks
