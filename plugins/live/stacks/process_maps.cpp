// process_maps.cpp: /proc/PID/maps parsing and the per-process mapping lists.
#include "process_maps.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace dtrace::live::stacks {

namespace {

std::string_view field(std::string_view &line) {
    size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) {
        line = {};
        return {};
    }
    line.remove_prefix(start);
    size_t end = line.find(' ');
    std::string_view f = line.substr(0, end);
    line.remove_prefix(end == std::string_view::npos ? line.size() : end);
    return f;
}

bool hex_number(std::string_view text, uint64_t &value) {
    auto r = std::from_chars(text.data(), text.data() + text.size(), value, 16);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

void insert_sorted(std::vector<Mapping> &mappings, Mapping mapping) {
    std::erase_if(mappings, [&](const Mapping &m) { return m.start < mapping.end && mapping.start < m.end; });
    auto at = std::lower_bound(mappings.begin(), mappings.end(), mapping.start,
                               [](const Mapping &m, uint64_t start) { return m.start < start; });
    mappings.insert(at, std::move(mapping));
}

} // namespace

// "7f0e1c028000-7f0e1c1bd000 r-xp 00028000 fe:01 1234 /usr/lib/x86_64-linux-gnu/libc.so.6"
std::vector<Mapping> parse_maps(std::string_view text) {
    std::vector<Mapping> mappings;
    while (!text.empty()) {
        size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        std::string_view range = field(line), perms = field(line), offset = field(line);
        field(line); // device
        field(line); // inode
        size_t path_start = line.find_first_not_of(' ');
        std::string_view path = path_start == std::string_view::npos ? std::string_view{} : line.substr(path_start);
        size_t dash = range.find('-');
        Mapping m;
        if (dash == std::string_view::npos || perms.size() < 3 || perms[2] != 'x' || path.empty() ||
            !hex_number(range.substr(0, dash), m.start) || !hex_number(range.substr(dash + 1), m.end) ||
            !hex_number(offset, m.file_offset) || m.end <= m.start)
            continue;
        m.path = std::string(path);
        insert_sorted(mappings, std::move(m));
    }
    return mappings;
}

void ProcessMaps::ensure_locked(int64_t pid) {
    Process &process = processes_[pid];
    if (process.complete)
        return;
    process.complete = true;
    read_locked(pid, process);
}

bool ProcessMaps::read_locked(int64_t pid, Process &process) {
    process.read_at = std::chrono::steady_clock::now();
    std::ifstream in(proc_ + "/" + std::to_string(pid) + "/maps");
    if (!in)
        return false; // gone already: keep what its records said
    std::stringstream text;
    text << in.rdbuf();
    process.mappings = parse_maps(text.str());
    return true;
}

void ProcessMaps::ensure(int64_t pid) {
    std::lock_guard lock(mutex_);
    ensure_locked(pid);
}

void ProcessMaps::add(int64_t pid, Mapping mapping) {
    if (mapping.end <= mapping.start)
        return;
    std::lock_guard lock(mutex_);
    insert_sorted(processes_[pid].mappings, std::move(mapping));
}

void ProcessMaps::refresh(int64_t pid) {
    std::lock_guard lock(mutex_);
    ensure_locked(pid);
    std::ifstream in(proc_ + "/" + std::to_string(pid) + "/maps");
    std::stringstream text;
    text << in.rdbuf();
    for (Mapping &mapping : parse_maps(text.str()))
        insert_sorted(processes_[pid].mappings, std::move(mapping));
}

void ProcessMaps::exec(int64_t pid) {
    std::lock_guard lock(mutex_);
    processes_[pid] = Process{{}, true};
}

void ProcessMaps::fork(int64_t parent, int64_t child) {
    std::lock_guard lock(mutex_);
    // A parent not known yet is not read from /proc here (this runs for
    // every fork of the machine): the child is read at first sight instead.
    auto known = processes_.find(parent);
    if (known != processes_.end())
        processes_[child] = Process{known->second.mappings, known->second.complete};
}

void ProcessMaps::exit(int64_t pid) {
    std::lock_guard lock(mutex_);
    auto known = processes_.find(pid);
    if (known != processes_.end() && !known->second.looked_up)
        processes_.erase(known);
}

void ProcessMaps::keep(int64_t pid) {
    std::lock_guard lock(mutex_);
    processes_[pid].looked_up = true;
}

std::optional<Mapping> ProcessMaps::find(int64_t pid, uint64_t address) {
    std::lock_guard lock(mutex_);
    ensure_locked(pid);
    Process &process = processes_[pid];
    process.looked_up = true;
    std::optional<Mapping> found = containing(process.mappings, address);
    // Not mapped when the process was read (first seen stopped at its exec,
    // before the dynamic linker mapped its libraries, or before a dlopen):
    // read it again, at most once per kRereadInterval.
    if (!found && std::chrono::steady_clock::now() - process.read_at >= kRereadInterval && read_locked(pid, process))
        found = containing(process.mappings, address);
    return found;
}

std::optional<Mapping> ProcessMaps::containing(const std::vector<Mapping> &mappings, uint64_t address) {
    auto it = std::upper_bound(mappings.begin(), mappings.end(), address,
                               [](uint64_t a, const Mapping &m) { return a < m.start; });
    if (it == mappings.begin() || address >= std::prev(it)->end)
        return std::nullopt;
    return *std::prev(it);
}

} // namespace dtrace::live::stacks
