// file_names_ahead.cpp: the look-ahead reader of file names (see file_names_ahead.h).
#include "kernel/file_names_ahead.h"

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kFileName = 0;
constexpr uint8_t kFileCreateName = 32;
constexpr uint8_t kFileRundown = 36;
constexpr uint8_t kFileCreate = 64;

namespace field {
const MofFieldId FileObject{"FileObject"};
const MofFieldId FileName{"FileName"};
const MofFieldId OpenPath{"OpenPath"};
} // namespace field

} // namespace

std::optional<std::pair<uint64_t, std::string>> FileNamesAhead::naming(const Event &event, const MofRecord &record) {
    switch (event.opcode) {
    case kFileName:
    case kFileCreateName:
    case kFileRundown:
        return std::pair{record.u(field::FileObject), record.s(field::FileName)};
    case kFileCreate:
        return std::pair{record.u(field::FileObject), record.s(field::OpenPath)};
    default:
        return std::nullopt;
    }
}

bool FileNamesAhead::forget_before(uint64_t position) {
    bool forgot = false;
    for (auto it = names_.begin(); it != names_.end();) {
        std::deque<Name> &names = it->second;
        while (!names.empty() && names.front().position < position) {
            kept_bytes_ -= names.front().text.size();
            names.pop_front();
            forgot = true;
        }
        it = names.empty() ? names_.erase(it) : std::next(it);
    }
    return forgot;
}

bool FileNamesAhead::read_ahead(uint64_t file, uint64_t position) {
    if (!ahead_ && !ahead_done_) {
        Result<EtlReader> opened = open_();
        ahead_done_ = !opened;
        if (opened) {
            ahead_.emplace(std::move(opened.value()));
        }
    }
    Event event;
    while (!ahead_done_) {
        if (kept_bytes_ >= kMaxKeptBytes && !forget_before(position)) {
            ahead_done_ = true; // full of names still to come: name no further
            break;
        }
        if (!ahead_->next(event)) {
            ahead_done_ = true;
            break;
        }
        const uint64_t at = ahead_position_++;
        const int klass = kernel_class_of(event);
        if (at <= position || static_cast<KernelClass>(klass) != KernelClass::FileIo ||
            !decode_mof(event, klass, record_)) {
            continue;
        }
        if (std::optional<std::pair<uint64_t, std::string>> named = naming(event, record_)) {
            kept_bytes_ += named->second.size();
            names_[named->first].push_back({at, std::move(named->second)});
            if (named->first == file) {
                return true;
            }
        }
    }
    return false;
}

const std::string *FileNamesAhead::resolve(uint64_t file, uint64_t position) {
    auto it = names_.find(file);
    if (it != names_.end()) {
        std::deque<Name> &names = it->second;
        while (!names.empty() && names.front().position <= position) { // names the replay has passed
            kept_bytes_ -= names.front().text.size();
            names.pop_front();
        }
        if (!names.empty()) {
            return &names.front().text;
        }
    }
    if (!read_ahead(file, position)) {
        return nullptr;
    }
    return &names_[file].back().text;
}

} // namespace dtrace::etw::plugin::kernel
