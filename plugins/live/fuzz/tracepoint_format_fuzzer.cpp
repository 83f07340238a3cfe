// tracepoint_format_fuzzer.cpp: libFuzzer target over the tracefs `format`
// parser, which reads text a kernel (or anything mounted there) supplies:
// any input parses or is refused, never crashes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tracepoint_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string_view text(reinterpret_cast<const char *>(data), size);
    dtrace::live::Result<dtrace::live::TracepointFormat> format = dtrace::live::parse_tracepoint_format(text);
    if (format) {
        for (const dtrace::live::TracepointField *f : format.value().event_fields())
            (void)f->name.size();
    }
    return 0;
}
