// usdt_header.cpp: the text of dtrace -h's header (see usdt_header.h).
#include "cli/usdt_header.h"

#include <cctype>

namespace dtrace::cli {

namespace {

// Emits one probe site: a nop, and its note in .note.stapsdt (name "stapsdt",
// type 3): the nop's address, the address of `.stapsdt.base` (so that a
// reader can tell how far a prelinked file moved), the semaphore's address,
// then the provider, the probe name and the argument specs as strings. The
// section is "?" (the group of the code around it, so a note goes away with
// its function's COMDAT group); `.stapsdt.base` is one byte defined once per
// object. The operands list comes parenthesised so that a probe without
// arguments passes none.
constexpr const char *kProbeSiteMacro =
    "#ifndef\t__DTRACE_USDT_SITE\n"
    "#define\t__DTRACE_USDT_OPERANDS(...) __VA_ARGS__\n"
    "#define\t__DTRACE_USDT_SITE(provider, name, semaphore, argspec, operands) \\\n"
    "\t__asm__ __volatile__(\"990:\\tnop\\n\" \\\n"
    "\t    \"\\t.pushsection .note.stapsdt,\\\"?\\\",\\\"note\\\"\\n\" \\\n"
    "\t    \"\\t.balign 4\\n\" \\\n"
    "\t    \"\\t.4byte 992f-991f, 994f-993f, 3\\n\" \\\n"
    "\t    \"991:\\t.asciz \\\"stapsdt\\\"\\n\" \\\n"
    "\t    \"992:\\t.balign 4\\n\" \\\n"
    "\t    \"993:\\t.8byte 990b\\n\" \\\n"
    "\t    \"\\t.8byte _.stapsdt.base\\n\" \\\n"
    "\t    \"\\t.8byte \" #semaphore \"\\n\" \\\n"
    "\t    \"\\t.asciz \\\"\" #provider \"\\\"\\n\" \\\n"
    "\t    \"\\t.asciz \\\"\" #name \"\\\"\\n\" \\\n"
    "\t    \"\\t.asciz \\\"\" argspec \"\\\"\\n\" \\\n"
    "\t    \"994:\\t.balign 4\\n\" \\\n"
    "\t    \"\\t.popsection\\n\" \\\n"
    "\t    \"\\t.ifndef _.stapsdt.base\\n\" \\\n"
    "\t    \"\\t.pushsection .stapsdt.base,\\\"aG\\\",\\\"progbits\\\",.stapsdt.base,comdat\\n\" \\\n"
    "\t    \"\\t.weak _.stapsdt.base\\n\" \\\n"
    "\t    \"\\t.hidden _.stapsdt.base\\n\" \\\n"
    "\t    \"_.stapsdt.base:\\t.space 1\\n\" \\\n"
    "\t    \"\\t.size _.stapsdt.base, 1\\n\" \\\n"
    "\t    \"\\t.popsection\\n\" \\\n"
    "\t    \"\\t.endif\\n\" \\\n"
    "\t    :: __DTRACE_USDT_OPERANDS operands)\n"
    "#endif\n\n";

// DTrace's dt_header_fmt_macro(): lower case to upper, '-' and '.' to '_'.
std::string macro_name(const std::string &name) {
    std::string out;
    for (char c : name)
        out += (c == '-' || c == '.') ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// The C type an argument is converted to at the probe site: one of its size
// and signedness, so that the compiler names the register or constant at
// that size, and the note's "-4@" says what was passed. Pointers go as
// 64-bit addresses.
std::string site_type(const compiler::ProbeArgument &arg) {
    if (arg.is_pointer)
        return "unsigned long long";
    const char *base = arg.size == 1 ? "char" : arg.size == 2 ? "short" : arg.size == 4 ? "int" : "long long";
    return std::string(arg.is_signed ? "signed " : "unsigned ") + base;
}

std::string argument_list(size_t count) {
    std::string out;
    for (size_t i = 0; i < count; ++i)
        out += (i ? ", arg" : "arg") + std::to_string(i);
    return out;
}

Status check_arguments(const std::string &provider, const compiler::ProviderInterface::Probe &probe) {
    const std::string where = "probe " + provider + ":" + probe.name;
    if (probe.args.size() > kMaxUsdtArguments)
        return Failure{where + " has " + std::to_string(probe.args.size()) +
                       " arguments: a USDT probe carries at most " + std::to_string(kMaxUsdtArguments)};
    for (size_t i = 0; i < probe.args.size(); ++i) {
        const compiler::ProbeArgument &arg = probe.args[i];
        const bool sized = arg.size == 1 || arg.size == 2 || arg.size == 4 || arg.size == 8;
        if (!arg.is_scalar || !sized)
            return Failure{where + " argument #" + std::to_string(i + 1) + " is of type " + arg.type_name +
                           ": a USDT probe argument must be an integer or a pointer"};
    }
    return {};
}

void append_probe_macros(std::string &out, const std::string &provider,
                         const compiler::ProviderInterface::Probe &probe) {
    const std::string name = macro_name(provider) + "_" + macro_name(probe.name);
    const std::string semaphore = usdt_semaphore_symbol(provider, probe.written);
    std::string argspec, operands;
    for (size_t i = 0; i < probe.args.size(); ++i) {
        const compiler::ProbeArgument &arg = probe.args[i];
        const std::string index = std::to_string(i);
        argspec +=
            (i ? " " : "") + std::string(arg.is_signed ? "-" : "") + std::to_string(arg.size) + "@%[a" + index + "]";
        std::string value = "(arg" + index + ")";
        if (arg.is_pointer)
            value = "(__UINTPTR_TYPE__)" + value;
        operands += (i ? ", [a" : "[a") + index + "] \"nr\" ((" + site_type(arg) + ")" + value + ")";
    }
    out += "#define\t" + name + "(" + argument_list(probe.args.size()) + ") \\\n";
    out += "\t__DTRACE_USDT_SITE(" + provider + ", " + probe.written + ", " + semaphore + ", \\\n";
    out += "\t    \"" + argspec + "\", (" + operands + "))\n";
    out += "#define\t" + name + "_ENABLED() \\\n";
    out += "\t__builtin_expect(" + semaphore + " != 0, 0)\n";
}

} // namespace

std::string usdt_semaphore_symbol(const std::string &provider, const std::string &written_probe) {
    return provider + "_" + written_probe + "_semaphore";
}

Result<std::string> make_usdt_header(const std::vector<compiler::ProviderInterface> &providers,
                                     const std::string &file_name) {
    const std::string guard = "_" + macro_name(file_name);
    std::string out = "/*\n * Generated by dtrace(1M).\n */\n\n";
    out += "#ifndef\t" + guard + "\n#define\t" + guard + "\n\n";
    out += "#include <unistd.h>\n\n";
    out += "#ifdef\t__cplusplus\nextern \"C\" {\n#endif\n\n";
    out += "#ifndef\t_DTRACE_VERSION\n#define\t_DTRACE_VERSION 1\n#endif\n\n";
    out += "#if _DTRACE_VERSION\n\n";
    out += kProbeSiteMacro;
    std::string disabled;
    for (const compiler::ProviderInterface &provider : providers) {
        for (const compiler::ProviderInterface::Probe &probe : provider.probes) {
            if (Status checked = check_arguments(provider.name, probe); !checked)
                return Failure{checked.reason()};
            append_probe_macros(out, provider.name, probe);
            const std::string name = macro_name(provider.name) + "_" + macro_name(probe.name);
            disabled += "#define\t" + name + "(" + argument_list(probe.args.size()) + ")\n";
            disabled += "#define\t" + name + "_ENABLED() (0)\n";
        }
        out += "\n";
        for (const compiler::ProviderInterface::Probe &probe : provider.probes)
            out += "extern volatile unsigned short " + usdt_semaphore_symbol(provider.name, probe.written) +
                   " __attribute__((visibility(\"hidden\")));\n";
        out += "\n";
    }
    out += "#else\n\n" + disabled + "\n#endif\n\n";
    out += "#ifdef\t__cplusplus\n}\n#endif\n\n";
    out += "#endif\t/* " + guard + " */\n";
    return out;
}

} // namespace dtrace::cli
