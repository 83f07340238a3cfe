// replay_source.h: opening the trace files that -E names.
//
// The files are opened twice: once by init() to learn what they hold, once
// by the replay thread (the reader streams forward only), and again by the
// stack keys' reader. All go through here so that the user reads one kind
// of message whichever open fails. A file that does not exist gets a hint:
// the Windows ports record live ETW when -E names a new file, which cannot
// happen on this system.
//
// Several files make one session: each -E adds a file (the option's value
// holds one path a line), and an archive holding several .etl files (a
// diagsession) adds each of them; their events are merged in timestamp order
// (reader/merged_stream.h).
#pragma once

#include <string>
#include <vector>

#include "reader/etl_reader.h"
#include "reader/result.h"

namespace dtrace::etw::plugin {

// The -x option that -E sets.
inline constexpr const char *kReplayOption = "replay";

// The paths the option's value names (one a line: -E given several times).
std::vector<std::string> replay_paths(const std::string &option_value);

// The paths as messages name the session: "a.etl + b.etl".
std::string session_name(const std::vector<std::string> &paths);

// The reader over the files, or a message naming the file and the reason.
Result<EtlReader> open_replay(const std::vector<std::string> &paths);

} // namespace dtrace::etw::plugin
