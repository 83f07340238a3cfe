// unwind_rows_test.cpp: the unwinder's compact rows (live/stacks/unwind_rows.h)
// against libdw's rules evaluated in full (step_by_frame), row by row over
// all the code with CFI of two files built without frame pointers: this
// process's libc and this test program (-O2). Either way gives the same
// caller registers, with the memory the rules read in the stack copy and
// without it; and nearly every row is compact.
//
// And the rows read in one pass over a file's CFI (cfi_section_rows.h)
// against libdw's, asked address by address (dwarf_cfi_addrframe), for
// this process's libc and libstdc++ and this test program: each span's row
// at its first and last address and in its middle, no row where no span
// is, and the in-kernel walk's rows of the whole code (kernel_unwind_rows)
// the same bytes as when every address is asked of libdw
// (kernel_unwind_rows_by_libdw, the way they were computed before).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cfi_section_rows.h"
#include "cfi_unwinder.h"
#include "elf_image.h"
#include "kernel_unwind_table.h"
#include "unwind_rows.h"

namespace dtrace::live::stacks {
namespace {

struct CodeRange {
    uint64_t start, end;
};

// The link-time addresses of `path`'s executable PT_LOAD segments.
std::vector<CodeRange> code_ranges(const std::string &path) {
    std::vector<CodeRange> ranges;
    elf_version(EV_CURRENT);
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ranges;
    Elf *elf = elf_begin(fd, ELF_C_READ, nullptr);
    size_t count = 0;
    if (elf != nullptr && elf_getphdrnum(elf, &count) == 0) {
        for (size_t i = 0; i < count; i++) {
            GElf_Phdr phdr;
            if (gelf_getphdr(elf, static_cast<int>(i), &phdr) != nullptr && phdr.p_type == PT_LOAD &&
                (phdr.p_flags & PF_X))
                ranges.push_back({phdr.p_vaddr, phdr.p_vaddr + phdr.p_memsz});
        }
    }
    if (elf != nullptr)
        elf_end(elf);
    close(fd);
    return ranges;
}

// The path of the library of this process whose name holds `name`.
std::string mapped_path(const char *name) {
    std::pair<const char *, std::string> wanted{name, ""};
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *out) {
            auto *w = static_cast<std::pair<const char *, std::string> *>(out);
            if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, w->first) != nullptr)
                w->second = info->dlpi_name;
            return 0;
        },
        &wanted);
    return wanted.second;
}

// A callee's registers, all known, and a stack copy from its rsp whose
// words are told apart by their offset; rbp points into the copy.
struct Callee {
    static constexpr uint64_t kSp = 0x7ff000000000;
    UserRegs regs;
    std::vector<uint8_t> memory = std::vector<uint8_t>(64 * 1024);
    Callee() {
        for (int r = 0; r < kDwarfRegisterCount; r++) {
            regs.value[r] = 0x10000000 + static_cast<uint64_t>(r) * 0x100;
            regs.known[r] = true;
        }
        regs.value[kDwarfSp] = kSp;
        regs.value[6] = kSp + 0x80;
        for (size_t offset = 0; offset + 8 <= memory.size(); offset += 8) {
            const uint64_t word = 0x50000000 + offset;
            std::memcpy(memory.data() + offset, &word, 8);
        }
    }
};

// `path`'s image; nullptr, failing the test, when it cannot be opened.
std::shared_ptr<ElfImage> open_image(const std::string &path) {
    std::string error;
    std::shared_ptr<ElfImage> image = ElfImage::open(path, error);
    EXPECT_NE(image, nullptr) << path << ": " << error;
    return image;
}

struct RowCounts {
    size_t rows = 0, compact = 0;
};

