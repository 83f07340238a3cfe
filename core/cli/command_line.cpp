// command_line.cpp: getopt-style parsing of dtrace's options.
#include "cli/command_line.h"

#include <algorithm>
#include <cstring>

namespace dtrace::cli {

namespace {

// Options that take an argument (getopt's "x:"); the rest are flags.
constexpr std::string_view kWithArgument = "bcDEfiILmnopPsUxXy";
constexpr std::string_view kFlags = "aAeCFGhHlqSvVwZB";

std::string program_name(const char *argv0) {
    const char *slash = std::strrchr(argv0, '/');
    return slash ? slash + 1 : argv0;
}

} // namespace

std::string usage_text(const std::string &name) {
    const std::string predact = "[[ predicate ] action ]";
    std::string s = "Usage: " + name +
                    " [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
                    "\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n"
                    "\t[-x opt[=val]] [-X a|c|s|t] [-E tracefile] [-y sympath]\n\n"
                    "\t[-P provider " +
                    predact + "]\n\t[-m [ provider: ] module " + predact + "]\n\t[-f [[ provider: ] module: ] func " +
                    predact + "]\n\t[-n [[[ provider: ] module: ] func: ] name " + predact + "]\n\t[-i probe-id " +
                    predact + "] [ args ... ]\n\n";
    s += "\tpredicate -> '/' D-expression '/'\n";
    s += "\t   action -> '{' D-statements '}'\n\n";
    s += "\t-a  claim anonymous tracing state (not supported)\n"
         "\t-A  generate anonymous tracing directives (not supported)\n"
         "\t-b  set the principal buffer size\n"
         "\t-c  run the given command and stop tracing when it exits\n"
         "\t-C  run the C preprocessor on script files\n"
         "\t-D  define a preprocessor symbol\n"
         "\t-e  compile the request, then exit without enabling probes\n"
         "\t-E  replay a recorded trace file instead of tracing live\n"
         "\t-f  enable or list probes by function name\n"
         "\t-F  indent output by function entry and return\n"
         "\t-G  generate an ELF object for a program's static probes (semaphores)\n"
         "\t-h  generate a header file with definitions for static probes\n"
         "\t-H  print the files the preprocessor includes\n"
         "\t-i  enable or list probes by probe id\n"
         "\t-I  add a preprocessor include directory\n"
         "\t-l  list the probes that match, without enabling them\n"
         "\t-L  add a D library directory\n"
         "\t-m  enable or list probes by module name\n"
         "\t-n  enable or list probes by probe name\n"
         "\t-o  write trace output to a file\n"
         "\t-p  trace the given process id\n"
         "\t-P  enable or list probes by provider name\n"
         "\t-q  quiet: print only what the program traces\n"
         "\t-s  enable or list probes from a D script\n"
         "\t-S  print the compiled DIF\n"
         "\t-U  undefine a preprocessor symbol\n"
         "\t-v  verbose: stability attributes and argument types\n"
         "\t-V  print the DTrace API version\n"
         "\t-w  allow destructive actions\n"
         "\t-x  set a compiler or tracing option\n"
         "\t-X  set the ISO C mode of the preprocessor\n"
         "\t-y  add a symbol search path\n"
         "\t-Z  allow probe descriptions that match no probes\n";
    return s;
}

ParseOutcome parse_command_line(int argc, char **argv) {
    ParseOutcome out;
    const std::string name = program_name(argc > 0 ? argv[0] : "dtrace");
    if (argc <= 1) {
        out.show_usage = true;
        out.status = 2;
        return out;
    }
    CommandLine cl;
    cl.macro_args.emplace_back(argv[0]);
    int modes = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0') {
            cl.macro_args.emplace_back(arg); // an operand: a macro argument
            continue;
        }
        if (std::strcmp(arg, "--version") == 0) {
            cl.mode = Mode::ProjectVersion;
            modes++;
            continue;
        }
        if (std::strcmp(arg, "--") == 0) {
            for (i++; i < argc; i++)
                cl.macro_args.emplace_back(argv[i]);
            break;
        }
        for (const char *p = arg + 1; *p; p++) {
            const char c = *p;
            if (c == '3' || c == '6') { // -32 / -64: data model; only LP64 exists here
                std::string rest = p + 1;
                if ((c == '3' && rest != "2") || (c == '6' && rest != "4")) {
                    out.error = name + ": illegal option -- " + std::string(1, c) + rest;
                    out.show_usage = true;
                    out.status = 2;
                    return out;
                }
                if (c == '3') {
                    out.error = name + ": -32 is not supported: this dtrace traces 64-bit programs only";
                    out.status = 2;
                    return out;
                }
                break;
            }
            if (kWithArgument.find(c) != std::string_view::npos) {
                std::string value;
                if (p[1] != '\0') {
                    value = p + 1;
                } else if (i + 1 < argc) {
                    value = argv[++i];
                } else {
                    out.error = name + ": option requires an argument -- " + std::string(1, c);
                    out.show_usage = true;
                    out.status = 2;
                    return out;
                }
                switch (c) {
                case 'b':
                    cl.options.push_back({"bufsize", value, "-b " + value});
                    break;
                case 'c':
                    cl.commands.push_back(value);
                    break;
                case 'D':
                    cl.options.push_back({"define", value, "-D " + value});
                    break;
                case 'E': {
                    // -E again adds a file to the session: one option, a path a line.
                    auto earlier = std::find_if(cl.options.begin(), cl.options.end(),
                                                [](const auto &option) { return option.name == "replay"; });
                    if (earlier == cl.options.end() || !earlier->value) {
                        cl.options.push_back({"replay", value, "-E " + value});
                    } else {
                        *earlier->value += '\n' + value;
                        earlier->given += " -E " + value;
                    }
                    break;
                }
                case 'f':
                    cl.programs.push_back({ProgramSource::Kind::Description, engine::SpecKind::Function, false, value});
                    break;
                case 'i':
                    cl.programs.push_back({ProgramSource::Kind::Description, engine::SpecKind::Name, true, value});
                    break;
                case 'I':
                    cl.options.push_back({"incdir", value, "-I " + value});
                    break;
                case 'L':
                    cl.options.push_back({"libdir", value, "-L " + value});
                    break;
                case 'm':
                    cl.programs.push_back({ProgramSource::Kind::Description, engine::SpecKind::Module, false, value});
                    break;
                case 'n':
                    cl.programs.push_back({ProgramSource::Kind::Description, engine::SpecKind::Name, false, value});
                    break;
                case 'o':
                    cl.output_file = value;
                    break;
                case 'p':
                    cl.pids.push_back(value);
                    break;
                case 'P':
                    cl.programs.push_back({ProgramSource::Kind::Description, engine::SpecKind::Provider, false, value});
                    break;
                case 's':
                    cl.programs.push_back({ProgramSource::Kind::File, engine::SpecKind::Name, false, value});
                    break;
                case 'U':
                    cl.options.push_back({"undef", value, "-U " + value});
                    break;
                case 'x': {
                    size_t eq = value.find('=');
                    if (eq == std::string::npos)
                        cl.options.push_back({value, std::nullopt, "-x " + value});
                    else
                        cl.options.push_back({value.substr(0, eq), value.substr(eq + 1), "-x " + value.substr(0, eq)});
                    break;
                }
                case 'X':
                    cl.options.push_back({"stdc", value, "-X " + value});
                    break;
                case 'y':
                    cl.symbol_paths.push_back(value);
                    break;
                }
                break; // the rest of this argv word was the option's value
            }
            if (kFlags.find(c) == std::string_view::npos) {
                out.error = name + ": illegal option -- " + std::string(1, c);
                out.show_usage = true;
                out.status = 2;
                return out;
            }
            switch (c) {
            case 'l':
                cl.mode = Mode::List;
                modes++;
                break;
            case 'V':
                cl.mode = Mode::Version;
                modes++;
                break;
            case 'G':
                cl.mode = Mode::Link;
                modes++;
                break;
            case 'h':
                cl.mode = Mode::Header;
                modes++;
                break;
            case 'A':
            case 'a':
                out.error =
                    name + ": -" + std::string(1, c) + " is not supported: anonymous tracing needs a kernel DTrace";
                out.status = 2;
                return out;
            case 'C':
                cl.cpp = true;
                break;
            case 'e':
                cl.compile_only = true;
                break;
            case 'F':
                cl.options.push_back({"flowindent", std::nullopt, "-F"});
                break;
            case 'H':
                cl.options.push_back({"cpphdrs", std::nullopt, "-H"});
                break;
            case 'q':
                cl.options.push_back({"quiet", std::nullopt, "-q"});
                break;
            case 'S':
                cl.print_dif = true;
                break;
            case 'v':
                cl.verbose++;
                break;
            case 'w':
                cl.options.push_back({"destructive", std::nullopt, "-w"});
                break;
            case 'Z':
                cl.zero_matches_ok = true;
                break;
            case 'B':
                out.error = name + ": -B is not supported";
                out.status = 2;
                return out;
            }
        }
    }
    if (modes > 1) {
        out.error = name + ": only one of the [-AGhlV] options can be specified at a time";
        out.status = 2;
        return out;
    }
    // Outside -l, DTrace's -v prints each program's stability report (the
    // least stable attributes of its descriptions and statements), which
    // needs D's attributes: not modelled here.
    if (cl.verbose > 0 && cl.mode == Mode::Exec) {
        out.error = name + ": -v is not supported without -l: the stability attributes of D programs are not modelled";
        out.status = 2;
        return out;
    }
    // -G's operands are the objects the build links, not macro arguments.
    if (cl.mode == Mode::Link)
        cl.options.push_back({"argref", std::nullopt, "-G"});
    out.command_line = std::move(cl);
    return out;
}

} // namespace dtrace::cli
