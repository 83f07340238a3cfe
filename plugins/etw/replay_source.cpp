// replay_source.cpp: opening the -E trace with messages for the user.
#include "replay_source.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include "nettrace/nettrace_reader.h"

namespace dtrace::etw::plugin {

Result<EtlReader> open_replay(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
        return Error{path + ": " + std::strerror(ENOENT) +
                     " (recording live ETW needs Windows; -E takes an existing .etl, .etl.zip, .nettrace or "
                     ".nettrace.zip file)"};
    }
    Result<std::unique_ptr<ByteSource>> source = open_file_source(path);
    if (!source) {
        return Error{source.error()};
    }
    // EventPipe's .nettrace files replay through the same probes (reader/event_stream.h).
    if (nettrace::is_nettrace_file(*source.value())) {
        Result<std::unique_ptr<nettrace::NetTraceReader>> nettrace =
            nettrace::NetTraceReader::open_source(std::move(source.value()), path);
        if (!nettrace) {
            return Error{nettrace.error()};
        }
        return EtlReader::adopt(std::move(nettrace.value()));
    }
    return EtlReader::open_source(std::move(source.value()), path);
}

} // namespace dtrace::etw::plugin