// Every row of `path`'s code: the compact step and libdw's agree.
RowCounts compare_every_row(const std::string &path) {
    RowCounts counts;
    std::shared_ptr<ElfImage> image = open_image(path);
    if (image == nullptr)
        return counts;
    const Callee callee;
    const StackCopy whole{Callee::kSp, callee.memory};
    const StackCopy short_copy{Callee::kSp, std::span<const uint8_t>(callee.memory).first(16)};
    for (const CodeRange &range : code_ranges(path)) {
        for (uint64_t address = range.start; address < range.end;) {
            std::unique_ptr<Dwarf_Frame, FrameFree> frame(image->frame_at(address));
            Dwarf_Addr start = 0, end = 0;
            bool signal = false;
            if (frame == nullptr || dwarf_frame_info(frame.get(), &start, &end, &signal) < 0 || end <= address) {
                address++; // code without CFI (padding, a stub): the unwinder stops there
                continue;
            }
            counts.rows++;
            std::optional<UnwindRow> row = image->unwind_row(address);
            EXPECT_EQ(row.has_value(), compact_row(frame.get()).has_value()) << std::hex << address;
            if (row) {
                counts.compact++;
                EXPECT_EQ(row->start, start);
                EXPECT_EQ(row->end, end);
                for (const StackCopy &copy : {whole, short_copy}) {
                    UserRegs by_row, by_frame;
                    const bool row_steps = step_by_row(*row, callee.regs, copy, by_row);
                    const bool frame_steps = step_by_frame(frame.get(), callee.regs, copy, by_frame);
                    EXPECT_EQ(row_steps, frame_steps) << path << std::hex << " at 0x" << address;
                    EXPECT_EQ(by_row.value, by_frame.value) << path << std::hex << " at 0x" << address;
                    EXPECT_EQ(by_row.known, by_frame.known) << path << std::hex << " at 0x" << address;
                }
            }
            address = end;
        }
    }
    return counts;
}

TEST(UnwindRows, LibcRowsStepAsLibdwEvaluatesThem) {
    const std::string path = mapped_path("libc.so.6");
    if (path.empty())
        GTEST_SKIP() << "no libc.so.6 mapped in this process";
    const RowCounts counts = compare_every_row(path);
    ASSERT_GT(counts.rows, 1000u);
    // The rows an unwinder without DWARF expressions walks: nearly all.
    EXPECT_GE(counts.compact * 100, counts.rows * 99) << counts.compact << " of " << counts.rows;
    std::cout << path << ": " << counts.compact << " of " << counts.rows << " rows compact\n";
}

TEST(UnwindRows, ProgramRowsStepAsLibdwEvaluatesThem) {
    const RowCounts counts = compare_every_row("/proc/self/exe");
    ASSERT_GT(counts.rows, 100u);
    EXPECT_GE(counts.compact * 100, counts.rows * 99) << counts.compact << " of " << counts.rows;
    std::cout << "this test: " << counts.compact << " of " << counts.rows << " rows compact\n";
}

// A cached row answers every address it covers, and no other.
TEST(UnwindRows, CachedRowCoversItsRange) {
    std::string error;
    std::shared_ptr<ElfImage> image = ElfImage::open("/proc/self/exe", error);
    ASSERT_NE(image, nullptr) << error;
    const uint64_t address = code_ranges("/proc/self/exe").at(0).start;
    uint64_t at = address;
    std::optional<UnwindRow> row;
    for (; !row && at < address + 4096; at++)
        row = image->unwind_row(at);
    ASSERT_TRUE(row) << "no compact row in the first 4 KB of code";
    for (uint64_t a = row->start; a < row->end; a++) {
        std::optional<UnwindRow> again = image->unwind_row(a);
        ASSERT_TRUE(again);
        EXPECT_EQ(again->start, row->start);
    }
    std::optional<UnwindRow> next = image->unwind_row(row->end);
    if (next) {
        EXPECT_GE(next->start, row->end);
    }
}

// libdw's row at `address`: nullopt where it has none; else its end and compact form.
struct LibdwRow {
    uint64_t end;
    std::optional<UnwindRow> row;
};
std::optional<LibdwRow> libdw_row(ElfImage &image, uint64_t address) {
    std::unique_ptr<Dwarf_Frame, FrameFree> frame(image.frame_at(address));
    Dwarf_Addr start = 0, end = 0;
    bool signal = false;
    if (frame == nullptr || dwarf_frame_info(frame.get(), &start, &end, &signal) < 0 || end <= address)
        return std::nullopt;
    std::optional<UnwindRow> row = compact_row(frame.get());
    if (row) // the start libdw reports after DW_CFA_restore_state is the remembered row's
        row->start = 0;
    return LibdwRow{end, row};
}

struct SpanCounts {
    size_t spans = 0, asked = 0;
};

