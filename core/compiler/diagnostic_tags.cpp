// diagnostic_tags.cpp: the names of the tags of diagnostic_tags.h.
#include "compiler/diagnostic_tags.h"

#include <iterator>

namespace dtrace::compiler {

namespace {
constexpr std::string_view kNames[] = {"",
#define DTRACE_TAG_NAME(name) #name,
                                       DTRACE_D_TAGS(DTRACE_TAG_NAME)
#undef DTRACE_TAG_NAME
};
} // namespace

std::string_view tag_name(Tag tag) {
    const auto index = static_cast<size_t>(tag);
    return index < std::size(kNames) ? kNames[index] : std::string_view();
}

} // namespace dtrace::compiler
