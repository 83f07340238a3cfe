// preprocessor.cpp: running cpp for -C (DTrace's dt_preproc).
#include "cli/preprocessor.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dtrace::cli {

namespace {

// The D version cpp sees as __SUNW_D_VERSION: 1.13, as DT_VERSION_NUMBER
// encodes it (major << 24 | minor << 12 | micro).
constexpr const char *kVersionDefine = "-D__SUNW_D_VERSION=0x0100d000";

// The exit statuses of the child when exec fails, as dt_preproc uses them.
constexpr int kExecNotFound = 127;
constexpr int kExecFailed = 126;
constexpr size_t kReadChunk = 64 * 1024; // bytes read from cpp's output at a time

// cpp cannot read "#!": the first line is emptied, its newline kept.
std::string without_interpreter_line(const std::string &source) {
    if (source.compare(0, 2, "#!") != 0)
        return source;
    size_t newline = source.find('\n');
    return newline == std::string::npos ? std::string() : source.substr(newline);
}

// An unlinked temporary file holding `text`, positioned at its start.
int temporary_file_with(const std::string &text) {
    char name[] = "/tmp/dtrace-cpp-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return -1;
    unlink(name);
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += size_t(n);
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

std::string read_all(int fd) {
    std::string text;
    char buffer[kReadChunk];
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return text;
        text.append(buffer, size_t(n));
    }
}

} // namespace

Result<std::string> preprocess(const std::string &source, const PreprocessorConfig &config) {
    int in = temporary_file_with(without_interpreter_line(source));
    int out = temporary_file_with("");
    if (in < 0 || out < 0) {
        Failure failure{std::string("failed to create the preprocessor's files: ") + std::strerror(errno)};
        if (in >= 0)
            close(in);
        if (out >= 0)
            close(out);
        return failure;
    }
    std::vector<std::string> words = {config.path, "-D__SUNW_D=1", kVersionDefine};
    words.insert(words.end(), config.args.begin(), config.args.end());
    std::vector<char *> argv;
    for (std::string &w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);

    std::fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in, 0);
        dup2(out, 1);
        execvp(argv[0], argv.data());
        _exit(errno == ENOENT ? kExecNotFound : kExecFailed);
    }
    close(in);
    int status = 0;
    if (pid < 0) {
        close(out);
        return Failure{"Failed to fork preprocessor"};
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::string text = read_all(out);
    close(out);
    const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    switch (exit_status) {
    case 0:
        return text;
    case kExecFailed:
        return Failure{"Failed to exec preprocessor"};
    case kExecNotFound:
        return Failure{"Preprocessor not found"};
    default:
        return Failure{"Preprocessor failed to process input program"};
    }
}

} // namespace dtrace::cli
