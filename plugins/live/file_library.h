// file_library.h: fileinfo_t and DTrace's fds[] for live probes.
//
// fileinfo_t (the io provider's type, io:::start's args[2]) and its twin
// live_fileinfo_t, every member a uint64_t, are declared in the shared D
// library linux/file.d with a translator from the twin, and
//
//     inline fileinfo_t fds[int fd] = xlate<fileinfo_t>((live_fileinfo_t *)
//         (kFileRecordsAddress + (uint32_t)fd * kFileRecordStride));
//
// so fds[fd] is the twin at an address that names the descriptor, which the
// plugin builds from /proc when a clause reads it (file_records.h). At the
// probes that fire in dtrace's own process (BEGIN, END, ERROR: no plugin's
// record behind them) the translator gives what /proc said of dtrace's
// descriptors 0, 1 and 2 when the library was made, as curpsinfo gives
// dtrace's own facts there (process_library.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dtrace::live {

// fileinfo_t's members, in the twin's order (record index = member index).
namespace fi {
enum : uint8_t { fi_name, fi_dirname, fi_pathname, fi_offset, fi_fs, fi_mount, fi_oflags, kSize };
}

// The twins of descriptors 0 .. 2^32-1 (a negative one as its unsigned
// value), after the process records (process_library.h) and the shifted
// copies of them sdt serves (sdt/other_thread.h); then one text slot per
// member for the strings of the descriptor whose twin was read last.
inline constexpr uint64_t kFileRecordsAddress = 0xffffff0001000000ull;
inline constexpr uint64_t kFileRecordStride = 64; // >= fi::kSize * 8
inline constexpr uint64_t kFileTextBase = kFileRecordsAddress + (uint64_t{1} << 32) * kFileRecordStride;
inline constexpr uint64_t kFileTextSlot = 0x1000; // a path of PATH_MAX with its NUL
inline constexpr uint64_t kFileRecordsEnd = kFileTextBase + fi::kSize * kFileTextSlot;

inline constexpr uint64_t file_record_address(int32_t fd) {
    return kFileRecordsAddress + static_cast<uint64_t>(static_cast<uint32_t>(fd)) * kFileRecordStride;
}
inline constexpr uint64_t file_text_address(size_t member) {
    return kFileTextBase + member * kFileTextSlot;
}

// The D source: offset_t, fileinfo_t, its twin, the translator, fds[] and
// the O_* flags fi_oflags holds (Linux's).
const std::string &file_d_library();

} // namespace dtrace::live
