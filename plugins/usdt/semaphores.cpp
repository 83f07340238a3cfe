// semaphores.cpp: USDT semaphores through /proc/PID/mem (see semaphores.h).
#include "semaphores.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dtrace::usdt {

uint64_t mapped_address(int64_t pid, const std::string &path, uint64_t file_offset) {
    struct stat wanted;
    if (stat(path.c_str(), &wanted) != 0)
        return 0;
    FILE *maps = std::fopen(("/proc/" + std::to_string(pid) + "/maps").c_str(), "re");
    if (!maps)
        return 0;
    uint64_t address = 0;
    char line[4096];
    while (address == 0 && std::fgets(line, sizeof line, maps)) {
        uint64_t start = 0, end = 0, offset = 0, inode = 0;
        unsigned major = 0, minor = 0;
        char perms[8] = {};
        if (std::sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64, &start, &end, perms, &offset,
                        &major, &minor, &inode) != 7)
            continue;
        // The same file: its inode (a path may be reached through another name).
        if (inode != wanted.st_ino || file_offset < offset || file_offset - offset >= end - start)
            continue;
        address = start + (file_offset - offset);
    }
    std::fclose(maps);
    return address;
}

plugin_common::Status adjust_semaphore(int64_t pid, const std::string &path, uint64_t file_offset, int delta) {
    const uint64_t address = mapped_address(pid, path, file_offset);
    if (address == 0)
        return plugin_common::Error{"the semaphore of " + path + " is not mapped in process " + std::to_string(pid)};
    const std::string mem = "/proc/" + std::to_string(pid) + "/mem";
    const int fd = open(mem.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return plugin_common::Error{"cannot open " + mem + ": " + std::strerror(errno)};
    uint16_t value = 0;
    bool ok = pread(fd, &value, sizeof value, static_cast<off_t>(address)) == sizeof value;
    if (ok) {
        value = static_cast<uint16_t>(delta < 0 && value == 0 ? 0 : value + delta);
        ok = pwrite(fd, &value, sizeof value, static_cast<off_t>(address)) == sizeof value;
    }
    const int saved = errno;
    close(fd);
    if (!ok)
        return plugin_common::Error{"cannot update a semaphore of process " + std::to_string(pid) + ": " +
                                    std::strerror(saved)};
    return plugin_common::Done{};
}

} // namespace dtrace::usdt
