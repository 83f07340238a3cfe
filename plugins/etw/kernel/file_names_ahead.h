// file_names_ahead.h: file names that the trace gives later, read ahead.
//
// Disk and file I/O events name their file by a FileObject (or FileKey);
// the FileIo events that name it (Name, FileCreate, Rundown, Create) may
// come anywhere in the file, the Rundown ones at its end. KernelState names
// a file from those seen so far; for a file not yet named, FileNamesAhead
// reads on in a second reader of the session (both see the events in the
// same order, so an event's position is its index in that order) until the
// first event after the asking event's position names it, keeping the
// names it passes for the questions to come, as StackKeys does for stack
// keys (stack_keys.h). Memory stays bounded: when the names kept reach
// kMaxKeptBytes, those the replay has passed go, and if that is not enough
// the look-ahead stops there. Nothing is read ahead until a probe asks for
// a file no event has named yet.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

#include "kernel/mof_classes.h"
#include "stack_keys.h"

namespace dtrace::etw::plugin::kernel {

class FileNamesAhead {
  public:
    static constexpr size_t kMaxKeptBytes = size_t{64} << 20;

    // open makes the look-ahead reader, when the first name is asked for.
    explicit FileNamesAhead(StackKeys::Opener open) : open_(std::move(open)) {}

    // The name the trace gives file at the first naming event after
    // position; nullptr when it gives none.
    const std::string *resolve(uint64_t file, uint64_t position);

    // The file a FileIo event names and the name it gives, if it names one.
    static std::optional<std::pair<uint64_t, std::string>> naming(const Event &event, const MofRecord &record);

  private:
    struct Name {
        uint64_t position = 0;
        std::string text;
    };

    // Reads on until file is named after position; false at the end.
    bool read_ahead(uint64_t file, uint64_t position);
    // Forgets the names before position; false if none was.
    bool forget_before(uint64_t position);

    StackKeys::Opener open_;
    std::optional<EtlReader> ahead_;
    bool ahead_done_ = false;     // at the end, or could not open
    uint64_t ahead_position_ = 0; // events the look-ahead reader has read
    std::unordered_map<uint64_t, std::deque<Name>> names_;
    size_t kept_bytes_ = 0;
    MofRecord record_;
};

} // namespace dtrace::etw::plugin::kernel