// Every span of `path`'s CFI against libdw's row at three of its addresses,
// and the addresses between spans against libdw's having none.
SpanCounts compare_spans(const std::string &path) {
    SpanCounts counts;
    std::shared_ptr<ElfImage> image = open_image(path);
    if (image == nullptr)
        return counts;
    const std::optional<CfiSection> section = image->cfi_section();
    EXPECT_TRUE(section && section->data != nullptr) << path << ": no CFI section read";
    if (!section)
        return counts;
    uint64_t covered = 0;
    auto rules_at = [&](uint64_t address) -> std::optional<RowRules> {
        std::unique_ptr<Dwarf_Frame, FrameFree> frame(image->frame_at(address));
        return frame ? std::optional(row_rules(frame.get())) : std::nullopt;
    };
    const bool read = for_each_cfi_span(*section, rules_at, [&](const CfiSpan &span) {
        EXPECT_LT(span.start, span.end);
        EXPECT_GE(span.start, covered) << path << std::hex << ": spans overlap at 0x" << span.start;
        for (uint64_t gap : {covered, span.start - 1})
            if (covered != 0 && gap >= covered && gap < span.start) {
                EXPECT_FALSE(libdw_row(*image, gap)) << path << std::hex << ": libdw has a row at 0x" << gap;
            }
        covered = span.end;
        counts.spans++;
        if (span.ask_libdw) {
            counts.asked++;
            return;
        }
        for (uint64_t address : {span.start, span.start + (span.end - span.start) / 2, span.end - 1}) {
            const std::optional<LibdwRow> libdw = libdw_row(*image, address);
            ASSERT_TRUE(libdw) << path << std::hex << ": libdw has no row at 0x" << address;
            EXPECT_EQ(libdw->end, span.end) << path << std::hex << " at 0x" << address;
            std::optional<UnwindRow> ours = span.row;
            if (ours)
                ours->start = 0;
            EXPECT_EQ(libdw->row.has_value(), ours.has_value()) << path << std::hex << " at 0x" << address;
            if (libdw->row && ours) {
                EXPECT_EQ(*libdw->row, *ours) << path << std::hex << " at 0x" << address;
            }
        }
    });
    EXPECT_TRUE(read) << path << ": the reader left the whole section to libdw";
    return counts;
}

// The walk's rows of all of `path`'s code: one pass against libdw at every address.
void compare_kernel_rows(const std::string &path) {
    std::string error;
    std::shared_ptr<ElfImage> fast = ElfImage::open(path, error), reference = ElfImage::open(path, error);
    ASSERT_TRUE(fast && reference) << error;
    for (const CodeRange &range : code_ranges(path)) {
        const std::vector<dtrace_fastpath_unwind_row> ours = kernel_unwind_rows(*fast, range.start, range.end);
        const std::vector<dtrace_fastpath_unwind_row> libdw =
            kernel_unwind_rows_by_libdw(*reference, range.start, range.end);
        ASSERT_GT(libdw.size(), 10u) << path;
        ASSERT_EQ(ours.size(), libdw.size()) << path;
        for (size_t i = 0; i < ours.size(); i++)
            ASSERT_EQ(std::memcmp(&ours[i], &libdw[i], sizeof ours[i]), 0)
                << path << std::hex << ": row " << std::dec << i << " from 0x" << std::hex << libdw[i].start;
        // Part of the code (a mapping from inside it) gives the same rows too.
        const uint64_t middle = range.start + (range.end - range.start) / 3 + 1;
        const std::vector<dtrace_fastpath_unwind_row> part = kernel_unwind_rows(*fast, middle, range.end);
        const std::vector<dtrace_fastpath_unwind_row> part_libdw =
            kernel_unwind_rows_by_libdw(*reference, middle, range.end);
        ASSERT_EQ(part.size(), part_libdw.size()) << path;
        EXPECT_EQ(std::memcmp(part.data(), part_libdw.data(), part.size() * sizeof part[0]), 0) << path;
    }
}

void compare_file(const std::string &path) {
    const SpanCounts counts = compare_spans(path);
    EXPECT_GT(counts.spans, 100u) << path;
    // The FDEs left to libdw (an expression, set_loc...): a few.
    EXPECT_LE(counts.asked * 100, counts.spans) << path << ": " << counts.asked << " of " << counts.spans;
    std::cout << path << ": " << counts.spans << " spans, " << counts.asked << " left to libdw\n";
    compare_kernel_rows(path);
}

TEST(CfiSectionRows, LibcAsLibdw) {
    const std::string path = mapped_path("libc.so.6");
    if (path.empty())
        GTEST_SKIP() << "no libc.so.6 mapped in this process";
    compare_file(path);
}

TEST(CfiSectionRows, LibstdcxxAsLibdw) {
    const std::string path = mapped_path("libstdc++.so");
    if (path.empty())
        GTEST_SKIP() << "no libstdc++.so mapped in this process";
    compare_file(path);
}

TEST(CfiSectionRows, ProgramAsLibdw) {
    compare_file("/proc/self/exe");
}

} // namespace
} // namespace dtrace::live::stacks
