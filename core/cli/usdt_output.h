// usdt_output.h: dtrace -h and -G once the scripts have compiled: which
// file to write (DTrace's rules for a missing -o), the header or object of
// usdt_header.h / usdt_object.h, and DTrace's messages when that fails.
#pragma once

#include "cli/command_line.h"
#include "compiler/program.h"

#include <string>
#include <vector>

namespace dtrace::cli {

// Writes the header (Mode::Header) or the object (Mode::Link) for the
// providers the programs define; returns dtrace's exit status.
int write_usdt_output(const CommandLine &cl, const std::vector<const compiler::Program *> &programs,
                      const std::string &program_name);

} // namespace dtrace::cli
