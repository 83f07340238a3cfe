// preprocessor.h: -C, running the system C preprocessor over a D script.
//
// As DTrace does, the script is fed to cpp on its standard input (an
// interpreter line "#!..." is blanked first so that line numbers stay
// right), cpp's own diagnostics go to our standard error, and its output,
// with its line markers, is what the compiler reads.
#pragma once

#include "common/result.h"

#include <string>
#include <vector>

namespace dtrace::cli {

struct PreprocessorConfig {
    std::string path = "cpp";      // -xcpppath
    std::vector<std::string> args; // -D, -U, -I (already with their dash), -H
};

// The preprocessed text, or DTrace's message for what failed (EDT_CPPENT,
// EDT_CPPEXEC, EDT_CPPERR, EDT_CPPFORK).
Result<std::string> preprocess(const std::string &source, const PreprocessorConfig &config);

} // namespace dtrace::cli
