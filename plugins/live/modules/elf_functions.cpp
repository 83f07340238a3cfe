// elf_functions.cpp: reading an ELF file's functions with libelf.
#include "elf_functions.h"

#include "elf_image.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

namespace dtrace::live {

namespace {

// An open ELF file, closed with its descriptor.
struct ElfFile {
    int fd = -1;
    Elf *elf = nullptr;
    explicit ElfFile(const std::string &path) {
        elf_version(EV_CURRENT);
        fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0)
            elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
        if (elf != nullptr && elf_kind(elf) != ELF_K_ELF) {
            elf_end(elf);
            elf = nullptr;
        }
    }
    ~ElfFile() {
        if (elf != nullptr)
            elf_end(elf);
        if (fd >= 0)
            close(fd);
    }
    ElfFile(const ElfFile &) = delete;
    ElfFile &operator=(const ElfFile &) = delete;
};

struct Segment {
    uint64_t vaddr, offset, filesz;
};

std::vector<Segment> executable_segments(Elf *elf) {
    std::vector<Segment> segments;
    size_t count = 0;
    elf_getphdrnum(elf, &count);
    for (size_t i = 0; i < count; ++i) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, static_cast<int>(i), &phdr) != nullptr && phdr.p_type == PT_LOAD && (phdr.p_flags & PF_X))
            segments.push_back({phdr.p_vaddr, phdr.p_offset, phdr.p_filesz});
    }
    return segments;
}

std::string hex(const uint8_t *bytes, size_t size) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < size; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

// How much a symbol deserves to be its address's canonical name (lower wins).
std::tuple<int, size_t, size_t> rank(const std::string &name, unsigned binding) {
    const int bind_rank = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2;
    return {bind_rank, name.find_first_not_of('_'), name.size()};
}

struct Candidate {
    std::string name;
    unsigned binding;
    uint64_t size;
};

// The function symbols of one symbol table section type, by address; false
// when it has none.
bool read_symbols(Elf *elf, uint32_t section_type, std::map<uint64_t, std::vector<Candidate>> &out) {
    return stacks::for_each_function_symbol(elf, section_type, [&](const GElf_Sym &sym, const char *name) {
               out[sym.st_value].push_back({name, GELF_ST_BIND(sym.st_info), sym.st_size});
           }).value_or(0) > 0;
}

// Symbol versions (.symtab spells them dlopen@@GLIBC_2.34 and
// dlopen@GLIBC_2.2.5): a function is named without its version, as DTrace
// names it; a non-default version at an address of its own (the old
// memcpy@GLIBC_2.2.5 beside memcpy) keeps its version, so that no two
// addresses share a name.
void drop_versions(std::map<uint64_t, std::vector<Candidate>> &by_address) {
    const auto is_default = [](const std::string &name, size_t at) {
        return at == std::string::npos || name.compare(at, 2, "@@") == 0;
    };
    std::set<std::string> defaults; // unversioned names and default versions, without the version
    for (const auto &[address, candidates] : by_address) {
        for (const Candidate &c : candidates) {
            const size_t at = c.name.find('@');
            if (is_default(c.name, at))
                defaults.insert(c.name.substr(0, at));
        }
    }
    for (auto &[address, candidates] : by_address) {
        std::set<std::string> here;
        for (const Candidate &c : candidates) {
            const size_t at = c.name.find('@');
            if (is_default(c.name, at))
                here.insert(c.name.substr(0, at));
        }
        for (Candidate &c : candidates) {
            const size_t at = c.name.find('@');
            if (at == std::string::npos || at == 0)
                continue;
            std::string base = c.name.substr(0, at);
            if (is_default(c.name, at) || here.count(base) || !defaults.count(base))
                c.name = std::move(base);
        }
    }
}

bool has_section(Elf *elf, const char *wanted) {
    size_t strings = 0;
    if (elf_getshdrstrndx(elf, &strings) != 0)
        return false;
    Elf_Scn *section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
        GElf_Shdr header;
        const char *name = gelf_getshdr(section, &header) ? elf_strptr(elf, strings, header.sh_name) : nullptr;
        if (name != nullptr && std::strcmp(name, wanted) == 0)
            return true;
    }
    return false;
}

