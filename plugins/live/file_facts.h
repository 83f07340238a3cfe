// file_facts.h: what /proc says of a process's open file, as fileinfo_t
// gives it (fds[] at live probes, file_library.h).
//
// /proc/PID/fd/N (readlink) gives the pathname, /proc/PID/fdinfo/N the
// offset, the open flags and the id of the mount the file is on, which
// /proc/PID/mountinfo maps to its mount point and filesystem type. The
// parsers take text (what a file holds) and never fail: what they cannot
// read is left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dtrace::live {

// DTrace's texts: no file at that descriptor, or a file whose path, mount
// or filesystem is not known.
inline constexpr std::string_view kNoFile = "<none>";
inline constexpr std::string_view kUnknownFile = "<unknown>";

struct FdInfo {
    int64_t pos = 0;
    uint64_t flags = 0; // octal in the file: Linux's O_* bits
    int64_t mnt_id = -1;
};
// /proc/PID/fdinfo/N; nothing when its pos or flags line is missing.
std::optional<FdInfo> parse_fdinfo(std::string_view text);

struct MountPoint {
    std::string mount_point; // the octal escapes (\040) decoded
    std::string fs_type;
};
using Mounts = std::unordered_map<int64_t, MountPoint>;
// /proc/PID/mountinfo: mount id -> where and what; malformed lines are skipped.
Mounts parse_mountinfo(std::string_view text);

// fileinfo_t's members of one descriptor.
struct FileFacts {
    std::string name, dirname, pathname, fs, mount;
    int64_t offset = 0;
    uint64_t oflags = 0;
};
// A descriptor that is not open: DTrace's values for a NULL file.
FileFacts no_file();
// A process that has exited (its files cannot be known any more).
FileFacts unknown_file();
// A descriptor whose link reads `link` ("/etc/passwd", "socket:[123]"),
// with its fdinfo, on mount `mount` (nullptr: not in mountinfo). A link
// that is not a path names no file: "<unknown>", as DTrace says of a file
// without a path, and the filesystem its prefix names (sockfs, pipefs,
// anon_inodefs).
FileFacts describe_file(std::string_view link, const FdInfo &info, const MountPoint *mount);

// Reads descriptor fd of process `process_dir` (/proc/PID or /proc/self),
// finding its mount in `mounts` (re-read from the process's mountinfo when
// the file's mount is not there yet).
FileFacts read_file_facts(const std::string &process_dir, int32_t fd, Mounts &mounts);

} // namespace dtrace::live
