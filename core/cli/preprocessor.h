// preprocessor.h: -C, running the system C preprocessor over a D script.
//
// As DTrace does, the script is fed to cpp on its standard input (an
// interpreter line "#!..." is blanked first so that line numbers stay
// right), cpp's own diagnostics go to our standard error, and its output,
// with its line markers, is what the compiler reads.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dtrace::cli {

struct PreprocessorConfig {
    std::string path = "cpp";      // -xcpppath
    std::vector<std::string> args; // -D, -U, -I (already with their dash), -H
};

// The preprocessed text, or nothing with `error` set to DTrace's message
// (EDT_CPPENT, EDT_CPPEXEC, EDT_CPPERR, EDT_CPPFORK).
std::optional<std::string> preprocess(const std::string &source, const PreprocessorConfig &config, std::string &error);

} // namespace dtrace::cli
