// usdt_output.cpp: dtrace -h / -G's output file (see usdt_output.h).
#include "cli/usdt_output.h"

#include "cli/usdt_header.h"
#include "cli/usdt_object.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dtrace::cli {

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

std::string base_name(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool ends_with_d(const std::string &path) {
    return path.size() > 2 && path.compare(path.size() - 2, 2, ".d") == 0;
}

// The first definition of each provider, in the order the programs define them.
std::vector<compiler::ProviderInterface> providers_of(const std::vector<const compiler::Program *> &programs) {
    std::vector<compiler::ProviderInterface> out;
    for (const compiler::Program *program : programs)
        for (const compiler::ProviderInterface &provider : program->providers) {
            bool known = false;
            for (const compiler::ProviderInterface &p : out)
                known = known || p.name == provider.name;
            if (!known)
                out.push_back(provider);
        }
    return out;
}

bool write_file(const std::string &path, const void *bytes, size_t size, std::string &why) {
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) {
        why = std::strerror(errno);
        return false;
    }
    const bool written = std::fwrite(bytes, 1, size, f) == size;
    const int saved = errno;
    if (std::fclose(f) != 0 || !written) {
        why = std::strerror(written ? errno : saved);
        return false;
    }
    return true;
}

} // namespace

int write_usdt_output(const CommandLine &cl, const std::vector<const compiler::Program *> &programs,
                      const std::string &program_name) {
    const bool header = cl.mode == Mode::Header;
    const std::string flag = header ? "-h" : "-G";
    auto fail = [&](const std::string &message, int status) {
        std::fprintf(stderr, "%s: %s\n", program_name.c_str(), message.c_str());
        return status;
    };
    if (cl.programs.empty())
        return fail(flag + " requires one or more scripts or enabling options", kExitUsage);
    std::string path;
    if (cl.output_file) {
        path = *cl.output_file;
    } else if (cl.programs.size() > 1) {
        return fail(flag + " requires an output file if multiple scripts are specified", kExitUsage);
    } else if (cl.programs[0].kind != ProgramSource::Kind::File || !ends_with_d(cl.programs[0].text)) {
        return fail(flag + " requires an output file if no scripts are specified", kExitUsage);
    } else {
        const std::string script = base_name(cl.programs[0].text);
        path = script.substr(0, script.size() - 2) + (header ? ".h" : ".o");
    }
    const std::vector<compiler::ProviderInterface> providers = providers_of(programs);
    std::string why;
    if (header) {
        Result<std::string> text = make_usdt_header(providers, base_name(path));
        if (!text)
            return fail("failed to create header file " + path + ": " + text.reason(), kExitError);
        if (!write_file(path, text.value().data(), text.value().size(), why))
            return fail("failed to open header file '" + path + "': " + why, kExitError);
        return 0;
    }
    const std::string script =
        cl.programs[0].kind == ProgramSource::Kind::File ? cl.programs[0].text : "(command line)";
    // The operands after the options: the objects the build links.
    const std::vector<std::string> objects(cl.macro_args.begin() + (cl.macro_args.empty() ? 0 : 1),
                                           cl.macro_args.end());
    if (Status checked = check_link_objects(objects); !checked)
        return fail("failed to link script " + script + ": " + checked.reason(), kExitError);
    const std::vector<uint8_t> object = make_usdt_object(providers);
    if (!write_file(path, object.data(), object.size(), why))
        return fail("failed to link script " + script + ": failed to write " + path + ": " + why, kExitError);
    return 0;
}

} // namespace dtrace::cli
