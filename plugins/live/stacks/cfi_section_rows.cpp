// cfi_section_rows.cpp: a CFI section's FDEs read and their programs run
// once each (see cfi_section_rows.h).
#include "cfi_section_rows.h"

#include <dwarf.h>
#include <gelf.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace dtrace::live::stacks {

namespace {

// Bytes read forward from `at` up to `end`; a read past the end fails.
struct Cursor {
    const uint8_t *at, *end;
    bool failed = false;

    uint64_t fixed(size_t size) {
        if (static_cast<size_t>(end - at) < size) {
            failed = true;
            return 0;
        }
        uint64_t value = 0;
        std::memcpy(&value, at, size); // little-endian files only (for_each_cfi_span)
        at += size;
        return value;
    }
    uint64_t uleb() { return leb(false); }
    uint64_t sleb() { return leb(true); }
    uint64_t leb(bool is_signed) {
        uint64_t value = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            const uint8_t byte = static_cast<uint8_t>(fixed(1));
            value |= uint64_t(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0 || failed)
                return is_signed && shift + 7 < 64 && (byte & 0x40) != 0 ? value | (~uint64_t(0) << (shift + 7))
                                                                         : value;
        }
        failed = true;
        return value;
    }
};

// A pointer of `encoding` (DW_EH_PE_*: absolute or pc-relative, of a fixed
// size) at the cursor; nullopt for any other encoding.
std::optional<uint64_t> read_pointer(Cursor &in, uint8_t encoding, const CfiSection &section) {
    const uint64_t field =
        section.address + static_cast<uint64_t>(in.at - static_cast<const uint8_t *>(section.data->d_buf));
    size_t size = 8;
    switch (encoding & 0x0f) {
    case DW_EH_PE_absptr:
    case DW_EH_PE_udata8:
    case DW_EH_PE_sdata8:
        break;
    case DW_EH_PE_udata2:
    case DW_EH_PE_sdata2:
        size = 2;
        break;
    case DW_EH_PE_udata4:
    case DW_EH_PE_sdata4:
        size = 4;
        break;
    default:
        return std::nullopt;
    }
    uint64_t value = in.fixed(size);
    const uint64_t sign = uint64_t(1) << (size * 8 - 1);
    if ((encoding & DW_EH_PE_signed) != 0 && size < 8 && (value & sign) != 0)
        value |= ~(sign * 2 - 1);
    switch (encoding & 0x70) {
    case DW_EH_PE_absptr:
        break;
    case DW_EH_PE_pcrel:
        value += field;
        break;
    default:
        return std::nullopt;
    }
    if (in.failed || (encoding & DW_EH_PE_indirect) != 0)
        return std::nullopt;
    return value;
}

struct Cie {
    uint64_t code_alignment = 0, data_alignment = 0; // the data alignment's two's complement
    uint8_t fde_encoding = DW_EH_PE_absptr;
    bool sized_augmentation = false;                // 'z': an FDE's augmentation data is a block
    std::optional<uint64_t> probe;                  // an FDE's start where libdw's rules are the CIE's initial ones
    std::optional<std::optional<RowRules>> initial; // asked once; nullopt inside: libdw has none
};

// The CIE's augmentation as libdw reads it: "" or 'z' followed by the
// letters of GCC's and LLVM's output; false for anything else.
bool read_augmentation(const Dwarf_CIE &entry, Cie &cie, const CfiSection &section) {
    const char *letters = entry.augmentation;
    if (letters[0] == '\0')
        return true;
    if (letters[0] != 'z')
        return false;
    cie.sized_augmentation = true;
    Cursor data{entry.augmentation_data, entry.augmentation_data + entry.augmentation_data_size};
    for (const char *letter = letters + 1; *letter != '\0'; letter++) {
        switch (*letter) {
        case 'P': {
            const auto encoding = static_cast<uint8_t>(data.fixed(1));
            if (!read_pointer(data, encoding & ~DW_EH_PE_indirect, section))
                return false;
            break;
        }
        case 'L':
            data.fixed(1);
            break;
        case 'R':
            cie.fde_encoding = static_cast<uint8_t>(data.fixed(1));
            break;
        case 'S':
            break;
        default:
            return false;
        }
    }
    return !data.failed;
}

struct Fde {
    uint64_t start = 0, end = 0;
    Dwarf_Off cie = 0;
    const uint8_t *program = nullptr, *program_end = nullptr;
};

constexpr int kUntracked = -1;

int tracked(uint64_t dwarf_register) {
    for (size_t i = 0; i < kPreservedRegisters.size(); i++)
        if (static_cast<uint64_t>(kPreservedRegisters[i]) == dwarf_register)
            return static_cast<int>(i);
    return kUntracked;
}

