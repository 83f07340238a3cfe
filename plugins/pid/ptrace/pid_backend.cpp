// pid_backend.cpp: reading -x pidbackend, and the fallback's notice.
#include "pid_backend.h"

#include <string_view>

namespace dtrace::pid::ptrace_backend {

live::Result<BackendMode> backend_mode(dtrace_host *host, const dtrace_host_ops *ops) {
    const char *mode = ops->get_option(host, kBackendOption);
    const std::string_view text = mode == nullptr ? "auto" : mode;
    if (text == "auto")
        return BackendMode::Auto;
    if (text == "uprobe")
        return BackendMode::Uprobe;
    if (text == "ptrace")
        return BackendMode::Ptrace;
    return live::Error{std::string(kBackendOption) + " must be auto, uprobe or ptrace, not \"" + std::string(text) +
                       "\""};
}

std::string fallback_notice(const std::string &why) {
    return "pid probes use ptrace breakpoints because uprobes are not available (" + why +
           "): each hit stops the traced thread, microseconds per hit";
}

} // namespace dtrace::pid::ptrace_backend
