// output_control.cpp: freopen(), ftruncate() and system() (see output_control.h).
#include "session/output_control.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace dtrace::session {

OutputControl::~OutputControl() {
    if (current_ != original_)
        std::fclose(current_);
}

std::optional<std::string> OutputControl::reopen(const std::string &path) {
    std::fflush(current_);
    if (path.empty()) {
        if (current_ != original_)
            std::fclose(current_);
        current_ = original_;
        return std::nullopt;
    }
    FILE *next = std::fopen(path.c_str(), "a");
    if (!next)
        return "couldn't freopen() \"" + path + "\": " + std::strerror(errno);
    if (current_ != original_)
        std::fclose(current_);
    current_ = next;
    return std::nullopt;
}

void OutputControl::truncate() {
    std::fflush(current_);
    if (ftruncate(fileno(current_), 0) == 0)
        std::fseek(current_, 0, SEEK_SET);
}

void OutputControl::run(const std::string &command) {
    std::fflush(current_);
    std::fflush(stdout);
    int status = std::system(command.c_str());
    (void)status; // the command's own exit status is not dtrace's concern, as in DTrace
}

} // namespace dtrace::session
