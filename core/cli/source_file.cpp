// source_file.cpp: bounded reading of D source files (see source_file.h).
#include "cli/source_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace dtrace::cli {

Result<std::string> read_source_file(const std::string &path, size_t limit) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Failure{"failed to open " + path + ": " + std::strerror(errno)};
    constexpr size_t kChunk = 64 * 1024;
    std::string text;
    while (in) {
        const size_t had = text.size();
        text.resize(had + kChunk);
        in.read(text.data() + had, static_cast<std::streamsize>(kChunk));
        text.resize(had + static_cast<size_t>(in.gcount()));
        if (text.size() > limit)
            return Failure{"failed to read " + path + ": the file is larger than " + std::to_string(limit >> 20) +
                           " MB"};
    }
    if (in.bad())
        return Failure{"failed to read " + path + ": " + std::strerror(errno)};
    return text;
}

} // namespace dtrace::cli
