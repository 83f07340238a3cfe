// file_facts.cpp: fileinfo_t's members from /proc/PID/fd, fdinfo and mountinfo.
#include "file_facts.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <type_traits>
#include <unistd.h>
#include <vector>

#include "tracefs.h"

namespace dtrace::live {

namespace {

// The lines of `text`, each without its newline.
std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        lines.push_back(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
    return lines;
}

// The blank-separated words of a line.
std::vector<std::string_view> words_of(std::string_view line) {
    std::vector<std::string_view> words;
    size_t at = 0;
    while (at < line.size()) {
        const size_t start = line.find_first_not_of(" \t", at);
        if (start == std::string_view::npos)
            break;
        const size_t end = line.find_first_of(" \t", start);
        words.push_back(line.substr(start, end - start));
        at = end == std::string_view::npos ? line.size() : end;
    }
    return words;
}

// A whole word as a number in `base`; nothing when it is not one.
template <typename T> std::optional<T> number_of(std::string_view word, int base) {
    if (word.empty() || word.size() > 32)
        return std::nullopt;
    const std::string text(word);
    char *end = nullptr;
    errno = 0;
    const T value = std::is_signed_v<T> ? static_cast<T>(std::strtoll(text.c_str(), &end, base))
                                        : static_cast<T>(std::strtoull(text.c_str(), &end, base));
    if (errno != 0 || end != text.c_str() + text.size())
        return std::nullopt;
    return value;
}

// mountinfo escapes blanks, tabs, newlines and backslashes as \ooo.
std::string unescaped(std::string_view field) {
    std::string out;
    for (size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && field.size() - i > 3) {
            const std::optional<unsigned> code = number_of<unsigned>(field.substr(i + 1, 3), 8);
            if (code && *code < 256) {
                out += static_cast<char>(*code);
                i += 3;
                continue;
            }
        }
        out += field[i];
    }
    return out;
}

// The filesystem a link that is not a path names by its prefix.
std::string pseudo_fs_of(std::string_view link) {
    const std::string_view kind = link.substr(0, link.find(':'));
    if (kind == "socket")
        return "sockfs";
    if (kind == "pipe")
        return "pipefs";
    if (kind == "anon_inode")
        return "anon_inodefs";
    return std::string(kUnknownFile);
}

// Whether the process is gone or has exited (a zombie has closed its files).
bool process_exited(const std::string &process_dir) {
    Result<std::string> stat = read_text_file(process_dir + "/stat");
    if (!stat)
        return true;
    const size_t close = stat.value().rfind(") ");
    const char state = close == std::string::npos || close + 2 >= stat.value().size() ? 'X' : stat.value()[close + 2];
    return state == 'Z' || state == 'X';
}

} // namespace

std::optional<FdInfo> parse_fdinfo(std::string_view text) {
    FdInfo info;
    bool pos = false, flags = false;
    for (std::string_view line : lines_of(text)) {
        const std::vector<std::string_view> words = words_of(line);
        if (words.size() != 2)
            continue;
        if (words[0] == "pos:") {
            const std::optional<int64_t> value = number_of<int64_t>(words[1], 10);
            pos = value.has_value();
            info.pos = value.value_or(0);
        } else if (words[0] == "flags:") {
            const std::optional<uint64_t> value = number_of<uint64_t>(words[1], 8);
            flags = value.has_value();
            info.flags = value.value_or(0);
        } else if (words[0] == "mnt_id:") {
            info.mnt_id = number_of<int64_t>(words[1], 10).value_or(-1);
        }
    }
    if (!pos || !flags)
        return std::nullopt;
    return info;
}

// "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw":
// the id, the mount point (5th), then after the optional fields and "-",
// the filesystem type.
Mounts parse_mountinfo(std::string_view text) {
    Mounts mounts;
    for (std::string_view line : lines_of(text)) {
        const std::vector<std::string_view> words = words_of(line);
        size_t dash = 6;
        while (dash < words.size() && words[dash] != "-")
            ++dash;
        if (dash + 1 >= words.size())
            continue;
        const std::optional<int64_t> id = number_of<int64_t>(words[0], 10);
        if (!id)
            continue;
        mounts[*id] = MountPoint{unescaped(words[4]), unescaped(words[dash + 1])};
    }
    return mounts;
}

FileFacts no_file() {
    const std::string none(kNoFile);
    return {none, none, none, none, none, 0, 0};
}

FileFacts unknown_file() {
    const std::string unknown(kUnknownFile);
    return {unknown, unknown, unknown, unknown, unknown, -1, 0};
}

FileFacts describe_file(std::string_view link, const FdInfo &info, const MountPoint *mount) {
    FileFacts f;
    f.offset = info.pos;
    f.oflags = info.flags;
    f.mount = mount != nullptr ? mount->mount_point : std::string(kUnknownFile);
    if (link.empty() || link.front() != '/') {
        f.name = f.dirname = f.pathname = std::string(kUnknownFile);
        f.fs = mount != nullptr ? mount->fs_type : pseudo_fs_of(link);
        return f;
    }
    f.fs = mount != nullptr ? mount->fs_type : std::string(kUnknownFile);
    f.pathname = std::string(link);
    const size_t slash = link.find_last_of('/');
    f.name = slash + 1 == link.size() ? "/" : std::string(link.substr(slash + 1));
    f.dirname = slash == 0 ? "/" : std::string(link.substr(0, slash));
    return f;
}

FileFacts read_file_facts(const std::string &process_dir, int32_t fd, Mounts &mounts) {
    if (fd < 0)
        return no_file();
    const std::string number = std::to_string(fd);
    char link[PATH_MAX];
    const ssize_t n = readlink((process_dir + "/fd/" + number).c_str(), link, sizeof link - 1);
    Result<std::string> fdinfo = read_text_file(process_dir + "/fdinfo/" + number);
    std::optional<FdInfo> info = fdinfo ? parse_fdinfo(fdinfo.value()) : std::nullopt;
    if (n < 0 || !info)
        return process_exited(process_dir) ? unknown_file() : no_file();
    const std::string_view path(link, static_cast<size_t>(n));
    auto mount = mounts.find(info->mnt_id);
    if (mount == mounts.end() && !path.empty() && path.front() == '/') {
        if (Result<std::string> text = read_text_file(process_dir + "/mountinfo"))
            mounts = parse_mountinfo(text.value());
        mount = mounts.find(info->mnt_id);
    }
    return describe_file(path, *info, mount == mounts.end() ? nullptr : &mount->second);
}

} // namespace dtrace::live