// Whether `program` moves past its first address before any rule changes
// (libdw's rules at the FDE's start are then its CIE's initial ones).
bool advances_first(Cursor program, const Cie &cie) {
    while (program.at < program.end) {
        const uint8_t op = static_cast<uint8_t>(program.fixed(1));
        uint64_t delta = 0;
        if ((op & 0xc0) == DW_CFA_advance_loc)
            delta = op & 0x3f;
        else if (op == DW_CFA_nop)
            continue;
        else if (op == DW_CFA_GNU_args_size) {
            program.uleb();
            continue;
        } else if (op == DW_CFA_advance_loc1)
            delta = program.fixed(1);
        else if (op == DW_CFA_advance_loc2)
            delta = program.fixed(2);
        else if (op == DW_CFA_advance_loc4)
            delta = program.fixed(4);
        else
            return false;
        return !program.failed && delta * cie.code_alignment != 0;
    }
    return !program.failed;
}

// Runs `fde`'s program from its CIE's initial rules as libdw does,
// appending a span for each row; false at an instruction it does not follow.
bool run_program(const Fde &fde, const Cie &cie, const RowRules &initial, std::vector<CfiSpan> &spans) {
    RowRules rules = initial;
    std::vector<RowRules> remembered;
    uint64_t loc = fde.start;
    auto advance = [&](uint64_t delta) {
        const uint64_t next = loc + delta * cie.code_alignment;
        if (next < loc || next > fde.end)
            return false; // past the FDE: libdw's row would end beyond it
        if (next > loc)
            spans.push_back({loc, next, false, compact_row(rules, loc, next)});
        loc = next;
        return true;
    };
    auto set_rule = [&](uint64_t dwarf_register, std::optional<SavedRegister> rule) {
        if (const int i = tracked(dwarf_register); i != kUntracked)
            rules.saved[static_cast<size_t>(i)] = rule;
    };
    auto offset_rule = [&](uint64_t dwarf_register, uint64_t offset) { // libdw: DW_OP_call_frame_cfa alone for 0
        set_rule(dwarf_register,
                 offset != 0 ? std::optional(SavedRegister{SavedRegister::At::Cfa, offset}) : std::nullopt);
    };
    auto restore = [&](uint64_t dwarf_register) { // the CIE's initial rule
        if (const int i = tracked(dwarf_register); i != kUntracked)
            rules.saved[static_cast<size_t>(i)] = initial.saved[static_cast<size_t>(i)];
    };
    Cursor in{fde.program, fde.program_end};
    while (in.at < in.end && !in.failed) {
        const uint8_t op = static_cast<uint8_t>(in.fixed(1));
        bool ok = true;
        switch (op & 0xc0) {
        case DW_CFA_advance_loc:
            ok = advance(op & 0x3f);
            break;
        case DW_CFA_offset:
            offset_rule(op & 0x3f, in.uleb() * cie.data_alignment);
            break;
        case DW_CFA_restore:
            restore(op & 0x3f);
            break;
        default:
            switch (op) {
            case DW_CFA_nop:
                break;
            case DW_CFA_advance_loc1:
                ok = advance(in.fixed(1));
                break;
            case DW_CFA_advance_loc2:
                ok = advance(in.fixed(2));
                break;
            case DW_CFA_advance_loc4:
                ok = advance(in.fixed(4));
                break;
            case DW_CFA_offset_extended: {
                const uint64_t r = in.uleb();
                offset_rule(r, in.uleb() * cie.data_alignment);
                break;
            }
            case DW_CFA_offset_extended_sf: {
                const uint64_t r = in.uleb();
                offset_rule(r, in.sleb() * cie.data_alignment);
                break;
            }
            case DW_CFA_restore_extended:
                restore(in.uleb());
                break;
            case DW_CFA_undefined:
                set_rule(in.uleb(), SavedRegister{SavedRegister::At::Undefined, 0});
                break;
            case DW_CFA_same_value:
                set_rule(in.uleb(), SavedRegister{SavedRegister::At::Same, 0});
                break;
            case DW_CFA_remember_state:
                remembered.push_back(rules);
                break;
            case DW_CFA_restore_state:
                if (remembered.empty())
                    return false; // libdw fails from here on
                rules = remembered.back();
                remembered.pop_back();
                break;
            case DW_CFA_def_cfa: {
                const uint64_t r = in.uleb();
                rules.cfa = RowRules::Cfa{r, in.uleb()};
                break;
            }
            case DW_CFA_def_cfa_sf: {
                const uint64_t r = in.uleb();
                rules.cfa = RowRules::Cfa{r, in.sleb() * cie.data_alignment};
                break;
            }
            case DW_CFA_def_cfa_register: { // of a CFA that is not register + offset, libdw keeps an invalid one
                const uint64_t r = in.uleb();
                if (rules.cfa)
                    rules.cfa->register_number = r;
                break;
            }
            case DW_CFA_def_cfa_offset: {
                const uint64_t offset = in.uleb();
                if (rules.cfa)
                    rules.cfa->offset = offset;
                break;
            }
            case DW_CFA_def_cfa_offset_sf: {
                const uint64_t offset = in.sleb() * cie.data_alignment;
                if (rules.cfa)
                    rules.cfa->offset = offset;
                break;
            }
            case DW_CFA_GNU_args_size:
                in.uleb();
                break;
            default:
                return false;
            }
        }
        if (!ok)
            return false;
    }
    if (in.failed)
        return false;
    if (loc < fde.end)
        spans.push_back({loc, fde.end, false, compact_row(rules, loc, fde.end)});
    return true;
}

