// replay_source.cpp: opening the -E traces with messages for the user.
#include "replay_source.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include "nettrace/nettrace_reader.h"
#include "reader/merged_stream.h"
#include "reader/zip_archive.h"

namespace dtrace::etw::plugin {

namespace {

Result<std::unique_ptr<ByteSource>> open_existing(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
        return Error{path + ": " + std::strerror(ENOENT) +
                     " (recording live ETW needs Windows; -E takes an existing .etl, .etl.zip, .nettrace or "
                     ".nettrace.zip file)"};
    }
    return open_file_source(path);
}

// The .etl members of an archive that holds more than one, else none.
Result<std::vector<ZipMember>> several_etl_members(ByteSource &source, const std::string &path) {
    std::vector<ZipMember> found;
    if (!looks_like_zip(source)) {
        return found;
    }
    Result<std::vector<ZipMember>> members = read_zip_directory(source, path);
    if (!members) {
        return Error{members.error()};
    }
    for (const ZipMember &member : members.value()) {
        if (member_has_suffix(member, ".etl")) {
            found.push_back(member);
        }
    }
    if (found.size() < 2) {
        found.clear();
    }
    return found;
}

// Appends the readers of one -E path: one, or an archive's every .etl.
std::optional<Error> open_path(const std::string &path, std::vector<EtlReader> &readers) {
    Result<std::unique_ptr<ByteSource>> source = open_existing(path);
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
        readers.push_back(EtlReader::adopt(std::move(nettrace.value())));
        return std::nullopt;
    }
    Result<std::vector<ZipMember>> members = several_etl_members(*source.value(), path);
    if (!members) {
        return Error{members.error()};
    }
    if (members.value().empty()) {
        Result<EtlReader> reader = EtlReader::open_source(std::move(source.value()), path);
        if (!reader) {
            return Error{reader.error()};
        }
        readers.push_back(std::move(reader.value()));
        return std::nullopt;
    }
    for (const ZipMember &member : members.value()) {
        const ReaderOptions options;
        Result<std::unique_ptr<ByteSource>> extracted =
            extract_zip_member(*source.value(), member, path, options.max_extracted_size);
        if (!extracted) {
            return Error{extracted.error()};
        }
        Result<EtlReader> reader =
            EtlReader::open_source(std::move(extracted.value()), archive_member_name(path, member));
        if (!reader) {
            return Error{reader.error()};
        }
        readers.push_back(std::move(reader.value()));
    }
    return std::nullopt;
}

} // namespace

std::vector<std::string> replay_paths(const std::string &option_value) {
    std::vector<std::string> paths;
    size_t start = 0;
    while (start <= option_value.size()) {
        size_t end = option_value.find('\n', start);
        if (end == std::string::npos) {
            end = option_value.size();
        }
        paths.push_back(option_value.substr(start, end - start));
        start = end + 1;
    }
    return paths;
}

std::string session_name(const std::vector<std::string> &paths) {
    std::string name;
    for (const std::string &path : paths) {
        name += (name.empty() ? "" : " + ") + path;
    }
    return name;
}

Result<EtlReader> open_replay(const std::vector<std::string> &paths) {
    std::vector<EtlReader> readers;
    for (const std::string &path : paths) {
        if (std::optional<Error> failed = open_path(path, readers)) {
            return *failed;
        }
        if (readers.size() > MergedStream::kMaxFiles) {
            return Error{path + ": a session replays at most " + std::to_string(MergedStream::kMaxFiles) +
                         " trace files"};
        }
    }
    if (readers.size() == 1) {
        return std::move(readers.front());
    }
    return EtlReader::adopt(std::make_unique<MergedStream>(std::move(readers)));
}

} // namespace dtrace::etw::plugin
