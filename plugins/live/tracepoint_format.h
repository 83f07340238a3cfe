// tracepoint_format.h: a tracepoint's `format` file, parsed.
//
// tracefs describes each event's record as lines such as
//     field:const char * filename;	offset:24;	size:8;	signed:0;
// after a `name:` and an `ID:` line. The live plugins type probe arguments
// from these fields (the syscall provider's args[1] is `const char *`).
// The parser takes untrusted text (it is fuzzed): anything it cannot read
// is an error naming the line, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "result.h"

namespace dtrace::live {

struct TracepointField {
    std::string type; // C type as the kernel wrote it, e.g. "const char *"
    std::string name; // e.g. "filename"; an array's [N] stays in `type`
    uint32_t offset = 0;
    uint32_t size = 0;
    bool is_signed = false;
    bool common = false; // the common_* header fields every event starts with
};

struct TracepointFormat {
    std::string name;
    uint32_t id = 0;
    std::vector<TracepointField> fields;

    // The fields after the common header, in record order.
    std::vector<const TracepointField *> event_fields() const;
};

Result<TracepointFormat> parse_tracepoint_format(std::string_view text);

} // namespace dtrace::live
