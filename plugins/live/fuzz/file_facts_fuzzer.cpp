// file_facts_fuzzer.cpp: libFuzzer target over fds[]'s parsers of /proc
// text (fdinfo, mountinfo) and the link a descriptor reads as: any input
// parses to something or nothing, never crashes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "file_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    using namespace dtrace::live;
    const std::optional<FdInfo> info = parse_fdinfo(text);
    const Mounts mounts = parse_mountinfo(text);
    const auto mount = mounts.find(info ? info->mnt_id : -1);
    const FileFacts f = describe_file(text, info.value_or(FdInfo{}), mount == mounts.end() ? nullptr : &mount->second);
    if (!text.empty() && text.front() == '/' && f.name.empty())
        __builtin_trap(); // a path always has a name
    return 0;
}