// The section's CIEs by offset and its FDEs by address; false when it
// holds what the reader does not read.
bool read_entries(const CfiSection &section, std::unordered_map<Dwarf_Off, Cie> &cies, std::vector<Fde> &fdes) {
    std::vector<Dwarf_FDE> entries;
    for (Dwarf_Off offset = 0;;) {
        Dwarf_Off next = 0;
        Dwarf_CFI_Entry entry;
        const int result = dwarf_next_cfi(section.ident, section.data, section.eh_frame, offset, &next, &entry);
        if (result > 0)
            break;
        if (result < 0)
            return false;
        if (dwarf_cfi_cie_p(&entry)) {
            Cie cie;
            cie.code_alignment = entry.cie.code_alignment_factor;
            cie.data_alignment = static_cast<uint64_t>(entry.cie.data_alignment_factor);
            if (!read_augmentation(entry.cie, cie, section))
                return false;
            cies.emplace(offset, cie);
        } else {
            entries.push_back(entry.fde);
        }
        offset = next;
    }
    for (const Dwarf_FDE &entry : entries) {
        auto cie = cies.find(entry.CIE_pointer);
        if (cie == cies.end())
            return false;
        Cursor in{entry.start, entry.end};
        const std::optional<uint64_t> start = read_pointer(in, cie->second.fde_encoding, section);
        const std::optional<uint64_t> range = read_pointer(in, cie->second.fde_encoding & 0x0f, section);
        if (!start || !range)
            return false;
        if (cie->second.sized_augmentation) {
            const uint64_t length = in.uleb();
            if (in.failed || length > static_cast<uint64_t>(in.end - in.at))
                return false;
            in.at += length;
        }
        Fde fde{*start, *start + *range, entry.CIE_pointer, in.at, in.end};
        if (fde.end > fde.start && !cie->second.probe &&
            advances_first(Cursor{fde.program, fde.program_end}, cie->second))
            cie->second.probe = fde.start;
        fdes.push_back(fde);
    }
    std::sort(fdes.begin(), fdes.end(), [](const Fde &a, const Fde &b) { return a.start < b.start; });
    // libdw finds an FDE by its start (.eh_frame_hdr's table) or by a scan in
    // the section's order: the same one only where none overlap.
    for (size_t i = 1; i < fdes.size(); i++)
        if (fdes[i].start < fdes[i - 1].end || fdes[i].start == fdes[i - 1].start)
            return false;
    return true;
}

} // namespace

bool for_each_cfi_span(const CfiSection &section,
                       const std::function<std::optional<RowRules>(uint64_t address)> &rules_at,
                       const std::function<void(const CfiSpan &)> &visit) {
    if (section.data == nullptr)
        return true; // no CFI: no rows
    if (section.ident[EI_CLASS] != ELFCLASS64 || section.ident[EI_DATA] != ELFDATA2LSB)
        return false;
    std::unordered_map<Dwarf_Off, Cie> cies;
    std::vector<Fde> fdes;
    if (!read_entries(section, cies, fdes))
        return false;
    std::vector<CfiSpan> spans;
    for (const Fde &fde : fdes) {
        if (fde.end == fde.start)
            continue;
        Cie &cie = cies.at(fde.cie);
        if (!cie.initial)
            cie.initial = cie.probe ? rules_at(*cie.probe) : std::optional<RowRules>();
        spans.clear();
        if (!*cie.initial || !run_program(fde, cie, **cie.initial, spans)) {
            spans.clear();
            spans.push_back({fde.start, fde.end, true, std::nullopt});
        }
        for (const CfiSpan &span : spans)
            visit(span);
    }
    return true;
}

} // namespace dtrace::live::stacks
