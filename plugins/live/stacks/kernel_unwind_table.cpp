// kernel_unwind_table.cpp: rows and mappings for the in-kernel ustack() walk
// (see kernel_unwind_table.h).
#include "kernel_unwind_table.h"

#include "cfi_section_rows.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace dtrace::live::stacks {

namespace {

constexpr int kRbp = 6;

template <typename Field> bool fits(uint64_t modular, Field &out) {
    const auto value = static_cast<int64_t>(modular);
    if (value < std::numeric_limits<Field>::min() || value > std::numeric_limits<Field>::max())
        return false;
    out = static_cast<Field>(value);
    return true;
}

const SavedRegister &saved(const UnwindRow &row, int dwarf_register) {
    const auto at = std::find(kPreservedRegisters.begin(), kPreservedRegisters.end(), dwarf_register);
    return row.saved[static_cast<size_t>(at - kPreservedRegisters.begin())];
}

uint8_t rule_of(const SavedRegister &r) {
    switch (r.at) {
    case SavedRegister::At::Undefined:
        return DTRACE_UNWIND_REGISTER_UNDEFINED;
    case SavedRegister::At::Same:
        return DTRACE_UNWIND_REGISTER_SAME;
    case SavedRegister::At::Cfa:
        break;
    }
    return DTRACE_UNWIND_REGISTER_AT_CFA;
}

dtrace_fastpath_unwind_row row_of_kind(uint8_t kind) {
    dtrace_fastpath_unwind_row row{};
    row.kind = kind;
    return row;
}

bool same_rule(const dtrace_fastpath_unwind_row &a, const dtrace_fastpath_unwind_row &b) {
    return a.kind == b.kind && a.cfa_offset == b.cfa_offset && a.cfa_register == b.cfa_register &&
           a.rbp_rule == b.rbp_rule && a.rip_rule == b.rip_rule && a.rbp_cfa_offset == b.rbp_cfa_offset &&
           a.rip_cfa_offset == b.rip_cfa_offset;
}

// Appends `row` from `start` on, unless the previous row says the same.
void append(std::vector<dtrace_fastpath_unwind_row> &rows, dtrace_fastpath_unwind_row row, uint64_t start) {
    if (!rows.empty() && same_rule(rows.back(), row))
        return;
    row.start = static_cast<uint32_t>(start);
    rows.push_back(row);
}

} // namespace

dtrace_fastpath_unwind_row kernel_row(const UnwindRow &row) {
    dtrace_fastpath_unwind_row out = row_of_kind(DTRACE_UNWIND_ROW_COMPACT);
    const SavedRegister &rip = saved(row, kDwarfIp), &rbp = saved(row, kRbp);
    out.rip_rule = rule_of(rip);
    out.rbp_rule = rule_of(rbp);
    if ((row.cfa_register != kRbp && row.cfa_register != kDwarfSp) || !fits(row.cfa_offset, out.cfa_offset) ||
        out.rip_rule == DTRACE_UNWIND_REGISTER_SAME ||
        (out.rip_rule == DTRACE_UNWIND_REGISTER_AT_CFA && !fits(rip.cfa_offset, out.rip_cfa_offset)) ||
        (out.rbp_rule == DTRACE_UNWIND_REGISTER_AT_CFA && !fits(rbp.cfa_offset, out.rbp_cfa_offset)))
        return row_of_kind(DTRACE_UNWIND_ROW_OTHER);
    out.cfa_register = static_cast<uint8_t>(row.cfa_register);
    return out;
}

namespace {

// The rows of [address, until) asked of libdw, the first from `address`;
// returns where the last ends (beyond `until` when libdw's row does).
uint64_t append_rows_by_libdw(ElfImage &image, uint64_t address, uint64_t until,
                              std::vector<dtrace_fastpath_unwind_row> &rows) {
    while (address < until) {
        std::unique_ptr<Dwarf_Frame, FrameFree> frame(image.frame_at(address));
        Dwarf_Addr row_start = 0, row_end = 0;
        bool signal = false;
        if (frame == nullptr || dwarf_frame_info(frame.get(), &row_start, &row_end, &signal) < 0 ||
            row_end <= address) {
            append(rows, row_of_kind(DTRACE_UNWIND_ROW_NONE), address); // padding, a stub: the unwinder stops
            address++;
            continue;
        }
        // The row of the frame at hand (not image.unwind_row(), which would
        // look it up again and cache every row of the file).
        const std::optional<UnwindRow> row = compact_row(frame.get());
        append(rows, row ? kernel_row(*row) : row_of_kind(DTRACE_UNWIND_ROW_OTHER), address);
        address = row_end;
    }
    return address;
}

// The file's rows, each up to the next's: NONE where no FDE covers, an
// FDE the one-pass reader does not follow (or all, when it does not read
// the section) asked of libdw.
std::vector<KernelCfiRow> kernel_cfi_rows(ElfImage &image) {
    std::vector<KernelCfiRow> table{{0, row_of_kind(DTRACE_UNWIND_ROW_NONE), false}};
    auto add = [&](uint64_t start, const dtrace_fastpath_unwind_row &row, bool ask_libdw) {
        if (table.back().start == start)
            table.pop_back(); // the first row, NONE from 0
        else if (!ask_libdw && !table.back().ask_libdw && same_rule(table.back().row, row))
            return;
        table.push_back({start, row, ask_libdw});
    };
    uint64_t covered = 0; // the end of the last span
    auto visit = [&](const CfiSpan &span) {
        if (span.start > covered)
            add(covered, row_of_kind(DTRACE_UNWIND_ROW_NONE), false);
        add(span.start, span.row ? kernel_row(*span.row) : row_of_kind(DTRACE_UNWIND_ROW_OTHER), span.ask_libdw);
        covered = span.end;
    };
    auto rules_at = [&](uint64_t address) -> std::optional<RowRules> {
        std::unique_ptr<Dwarf_Frame, FrameFree> frame(image.frame_at(address));
        return frame ? std::optional(row_rules(frame.get())) : std::nullopt;
    };
    const std::optional<CfiSection> section = image.cfi_section();
    if (!section || !for_each_cfi_span(*section, rules_at, visit))
        return {{0, row_of_kind(DTRACE_UNWIND_ROW_NONE), true}};
    add(covered, row_of_kind(DTRACE_UNWIND_ROW_NONE), false);
    return table;
}

} // namespace

