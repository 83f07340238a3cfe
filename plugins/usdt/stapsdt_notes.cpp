// stapsdt_notes.cpp: reading `.note.stapsdt` (see stapsdt_notes.h).
#include "stapsdt_notes.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

namespace dtrace::usdt {

namespace {

constexpr uint32_t kStapsdtType = 3;
constexpr char kStapsdtOwner[] = "stapsdt";

size_t align4(size_t n) {
    return (n + 3) & ~size_t(3);
}

// A NUL-terminated string at `pos` within `bytes`; advances pos past it.
std::optional<std::string> take_string(std::span<const uint8_t> bytes, size_t &pos) {
    const void *end = pos < bytes.size() ? std::memchr(bytes.data() + pos, '\0', bytes.size() - pos) : nullptr;
    if (!end)
        return std::nullopt;
    const auto *first = reinterpret_cast<const char *>(bytes.data() + pos);
    std::string out(first, static_cast<const char *>(end) - first);
    pos += out.size() + 1;
    return out;
}

struct Segment {
    uint64_t vaddr, offset, filesz;
};

std::optional<uint64_t> offset_of(const std::vector<Segment> &segments, uint64_t address) {
    for (const Segment &s : segments)
        if (address >= s.vaddr && address - s.vaddr < s.filesz)
            return address - s.vaddr + s.offset;
    return std::nullopt;
}

// The dynamic linker's path a PT_INTERP segment names.
std::string interpreter_of(Elf *elf, const GElf_Phdr &phdr) {
    size_t size = 0;
    const char *image = elf_rawfile(elf, &size);
    if (!image || phdr.p_offset >= size || phdr.p_filesz > size - phdr.p_offset)
        return {};
    const char *first = image + phdr.p_offset;
    return std::string(first, strnlen(first, phdr.p_filesz));
}

// Closes what read_probe_sites opened, however it returns.
struct ElfFile {
    int fd = -1;
    Elf *elf = nullptr;
    ~ElfFile() {
        if (elf)
            elf_end(elf);
        if (fd >= 0)
            close(fd);
    }
};

} // namespace

std::vector<StapsdtNote> parse_stapsdt_notes(std::span<const uint8_t> section) {
    std::vector<StapsdtNote> out;
    size_t pos = 0;
    while (section.size() - pos >= 12) {
        uint32_t header[3]; // namesz, descsz, type
        std::memcpy(header, section.data() + pos, sizeof header);
        pos += sizeof header;
        const size_t name_size = header[0], desc_size = header[1];
        if (name_size > section.size() - pos || align4(name_size) > section.size() - pos)
            break;
        const std::span<const uint8_t> name = section.subspan(pos, name_size);
        pos += align4(name_size);
        if (desc_size > section.size() - pos)
            break;
        const std::span<const uint8_t> desc = section.subspan(pos, desc_size);
        pos += std::min(align4(desc_size), section.size() - pos);
        if (header[2] != kStapsdtType || name_size != sizeof kStapsdtOwner ||
            std::memcmp(name.data(), kStapsdtOwner, sizeof kStapsdtOwner) != 0 || desc_size < 3 * sizeof(uint64_t))
            continue;
        StapsdtNote note;
        std::memcpy(&note.pc, desc.data(), sizeof note.pc);
        std::memcpy(&note.base, desc.data() + 8, sizeof note.base);
        std::memcpy(&note.semaphore, desc.data() + 16, sizeof note.semaphore);
        size_t at = 3 * sizeof(uint64_t);
        std::optional<std::string> provider = take_string(desc, at);
        std::optional<std::string> probe = provider ? take_string(desc, at) : std::nullopt;
        std::optional<std::string> args = probe ? take_string(desc, at) : std::nullopt;
        if (!args)
            continue;
        note.provider = std::move(*provider);
        note.name = std::move(*probe);
        note.args = std::move(*args);
        out.push_back(std::move(note));
    }
    return out;
}

DefinitionTypes parse_definition_types(std::string_view text) {
    constexpr std::string_view kTranslatedMark = " : ";
    DefinitionTypes out;
    while (!text.empty()) {
        const size_t end = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        std::vector<std::string> fields;
        while (!line.empty()) {
            const size_t tab = std::min(line.find('\t'), line.size());
            fields.emplace_back(line.substr(0, tab));
            line.remove_prefix(std::min(tab + 1, line.size()));
        }
        if (fields.size() < 2 || fields[0].empty() || fields[1].empty())
            continue;
        std::vector<DefinedType> &types = out[fields[0] + "\t" + fields[1]];
        types.clear();
        for (size_t i = 2; i < fields.size(); ++i) {
            const size_t mark = fields[i].find(kTranslatedMark);
            if (mark == std::string::npos)
                types.push_back({fields[i], ""});
            else
                types.push_back({fields[i].substr(0, mark), fields[i].substr(mark + kTranslatedMark.size())});
        }
    }
    return out;
}

plugin_common::Result<FileProbes> read_probe_sites(const std::string &path) {
    if (elf_version(EV_CURRENT) == EV_NONE)
        return plugin_common::Error{"libelf: " + std::string(elf_errmsg(-1))};
    ElfFile file;
    file.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file.fd < 0)
        return plugin_common::Error{"cannot open " + path + ": " + std::strerror(errno)};
    file.elf = elf_begin(file.fd, ELF_C_READ_MMAP, nullptr);
    GElf_Ehdr ehdr;
    if (!file.elf || elf_kind(file.elf) != ELF_K_ELF || !gelf_getehdr(file.elf, &ehdr))
        return plugin_common::Error{path + " is not an ELF file"};
    FileProbes out;
    if (gelf_getclass(file.elf) != ELFCLASS64)
        return out;
    std::vector<Segment> segments;
    size_t nphdr = 0;
    if (elf_getphdrnum(file.elf, &nphdr) == 0)
        for (size_t i = 0; i < nphdr; ++i) {
            GElf_Phdr phdr;
            if (!gelf_getphdr(file.elf, static_cast<int>(i), &phdr))
                continue;
            if (phdr.p_type == PT_LOAD)
                segments.push_back({phdr.p_vaddr, phdr.p_offset, phdr.p_filesz});
            if (phdr.p_type == PT_INTERP)
                out.interpreter = interpreter_of(file.elf, phdr);
        }
    size_t shstrndx = 0;
    if (elf_getshdrstrndx(file.elf, &shstrndx) != 0)
        return plugin_common::Error{path + ": no section names"};
    std::vector<StapsdtNote> notes;
    std::optional<uint64_t> base_address;
    for (Elf_Scn *scn = elf_nextscn(file.elf, nullptr); scn; scn = elf_nextscn(file.elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr))
            continue;
        const char *name = elf_strptr(file.elf, shstrndx, shdr.sh_name);
        if (!name)
            continue;
        if (std::strcmp(name, ".stapsdt.base") == 0)
            base_address = shdr.sh_addr;
        if (std::strcmp(name, ".dtrace_usdt_types") == 0 && shdr.sh_type == SHT_PROGBITS)
            if (Elf_Data *data = elf_getdata(scn, nullptr); data && data->d_buf)
                out.definition_types = parse_definition_types({static_cast<const char *>(data->d_buf), data->d_size});
        if (std::strcmp(name, ".note.stapsdt") != 0 || shdr.sh_type != SHT_NOTE)
            continue;
        Elf_Data *data = elf_getdata(scn, nullptr);
        if (data && data->d_buf)
            notes = parse_stapsdt_notes({static_cast<const uint8_t *>(data->d_buf), data->d_size});
    }
    for (const StapsdtNote &note : notes) {
        const uint64_t shift = base_address && note.base ? *base_address - note.base : 0;
        std::optional<std::vector<ArgSpec>> args = parse_arg_specs(note.args);
        std::optional<uint64_t> offset = offset_of(segments, note.pc + shift);
        if (!args || !offset)
            continue; // a malformed note, or one outside the loaded code: not a site
        ProbeSite site;
        site.provider = note.provider;
        site.name = note.name;
        site.address = note.pc + shift;
        site.file_offset = *offset;
        if (note.semaphore)
            site.semaphore_offset = offset_of(segments, note.semaphore + shift).value_or(0);
        site.args = std::move(*args);
        out.sites.push_back(std::move(site));
    }
    return out;
}

} // namespace dtrace::usdt