void read_dynamic(Elf *elf, std::string &soname, std::string &interpreter) {
    size_t count = 0;
    elf_getphdrnum(elf, &count);
    for (size_t i = 0; i < count; ++i) {
        GElf_Phdr phdr;
        if (gelf_getphdr(elf, static_cast<int>(i), &phdr) == nullptr || phdr.p_type != PT_INTERP)
            continue;
        size_t size = 0;
        const char *image = elf_rawfile(elf, &size);
        if (image != nullptr && phdr.p_offset < size && phdr.p_filesz <= size - phdr.p_offset)
            interpreter.assign(image + phdr.p_offset, strnlen(image + phdr.p_offset, phdr.p_filesz));
    }
    Elf_Scn *section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
        GElf_Shdr header;
        if (gelf_getshdr(section, &header) == nullptr || header.sh_type != SHT_DYNAMIC || header.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(section, nullptr);
        for (size_t i = 0; data != nullptr && i < header.sh_size / header.sh_entsize; ++i) {
            GElf_Dyn dyn;
            if (gelf_getdyn(data, static_cast<int>(i), &dyn) != nullptr && dyn.d_tag == DT_SONAME) {
                const char *name = elf_strptr(elf, header.sh_link, dyn.d_un.d_val);
                soname = name ? name : "";
            }
        }
    }
}

} // namespace

std::optional<std::string> debug_file_for(const std::string &build_id) {
    if (build_id.size() <= 2)
        return std::nullopt;
    std::string path = "/usr/lib/debug/.build-id/" + build_id.substr(0, 2) + "/" + build_id.substr(2) + ".debug";
    if (access(path.c_str(), R_OK) != 0)
        return std::nullopt;
    return path;
}

std::unique_ptr<ElfFunctions> ElfFunctions::read(const std::string &path, std::string &error) {
    ElfFile file(path);
    if (file.elf == nullptr) {
        error = path + " is not a readable ELF file";
        return nullptr;
    }
    std::unique_ptr<ElfFunctions> functions(new ElfFunctions());
    functions->path_ = path;
    functions->fd_ = fcntl(file.fd, F_DUPFD_CLOEXEC, 0);
    const void *id = nullptr;
    const ssize_t id_size = dwelf_elf_gnu_build_id(file.elf, &id);
    if (id_size > 0)
        functions->build_id_ = hex(static_cast<const uint8_t *>(id), static_cast<size_t>(id_size));
    read_dynamic(file.elf, functions->soname_, functions->interpreter_);
    std::optional<std::string> debug = debug_file_for(functions->build_id_);
    if (has_section(file.elf, ".debug_info"))
        functions->debug_path_ = path;
    else if (debug)
        functions->debug_path_ = *debug;

    std::map<uint64_t, std::vector<Candidate>> by_address;
    if (!read_symbols(file.elf, SHT_SYMTAB, by_address)) {
        bool from_debug = false;
        if (debug) {
            ElfFile debug_file(*debug);
            from_debug = debug_file.elf != nullptr && read_symbols(debug_file.elf, SHT_SYMTAB, by_address);
        }
        if (!from_debug)
            read_symbols(file.elf, SHT_DYNSYM, by_address);
    }
    drop_versions(by_address);
    const std::vector<Segment> segments = executable_segments(file.elf);
    for (auto &[address, candidates] : by_address) {
        auto segment = std::find_if(segments.begin(), segments.end(), [&](const Segment &s) {
            return address >= s.vaddr && address - s.vaddr < s.filesz;
        });
        if (segment == segments.end())
            continue; // not code the file maps executable
        std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
            return rank(a.name, a.binding) < rank(b.name, b.binding);
        });
        ElfFunction function;
        function.name = candidates.front().name;
        function.address = address;
        function.file_offset = address - segment->vaddr + segment->offset;
        for (const Candidate &c : candidates) {
            function.size = std::max(function.size, c.size);
            if (c.name != function.name &&
                std::find(function.aliases.begin(), function.aliases.end(), c.name) == function.aliases.end())
                function.aliases.push_back(c.name);
        }
        // Never past the end of its segment (a bad size would read beyond).
        function.size = std::min(function.size, segment->vaddr + segment->filesz - address);
        functions->functions_.push_back(std::move(function));
    }
    std::sort(functions->functions_.begin(), functions->functions_.end(),
              [](const ElfFunction &a, const ElfFunction &b) { return a.name < b.name; });
    return functions;
}

ElfFunctions::~ElfFunctions() {
    if (fd_ >= 0)
        close(fd_);
}

std::vector<uint8_t> ElfFunctions::code(const ElfFunction &function) const {
    std::vector<uint8_t> bytes(function.size);
    const ssize_t n = pread(fd_, bytes.data(), bytes.size(), static_cast<off_t>(function.file_offset));
    if (n != static_cast<ssize_t>(bytes.size()))
        return {};
    return bytes;
}

std::vector<uint8_t> ElfFunctions::code(const ElfFunction &function, uint64_t length) const {
    std::vector<uint8_t> bytes(length);
    const ssize_t n = pread(fd_, bytes.data(), bytes.size(), static_cast<off_t>(function.file_offset));
    bytes.resize(n > 0 ? static_cast<size_t>(n) : 0);
    return bytes;
}

} // namespace dtrace::live
