// output_control.h: the consumer's side of freopen(), ftruncate() and system().
//
// As in DTrace these act when the consumer reads their records, in record
// order with the rest of the output: freopen(path) sends the output that
// follows to `path` (appending; "" goes back to the original output),
// ftruncate() empties the current output file, and system(command) runs
// the command through the shell once everything printed so far is flushed
// (the command writes to dtrace's own standard output, not to -o's file).
#pragma once

#include <cstdio>
#include <optional>
#include <string>

namespace dtrace::session {

class OutputControl {
  public:
    explicit OutputControl(FILE *original) : original_(original), current_(original) {}
    ~OutputControl();
    OutputControl(const OutputControl &) = delete;
    OutputControl &operator=(const OutputControl &) = delete;

    FILE *stream() const { return current_; }
    // nullopt on success, else DTrace's reason ("couldn't freopen() ...").
    std::optional<std::string> reopen(const std::string &path);
    void truncate();
    void run(const std::string &command);

  private:
    FILE *original_;
    FILE *current_;
};

} // namespace dtrace::session
