// file_names_ahead.h: file names that the trace gives later, read ahead.
//
// Disk and file I/O events name their file by a FileObject (or FileKey);
// the FileIo events that name it (Name, FileCreate, Rundown, Create) may
// come anywhere in the file, the Rundown ones at its end. KernelState names
// a file from those seen so far; for a file not yet named, FileNamesAhead
// finds the first event after the asking one that names it, with a
// KeyedLookAhead (keyed_look_ahead.h) that keeps at most kMaxKeptBytes of
// names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kernel/mof_classes.h"
#include "keyed_look_ahead.h"

namespace dtrace::etw::plugin::kernel {

class FileNamesAhead {
  public:
    static constexpr size_t kMaxKeptBytes = size_t{64} << 20;

    // open makes the look-ahead reader, when the first name is asked for.
    explicit FileNamesAhead(ReaderOpener open);

    // The name the trace gives file at the first naming event after
    // position; nullptr when it gives none.
    const std::string *resolve(uint64_t file, uint64_t position) { return ahead_.resolve(file, position); }

    // The file a FileIo event names and the name it gives, if it names one.
    static std::optional<std::pair<uint64_t, std::string>> naming(const Event &event, const MofRecord &record);

  private:
    KeyedLookAhead<std::string> ahead_;
};

} // namespace dtrace::etw::plugin::kernel
