// probe_sink.cpp: the default handling of a plugin's messages.
#include "probe_sink.h"

#include <cstdio>

namespace dtrace::host {

void ProbeSink::report_error(std::string_view plugin, std::string_view message) {
    std::fprintf(stderr, "dtrace: %.*s: %.*s\n", static_cast<int>(plugin.size()), plugin.data(),
                 static_cast<int>(message.size()), message.data());
}

} // namespace dtrace::host
