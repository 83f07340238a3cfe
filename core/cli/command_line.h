// command_line.h: dtrace(1)'s command line, parsed.
//
// DTrace reads its arguments the way getopt(3) does, except that operands
// may be interleaved with options: every operand becomes a macro argument
// ($1, $2 ...) and option processing resumes after it. Options that set
// -x values are kept in order so that later ones override earlier ones.
#pragma once

#include "engine/probe_match.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dtrace::cli {

// Version: -V; ProjectVersion: --version; Header: -h; Link: -G.
enum class Mode { Exec, List, Version, ProjectVersion, Header, Link };

// One program source: -s file, or a probe description with -P -m -f -n -i.
struct ProgramSource {
    enum class Kind { File, Description };
    Kind kind;
    engine::SpecKind spec = engine::SpecKind::Name; // for descriptions
    bool by_id = false;                             // -i
    std::string text;
};

// An option set on the command line: by -x name[=value] or by a flag that
// maps to one (-b, -D, -q ...). `given` is how dtrace names it when it
// fails: "-x name" or the flag with its argument ("-b 4m").
struct OptionArg {
    std::string name;
    std::optional<std::string> value;
    std::string given;
};

struct CommandLine {
    Mode mode = Mode::Exec;
    std::vector<ProgramSource> programs;
    std::vector<OptionArg> options;      // -x and the flags that map to options
    std::vector<std::string> macro_args; // [0] is argv[0]
    std::vector<std::string> commands;   // -c
    std::vector<std::string> pids;       // -p
    std::optional<std::string> output_file;
    std::vector<std::string> symbol_paths; // -y
    int verbose = 0;
    bool compile_only = false; // -e
    bool print_dif = false;    // -S
    bool zero_matches_ok = false;
    bool cpp = false; // -C
};

struct ParseOutcome {
    std::optional<CommandLine> command_line;
    // When parsing failed: the message to print (may be empty: usage only),
    // whether to print the usage text, and the exit status.
    std::string error;
    bool show_usage = false;
    int status = 0;
};

ParseOutcome parse_command_line(int argc, char **argv);

// The usage text (printed on stderr for usage errors, exit status 2).
std::string usage_text(const std::string &program_name);

} // namespace dtrace::cli
