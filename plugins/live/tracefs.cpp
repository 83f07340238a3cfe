// tracefs.cpp: finding, mounting and reading tracefs.
#include "tracefs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace dtrace::live {

namespace {

constexpr long kTracefsMagic = 0x74726163;                           // TRACEFS_MAGIC
constexpr const char *kDebugfsTracing = "/sys/kernel/debug/tracing"; // older systems' path

bool is_tracefs(const char *path) {
    struct statfs fs {};
    return statfs(path, &fs) == 0 && fs.f_type == kTracefsMagic;
}

Result<std::string> find_or_mount() {
    if (is_tracefs(kTracefsMountPoint))
        return std::string(kTracefsMountPoint);
    if (is_tracefs(kDebugfsTracing))
        return std::string(kDebugfsTracing);
    if (mount("nodev", kTracefsMountPoint, "tracefs", 0, nullptr) != 0) {
        return Error{std::string("tracefs is not mounted and mounting it at ") + kTracefsMountPoint +
                     " failed: " + std::strerror(errno) + " (run as root, or mount it: mount -t tracefs nodev " +
                     kTracefsMountPoint + ")"};
    }
    return std::string(kTracefsMountPoint);
}

} // namespace

Result<std::string> tracefs_root() {
    static std::mutex lock;
    static std::optional<Result<std::string>> root;
    std::lock_guard guard(lock);
    if (!root || !root->ok())
        root.emplace(find_or_mount());
    return *root;
}

Result<std::vector<std::string>> tracefs_events(const std::string &group) {
    Result<std::string> root = tracefs_root();
    if (!root)
        return Error{root.error()};
    const std::string path = root.value() + "/events/" + group;
    DIR *dir = opendir(path.c_str());
    if (dir == nullptr)
        return Error{"cannot list " + path + ": " + std::strerror(errno)};
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir)) {
        if (entry->d_type == DT_DIR && entry->d_name[0] != '.')
            names.emplace_back(entry->d_name);
    }
    closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

Result<std::string> tracefs_format(const std::string &group, const std::string &event) {
    Result<std::string> root = tracefs_root();
    if (!root)
        return Error{root.error()};
    return read_text_file(root.value() + "/events/" + group + "/" + event + "/format");
}

Result<std::string> read_text_file(const std::string &path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{"cannot read " + path + ": " + std::strerror(errno)};
    std::string text;
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return Error{"cannot read " + path + ": " + std::strerror(e)};
        }
        if (n == 0)
            break;
        text.append(chunk, static_cast<size_t>(n));
    }
    close(fd);
    return text;
}

} // namespace dtrace::live
