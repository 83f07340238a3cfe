// unwind_rows_test.cpp: the unwinder's compact rows (live/stacks/unwind_rows.h)
// against libdw's rules evaluated in full (step_by_frame), row by row over
// all the code with CFI of two files built without frame pointers: this
// process's libc and this test program (-O2). Either way gives the same
// caller registers, with the memory the rules read in the stack copy and
// without it; and nearly every row is compact.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cfi_unwinder.h"
#include "elf_image.h"
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

std::string libc_path() {
    std::string found;
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *out) {
            if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libc.so.6") != nullptr)
                *static_cast<std::string *>(out) = info->dlpi_name;
            return 0;
        },
        &found);
    return found;
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

struct RowCounts {
    size_t rows = 0, compact = 0;
};

// Every row of `path`'s code: the compact step and libdw's agree.
RowCounts compare_every_row(const std::string &path) {
    RowCounts counts;
    std::string error;
    std::shared_ptr<ElfImage> image = ElfImage::open(path, error);
    EXPECT_NE(image, nullptr) << path << ": " << error;
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
    const std::string path = libc_path();
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
    if (next)
        EXPECT_GE(next->start, row->end);
}

} // namespace
} // namespace dtrace::live::stacks
