// buffer_policy.cpp: parsing -x bufpolicy (see buffer_policy.h).
#include "engine/buffer_policy.h"

namespace dtrace::engine {

std::optional<BufferPolicy> parse_buffer_policy(std::string_view text) {
    if (text == "switch")
        return BufferPolicy::Switch;
    if (text == "fill")
        return BufferPolicy::Fill;
    if (text == "ring")
        return BufferPolicy::Ring;
    return std::nullopt;
}

} // namespace dtrace::engine
