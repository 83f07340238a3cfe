// replay_source.cpp: opening the -E trace with messages for the user.
#include "replay_source.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace dtrace::etw::plugin {

Result<EtlReader> open_replay(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
        return Error{path + ": " + std::strerror(ENOENT) +
                     " (recording live ETW needs Windows; -E takes an existing .etl or .etl.zip file)"};
    }
    return EtlReader::open(path);
}

} // namespace dtrace::etw::plugin
