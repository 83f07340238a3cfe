// byte_cursor.cpp: the string reads of ByteCursor (see byte_cursor.h).
#include "nettrace/byte_cursor.h"

#include "reader/utf16.h"

namespace dtrace::etw::nettrace {

std::string ByteCursor::utf16z() {
    Utf16String text = read_utf16z(rest());
    if (!text.terminated) {
        fail();
        return {};
    }
    skip(text.bytes);
    return std::move(text.utf8);
}

std::string ByteCursor::utf8_counted() {
    const uint32_t length = varuint32();
    std::span<const uint8_t> text = bytes(length);
    return std::string(text.begin(), text.end());
}

} // namespace dtrace::etw::nettrace
