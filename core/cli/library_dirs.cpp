// library_dirs.cpp: see library_dirs.h.
#include "cli/library_dirs.h"

#include "cli/source_file.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>

namespace dtrace::cli {

namespace {

namespace fs = std::filesystem;

struct LibraryFile {
    std::string path;
    std::string text;
    std::vector<std::string> depends_on; // file names, in the order written
};

// The text with its comments and string literals blanked (newlines kept),
// so that only real control lines are read as pragmas.
std::string code_only(const std::string &text) {
    std::string code = text;
    enum class In { Code, Comment, Quote } in = In::Code;
    char quote = 0;
    for (size_t i = 0; i < code.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        switch (in) {
        case In::Code:
            if (c == '/' && next == '*') { // D has no // comments
                in = In::Comment;
                code[i] = code[i + 1] = ' ';
                ++i;
            } else if (c == '"' || c == '\'') {
                in = In::Quote;
                quote = c;
            }
            continue;
        case In::Comment:
            if (c == '*' && next == '/') {
                in = In::Code;
                code[i] = code[i + 1] = ' ';
                ++i;
                continue;
            }
            break;
        case In::Quote:
            if (c == '\\') {
                code[i] = code[i + 1] = ' ';
                ++i;
                continue;
            }
            if (c == quote || c == '\n')
                in = In::Code;
            break;
        }
        if (code[i] != '\n')
            code[i] = ' ';
    }
    return code;
}

std::vector<std::string> library_dependencies(const std::string &text) {
    static const std::regex kDependsOn(R"(^[ \t]*#[ \t]*pragma[ \t]+D[ \t]+depends_on[ \t]+library[ \t]+(\S+))",
                                       std::regex::ECMAScript | std::regex::multiline);
    const std::string code = code_only(text);
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kDependsOn); it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1].str());
    return names;
}

// The ".d" files of one directory, by name (readdir's order is arbitrary).
std::vector<LibraryFile> files_of(const std::string &dir) {
    std::vector<LibraryFile> files;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
        if (e.path().extension() != ".d" || !e.is_regular_file(ec))
            continue;
        Result<std::string> text = read_source_file(e.path().string());
        if (!text)
            continue; // unreadable, or without end: the same as a file that is not there
        files.push_back({e.path().string(), text.value(), library_dependencies(text.value())});
    }
    std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) { return a.path < b.path; });
    return files;
}

} // namespace

Result<std::vector<compiler::LibrarySource>> read_library_dirs(const std::vector<std::string> &dirs) {
    std::string error;
    std::vector<LibraryFile> files;
    for (const std::string &dir : dirs) {
        std::vector<LibraryFile> more = files_of(dir);
        files.insert(files.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    std::map<std::string, size_t> by_name; // the first directory holding a name wins
    for (size_t i = 0; i < files.size(); ++i)
        by_name.emplace(fs::path(files[i].path).filename().string(), i);

    std::vector<compiler::LibrarySource> ordered;
    std::set<size_t> placed, visiting;
    // Depth first: a file's dependencies are placed before it. A cycle is
    // broken where it closes.
    std::function<bool(size_t)> place = [&](size_t i) {
        if (placed.count(i) || !visiting.insert(i).second)
            return true;
        for (const std::string &dep : files[i].depends_on) {
            auto found = by_name.find(fs::path(dep).filename().string());
            if (found == by_name.end()) {
                error = "failed to find dependency in libpath: " + dep;
                return false;
            }
            if (!place(found->second))
                return false;
        }
        placed.insert(i);
        ordered.emplace_back(files[i].path, files[i].text);
        return true;
    };
    for (size_t i = 0; i < files.size(); ++i) {
        if (!place(i))
            return Failure{error};
    }
    return ordered;
}

} // namespace dtrace::cli
