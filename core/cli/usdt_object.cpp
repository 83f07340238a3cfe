// usdt_object.cpp: dtrace -G's object (see usdt_object.h), an ELF64
// relocatable file laid out as: header, .probes contents, symbol table,
// string tables, section headers.
#include "cli/usdt_object.h"

#include "cli/usdt_header.h"

#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fstream>

namespace dtrace::cli {

namespace {

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
#else
#error "dtrace -G: no ELF machine number for this architecture"
#endif

enum Section : uint16_t { kNull, kProbes, kGnuStack, kTypes, kSymtab, kStrtab, kShstrtab, kSectionCount };

// A string table being built: offsets of the names added.
class StringTable {
  public:
    uint32_t add(const std::string &name) {
        const auto offset = static_cast<uint32_t>(bytes_.size());
        bytes_.insert(bytes_.end(), name.begin(), name.end());
        bytes_.push_back('\0');
        return offset;
    }
    const std::vector<uint8_t> &bytes() const { return bytes_; }

  private:
    std::vector<uint8_t> bytes_{'\0'};
};

template <typename T> void append(std::vector<uint8_t> &out, const T &value) {
    const auto *p = reinterpret_cast<const uint8_t *>(&value);
    out.insert(out.end(), p, p + sizeof value);
}

void pad_to(std::vector<uint8_t> &out, size_t alignment) {
    while (out.size() % alignment)
        out.push_back(0);
}

} // namespace

std::string usdt_types_table(const std::vector<compiler::ProviderInterface> &providers) {
    std::string out;
    for (const compiler::ProviderInterface &provider : providers)
        for (const compiler::ProviderInterface::Probe &probe : provider.probes) {
            out += provider.name + "\t" + probe.written;
            for (size_t i = 0; i < probe.args.size(); ++i) {
                out += "\t" + probe.args[i].type_name;
                if (i < probe.translated_types.size() && probe.translated_types[i] != probe.args[i].type_name)
                    out += " : " + probe.translated_types[i];
            }
            out += "\n";
        }
    return out;
}

std::vector<uint8_t> make_usdt_object(const std::vector<compiler::ProviderInterface> &providers) {
    StringTable names, section_names;
    std::vector<Elf64_Sym> symbols(2); // the null symbol, then .probes' section symbol
    symbols[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
    symbols[1].st_shndx = kProbes;
    uint64_t probes_size = 0;
    for (const compiler::ProviderInterface &provider : providers) {
        for (const compiler::ProviderInterface::Probe &probe : provider.probes) {
            Elf64_Sym sym{};
            sym.st_name = names.add(usdt_semaphore_symbol(provider.name, probe.written));
            sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
            sym.st_other = STV_HIDDEN;
            sym.st_shndx = kProbes;
            sym.st_value = probes_size;
            sym.st_size = sizeof(uint16_t);
            symbols.push_back(sym);
            probes_size += sizeof(uint16_t);
        }
    }

    Elf64_Shdr headers[kSectionCount] = {};
    headers[kProbes] = {section_names.add(".probes"),
                        SHT_PROGBITS,
                        SHF_ALLOC | SHF_WRITE,
                        0,
                        0,
                        probes_size,
                        0,
                        0,
                        sizeof(uint16_t),
                        0};
    headers[kGnuStack] = {section_names.add(".note.GNU-stack"), SHT_PROGBITS, 0, 0, 0, 0, 0, 0, 1, 0};
    const std::string types = usdt_types_table(providers);
    headers[kTypes] = {section_names.add(".dtrace_usdt_types"), SHT_PROGBITS, 0, 0, 0, types.size(), 0, 0, 1, 0};
    headers[kSymtab] = {section_names.add(".symtab"), SHT_SYMTAB, 0, 0, 0, 0, kStrtab, 2, 8, sizeof(Elf64_Sym)};
    headers[kStrtab] = {section_names.add(".strtab"), SHT_STRTAB, 0, 0, 0, 0, 0, 0, 1, 0};
    headers[kShstrtab] = {section_names.add(".shstrtab"), SHT_STRTAB, 0, 0, 0, 0, 0, 0, 1, 0};

    std::vector<uint8_t> out(sizeof(Elf64_Ehdr) + probes_size); // the header is copied in last
    headers[kProbes].sh_offset = sizeof(Elf64_Ehdr);
    headers[kGnuStack].sh_offset = out.size();
    headers[kTypes].sh_offset = out.size();
    out.insert(out.end(), types.begin(), types.end());
    pad_to(out, 8);
    headers[kSymtab].sh_offset = out.size();
    for (const Elf64_Sym &sym : symbols)
        append(out, sym);
    headers[kSymtab].sh_size = symbols.size() * sizeof(Elf64_Sym);
    headers[kStrtab].sh_offset = out.size();
    headers[kStrtab].sh_size = names.bytes().size();
    out.insert(out.end(), names.bytes().begin(), names.bytes().end());
    headers[kShstrtab].sh_offset = out.size();
    headers[kShstrtab].sh_size = section_names.bytes().size();
    out.insert(out.end(), section_names.bytes().begin(), section_names.bytes().end());
    pad_to(out, 8);

    Elf64_Ehdr header{};
    std::memcpy(header.e_ident, ELFMAG, SELFMAG);
    header.e_ident[EI_CLASS] = ELFCLASS64;
    header.e_ident[EI_DATA] = ELFDATA2LSB;
    header.e_ident[EI_VERSION] = EV_CURRENT;
    header.e_ident[EI_OSABI] = ELFOSABI_NONE;
    header.e_type = ET_REL;
    header.e_machine = kMachine;
    header.e_version = EV_CURRENT;
    header.e_shoff = out.size();
    header.e_ehsize = sizeof(Elf64_Ehdr);
    header.e_shentsize = sizeof(Elf64_Shdr);
    header.e_shnum = kSectionCount;
    header.e_shstrndx = kShstrtab;
    std::memcpy(out.data(), &header, sizeof header);
    for (const Elf64_Shdr &section : headers)
        append(out, section);
    return out;
}

Status check_link_objects(const std::vector<std::string> &paths) {
    for (const std::string &path : paths) {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return Failure{"failed to open " + path + ": " + std::strerror(errno)};
        char magic[SELFMAG] = {};
        if (!in.read(magic, SELFMAG) || std::memcmp(magic, ELFMAG, SELFMAG) != 0)
            return Failure{path + " is not an ELF object"};
    }
    return {};
}

} // namespace dtrace::cli
