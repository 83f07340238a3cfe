// file_library.cpp: the D text of fileinfo_t and fds[], generated from one
// member table so that the twin, the translator and fi:: cannot disagree.
#include "file_library.h"

#include <array>
#include <cstdio>
#include <fcntl.h>
#include <iterator>
#include <string_view>
#include <unistd.h>

#include "d_text.h"
#include "d_twin_types.h"
#include "file_facts.h"

namespace dtrace::live {

namespace {

using Member = plugin_common::TwinMember;

// The Dynamic Tracing Guide's fileinfo_t; what each member reads as on
// Linux is in docs/linux-providers.md.
constexpr Member kFileinfo[] = {
    {"fi_name", "string", "name (basename of fi_pathname)"},
    {"fi_dirname", "string", "directory (dirname of fi_pathname)"},
    {"fi_pathname", "string", "full pathname"},
    {"fi_offset", "offset_t", "offset within file"},
    {"fi_fs", "string", "filesystem"},
    {"fi_mount", "string", "mount point of file system"},
    {"fi_oflags", "int", "open(2) flags for file descriptor"},
};
static_assert(std::size(kFileinfo) == fi::kSize && fi::kSize * 8 <= kFileRecordStride);

// dtrace's own descriptors the library describes (stdin, stdout, stderr).
constexpr int kOwnDescriptors = 3;

// Member `m` of `f` as a D expression. dtrace's own offsets are not
// written in (0): they change as dtrace writes, and every live plugin must
// register the same text.
std::string own_member(size_t m, const FileFacts &f) {
    switch (m) {
    case fi::fi_name:
        return d_string(f.name);
    case fi::fi_dirname:
        return d_string(f.dirname);
    case fi::fi_pathname:
        return d_string(f.pathname);
    case fi::fi_fs:
        return d_string(f.fs);
    case fi::fi_mount:
        return d_string(f.mount);
    case fi::fi_oflags:
        return std::to_string(f.oflags);
    default:
        return "0";
    }
}

// The translator: at dtrace's own probes (its pid, a twin of fds[]), what
// /proc said of its descriptors 0 .. 2 (any other: not open); elsewhere
// the twin, which the plugin fills.
void append_translator(std::string &d) {
    std::array<FileFacts, kOwnDescriptors> own;
    Mounts mounts;
    for (int fd = 0; fd < kOwnDescriptors; ++fd)
        own[fd] = read_file_facts("/proc/self", fd, mounts);
    const FileFacts none = no_file();
    const std::string twin = "live_fileinfo_t";
    const plugin_common::TwinInput input = plugin_common::twin_pointer_input(twin);
    const std::string own_process = "pid == " + std::to_string(getpid()) +
                                    " && (uintptr_t)P >= " + d_hex(kFileRecordsAddress) + " && (uintptr_t)P < " +
                                    d_hex(kFileTextBase);
    d += "translator fileinfo_t < " + input.declaration + " > {\n";
    for (size_t m = 0; m < fi::kSize; ++m) {
        const Member &member = kFileinfo[m];
        const std::string type(member.d_type);
        std::string mine = own_member(m, none);
        for (int fd = kOwnDescriptors; m != fi::fi_offset && fd-- > 0;)
            mine = "(uintptr_t)P == " + d_hex(file_record_address(fd)) + " ? " + own_member(m, own[fd]) + " : " + mine;
        if (type != "string")
            mine = "(" + type + ")(" + mine + ")";
        d += "\t" + std::string(member.name) + " = " + own_process + " ? (" + mine +
             ") : " + plugin_common::twin_member_read(twin, input, member) + ";\n";
    }
    d += "};\n";
}

// open(2)'s flags as fi_oflags holds them: Linux's, as the build host's
// <fcntl.h> gives them (the names Oracle's io.d defines).
struct OpenFlag {
    const char *name;
    int value;
};
constexpr OpenFlag kOpenFlags[] = {
    {"O_ACCMODE", O_ACCMODE}, {"O_RDONLY", O_RDONLY},     {"O_WRONLY", O_WRONLY},       {"O_RDWR", O_RDWR},
    {"O_CREAT", O_CREAT},     {"O_EXCL", O_EXCL},         {"O_NOCTTY", O_NOCTTY},       {"O_TRUNC", O_TRUNC},
    {"O_APPEND", O_APPEND},   {"O_NONBLOCK", O_NONBLOCK}, {"O_NDELAY", O_NDELAY},       {"O_SYNC", O_SYNC},
    {"O_FSYNC", O_FSYNC},     {"O_ASYNC", O_ASYNC},       {"O_DIRECTORY", O_DIRECTORY}, {"O_NOFOLLOW", O_NOFOLLOW},
    {"O_CLOEXEC", O_CLOEXEC}, {"O_DSYNC", O_DSYNC},       {"O_RSYNC", O_RSYNC},
};

void append_open_flags(std::string &d) {
    for (const OpenFlag &flag : kOpenFlags) {
        char octal[16];
        std::snprintf(octal, sizeof octal, "0%o", static_cast<unsigned>(flag.value));
        d += "inline int " + std::string(flag.name) + " = " + octal + ";\n";
    }
}

} // namespace

const std::string &file_d_library() {
    static const std::string library = [] {
        std::string d = "typedef long long offset_t;\n";
        plugin_common::append_twin_structs(d, "fileinfo", "live_", kFileinfo);
        append_translator(d);
        append_open_flags(d);
        d += "inline fileinfo_t fds[int fd] = xlate<fileinfo_t>((live_fileinfo_t *)(" + d_hex(kFileRecordsAddress) +
             " + (uint64_t)(uint32_t)fd * " + std::to_string(kFileRecordStride) + "));\n";
        return d;
    }();
    return library;
}

} // namespace dtrace::live
