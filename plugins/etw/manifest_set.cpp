// manifest_set.cpp: loading and indexing registered manifests.
#include "manifest_set.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace dtrace::etw::plugin {

namespace {

constexpr std::string_view kPathSeparators = ":\n";

bool is_manifest_file(const std::filesystem::path &p) {
    return p.extension() == ".man" || p.extension() == ".xml";
}

// The files a path names: itself, or a directory's manifests in name order.
Result<std::vector<std::string>> files_of(const std::string &path) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
        return std::vector<std::string>{path};
    }
    std::vector<std::string> files;
    for (const auto &entry : std::filesystem::directory_iterator(path, ec)) {
        if (entry.is_regular_file() && is_manifest_file(entry.path())) {
            files.push_back(entry.path().string());
        }
    }
    if (ec) {
        return Error{path + ": " + ec.message()};
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

Result<ManifestSet> ManifestSet::load(std::string_view option_value) {
    ManifestSet set;
    while (!option_value.empty()) {
        const size_t end = std::min(option_value.find_first_of(kPathSeparators), option_value.size());
        const std::string path(option_value.substr(0, end));
        option_value.remove_prefix(std::min(end + 1, option_value.size()));
        if (path.empty()) {
            continue;
        }
        Result<std::vector<std::string>> files = files_of(path);
        if (!files) {
            return Error{files.error()};
        }
        for (const std::string &file : files.value()) {
            Result<std::vector<ManifestProvider>> parsed = parse_manifest_file(file);
            if (!parsed) {
                return Error{parsed.error()};
            }
            set.add(std::move(parsed.value()));
        }
    }
    return set;
}

void ManifestSet::add(std::vector<ManifestProvider> providers) {
    for (ManifestProvider &p : providers) {
        if (by_guid_.try_emplace(p.guid, providers_.size()).second) {
            providers_.push_back(std::move(p));
        }
    }
    // Pointers into providers_ change as it grows: index again.
    events_.clear();
    for (const ManifestProvider &p : providers_) {
        for (const ManifestEvent &e : p.events) {
            events_.try_emplace({p.guid, e.id, e.version}, &e);
        }
    }
}

const ManifestProvider *ManifestSet::provider(const Guid &guid) const {
    auto it = by_guid_.find(guid);
    return it == by_guid_.end() ? nullptr : &providers_[it->second];
}

const ManifestEvent *ManifestSet::latest(const Guid &guid, uint16_t id) const {
    // The last key at or before (guid, id, the greatest version).
    auto it = events_.upper_bound({guid, id, UINT8_MAX});
    if (it == events_.begin()) {
        return nullptr;
    }
    --it;
    return std::get<0>(it->first) == guid && std::get<1>(it->first) == id ? it->second : nullptr;
}

const ManifestEvent *ManifestSet::event(const Guid &guid, uint16_t id, uint8_t version) const {
    auto it = events_.find({guid, id, version});
    return it != events_.end() ? it->second : latest(guid, id);
}

} // namespace dtrace::etw::plugin
