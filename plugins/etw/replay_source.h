// replay_source.h: opening the trace file that -E names.
//
// The file is opened twice: once by init() to learn what it holds, once by
// the replay thread (the reader streams forward only). Both go through here
// so that the user reads one kind of message whichever open fails. A file
// that does not exist gets a hint: the Windows ports record live ETW when
// -E names a new file, which cannot happen on this system.
#pragma once

#include <string>

#include "reader/etl_reader.h"
#include "reader/result.h"

namespace dtrace::etw::plugin {

// The -x option that -E sets.
inline constexpr const char *kReplayOption = "replay";

// The reader over path, or a message naming the file and the reason.
Result<EtlReader> open_replay(const std::string &path);

} // namespace dtrace::etw::plugin