std::vector<dtrace_fastpath_unwind_row> kernel_unwind_rows(ElfImage &image, uint64_t start, uint64_t end) {
    const std::span<const KernelCfiRow> table = image.kernel_cfi_rows([&] { return kernel_cfi_rows(image); });
    std::vector<dtrace_fastpath_unwind_row> rows;
    auto next = std::upper_bound(table.begin(), table.end(), start,
                                 [](uint64_t a, const KernelCfiRow &row) { return a < row.start; });
    for (uint64_t address = start; address < end;) {
        while (next != table.end() && next->start <= address)
            ++next;
        const KernelCfiRow &at = *std::prev(next); // table[0] starts at 0
        const uint64_t until = next == table.end() ? end : std::min(next->start, end);
        if (at.ask_libdw) {
            address = append_rows_by_libdw(image, address, until, rows);
            continue;
        }
        append(rows, at.row, address);
        address = until;
    }
    rows.push_back(row_of_kind(DTRACE_UNWIND_ROW_NONE));
    rows.back().start = static_cast<uint32_t>(end);
    return rows;
}

std::vector<dtrace_fastpath_unwind_row> kernel_unwind_rows_by_libdw(ElfImage &image, uint64_t start, uint64_t end) {
    std::vector<dtrace_fastpath_unwind_row> rows;
    append_rows_by_libdw(image, start, end, rows);
    rows.push_back(row_of_kind(DTRACE_UNWIND_ROW_NONE));
    rows.back().start = static_cast<uint32_t>(end);
    return rows;
}

std::optional<std::vector<uint32_t>> kernel_unwind_blocks(const std::vector<dtrace_fastpath_unwind_row> &rows,
                                                          uint64_t start, uint32_t first_row) {
    std::vector<uint32_t> blocks;
    const uint64_t end = rows.back().start; // the last row: NONE from the code's end
    auto first_above = rows.begin();
    for (uint64_t block = start;; block += uint64_t(1) << DTRACE_UNWIND_BLOCK_SHIFT) {
        const uint64_t at = std::min(block, end);
        first_above = std::upper_bound(first_above, rows.end(), at,
                                       [](uint64_t address, const auto &row) { return address < row.start; });
        const auto row = static_cast<uint32_t>(first_above - rows.begin()) - 1; // rows[0] starts at `start`
        if (!blocks.empty() && row - (blocks.back() - first_row) + 1 > DTRACE_UNWIND_BLOCK_ROWS)
            return std::nullopt;
        blocks.push_back(first_row + row);
        if (block >= end)
            return blocks;
    }
}

std::optional<FileUnwindRows> file_unwind_rows(ElfImage &image, uint64_t link_start, uint64_t length) {
    if (link_start + length > std::numeric_limits<uint32_t>::max())
        return std::nullopt;
    FileUnwindRows file;
    file.rows = kernel_unwind_rows(image, link_start, link_start + length);
    std::optional<std::vector<uint32_t>> blocks = kernel_unwind_blocks(file.rows, link_start, 0);
    if (!blocks)
        return std::nullopt;
    file.blocks = std::move(*blocks);
    return file;
}

std::optional<KernelUnwindTable>
kernel_unwind_table(const std::vector<Mapping> &mappings,
                    const std::function<std::shared_ptr<ElfImage>(const std::string &path)> &image_of) {
    if (mappings.size() > DTRACE_UNWIND_MAPPINGS_MAX)
        return std::nullopt;
    KernelUnwindTable table;
    for (const Mapping &mapping : mappings) {
        dtrace_fastpath_user_mapping entry{mapping.start, mapping.end, 0, 0, 0, 0, 0};
        std::shared_ptr<ElfImage> image = image_of(mapping.path);
        std::optional<uint64_t> link_start =
            image ? image->address_of_offset(mapping.file_offset) : std::optional<uint64_t>();
        std::optional<FileUnwindRows> file =
            link_start ? file_unwind_rows(*image, *link_start, mapping.end - mapping.start) : std::nullopt;
        if (file && table.rows.size() + file->rows.size() <= DTRACE_UNWIND_ROWS_MAX &&
            table.blocks.size() + file->blocks.size() <= DTRACE_UNWIND_BLOCKS_MAX) {
            entry.bias = mapping.start - *link_start;
            entry.first_row = static_cast<uint32_t>(table.rows.size());
            entry.nrows = static_cast<uint32_t>(file->rows.size());
            entry.first_block = static_cast<uint32_t>(table.blocks.size());
            table.rows.insert(table.rows.end(), file->rows.begin(), file->rows.end());
            for (uint32_t block : file->blocks)
                table.blocks.push_back(entry.first_row + block);
        }
        table.mappings.push_back(entry);
    }
    table.mappings.resize(DTRACE_UNWIND_MAPPINGS_MAX,
                          dtrace_fastpath_user_mapping{UINT64_MAX, UINT64_MAX, 0, 0, 0, 0, 0});
    return table;
}

} // namespace dtrace::live::stacks
