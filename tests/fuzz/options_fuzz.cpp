// options_fuzz.cpp: libFuzzer entry point for dtrace's command line, the
// option table and the sizing of buffers against the machine.
//
// The input is a command line, one argument per line. It is parsed as
// dtrace(1) parses argv; each option it sets goes through the option table
// (as the session applies -x, -b, -q ...), then the sizes are checked
// against a machine of 1 GB with a varying number of CPUs, as when tracing
// starts. Nothing may crash or throw, and sizing must leave every size
// option within what the machine was said to have, no buffer below END's
// reserve, and the status rate within the kernel's bound.
//
// Build with -DDTRACE_BUILD_FUZZERS=ON and clang, then e.g.
//   options_fuzzer -max_total_time=600 corpus/ ${PROJECT_SOURCE_DIR}/tests/fuzz/options_corpus
#include "cli/command_line.h"
#include "engine/options.h"
#include "engine/resource_sizing.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace dtrace;

constexpr uint64_t kMachineBytes = uint64_t(1) << 30;
constexpr size_t kMaxArguments = 64;
constexpr uint64_t kReservePerByte = 64;
constexpr int64_t kSlowestStatusRate = 10'000'000'000; // 10 s, dtrace_statusrate_max

std::vector<std::string> lines_of(const uint8_t *data, size_t size) {
    std::vector<std::string> lines(1, "dtrace");
    std::string current;
    for (size_t i = 0; i < size && lines.size() < kMaxArguments; i++) {
        if (data[i] == '\n') {
            lines.push_back(current);
            current.clear();
        } else {
            current.push_back(static_cast<char>(data[i]));
        }
    }
    if (!current.empty())
        lines.push_back(current);
    return lines;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::vector<std::string> args = lines_of(data, size);
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    cli::ParseOutcome parsed = cli::parse_command_line(static_cast<int>(args.size()), argv.data());
    if (!parsed.command_line)
        return 0;
    engine::Options options;
    for (const cli::OptionArg &option : parsed.command_line->options) {
        (void)options.set(option.name, option.value);
        (void)options.set_while_tracing(option.name, option.value.value_or(""));
    }
    const uint32_t cpus = 1 + (size % 8);
    // Under bufpolicy=fill, END's records take a reserve that every buffer must hold.
    const uint64_t end_reserve = (size & 4) != 0 ? uint64_t(size) * kReservePerByte : 0;
    engine::SizingOutcome sized =
        engine::size_for_machine(options, {cpus, (size & 1) != 0, (size & 2) != 0, end_reserve}, kMachineBytes);
    if (sized.refusal)
        return 0;
    for (const char *option : {"bufsize", "dynvarsize"}) {
        if (uint64_t(options.number(option)) > kMachineBytes)
            std::abort(); // sizing let a size through that the machine cannot hold
    }
    const int64_t bufsize = options.number("bufsize");
    if (bufsize != 0 && uint64_t(bufsize) < end_reserve)
        std::abort(); // a buffer smaller than END's reserve was let through
    if (options.number("statusrate") > kSlowestStatusRate)
        std::abort(); // the status rate was left beyond the kernel's bound
    return 0;
}
