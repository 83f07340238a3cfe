// main.cpp: the dtrace command.
#include "cli/command_line.h"
#include "cli/session.h"

#include <cstdio>
#include <cstring>
#include <new>

int main(int argc, char **argv) {
    using namespace dtrace::cli;
    const char *slash = argc > 0 ? std::strrchr(argv[0], '/') : nullptr;
    std::string name = slash ? slash + 1 : (argc > 0 ? argv[0] : "dtrace");
    ParseOutcome parsed = parse_command_line(argc, argv);
    if (!parsed.command_line) {
        if (!parsed.error.empty())
            std::fprintf(stderr, "%s\n", parsed.error.c_str());
        if (parsed.show_usage)
            std::fputs(usage_text(name).c_str(), stderr);
        return parsed.status;
    }
    // Sizes are checked before they are used (engine/resource_sizing.h); an
    // allocation that fails all the same ends the run with a message, not an abort.
    try {
        Session session(std::move(*parsed.command_line), name);
        return session.run();
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "%s: Memory allocation failure\n", name.c_str());
        return 1;
    }
}
