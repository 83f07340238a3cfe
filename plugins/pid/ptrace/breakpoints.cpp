// breakpoints.cpp: placing and removing int3 sites, their out-of-line slots.
#include "breakpoints.h"

#include <Zydis/Zydis.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "process_maps.h"
#include "prologue.h"

namespace dtrace::pid::ptrace_backend {

namespace {

constexpr uint8_t kInt3 = 0xcc;
constexpr uint64_t kSlotBytes = 64;                     // a relocated instruction (at most 27 bytes) and the jump back
constexpr uint64_t kAreaBytes = 64 * 1024;              // a scratch area: 1024 slots
constexpr int64_t kReach = 1ll << 30;                   // well within rel32 of the module, whatever the slot
constexpr uint8_t kSyscallStub[] = {0x0f, 0x05, kInt3}; // syscall; int3

std::string real_path(const std::string &path) {
    char resolved[PATH_MAX];
    return realpath(path.c_str(), resolved) ? resolved : path;
}

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// AT_ENTRY of the process: where remote system calls run.
uint64_t entry_point(int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/auxv", std::ios::binary);
    Elf64_auxv_t entry;
    while (in.read(reinterpret_cast<char *>(&entry), sizeof entry)) {
        if (entry.a_type == AT_ENTRY)
            return entry.a_un.a_val;
    }
    return 0;
}

// Every mapping of the process, [start, end), sorted.
std::vector<std::pair<uint64_t, uint64_t>> all_mappings(int64_t pid) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    std::istringstream lines(read_text("/proc/" + std::to_string(pid) + "/maps"));
    for (std::string line; std::getline(lines, line);) {
        uint64_t start = 0, end = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx", &start, &end) == 2)
            out.emplace_back(start, end);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// A free, page-aligned range of `size` bytes nearest to `near` within kReach; 0 if none.
uint64_t free_range_near(int64_t pid, uint64_t near, uint64_t size) {
    uint64_t best = 0, best_distance = UINT64_MAX;
    uint64_t gap_start = 0x10000; // above mmap_min_addr
    auto consider = [&](uint64_t start, uint64_t end) {
        if (end <= start || end - start < size)
            return;
        const uint64_t at = std::clamp(near & ~uint64_t{0xfff}, start, end - size);
        const uint64_t distance = at > near ? at - near : near - at;
        if (distance < best_distance) {
            best = at;
            best_distance = distance;
        }
    };
    for (const auto &[start, end] : all_mappings(pid)) {
        consider(gap_start, start);
        gap_start = std::max(gap_start, end);
    }
    consider(gap_start, 0x7ffffffff000ull);
    return best_distance < static_cast<uint64_t>(kReach) ? best : 0;
}

// The instruction's length at code[0..size); 0 when it does not decode.
uint32_t instruction_length(const uint8_t *code, size_t size) {
    ZydisDecoder decoder;
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisDecodedInstruction instruction;
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, nullptr, code, size, &instruction)))
        return 0;
    return instruction.length;
}

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%lx", value);
    return text;
}

// waitpid() of the tracer thread, again when its wake signal interrupts it.
pid_t wait_stop(pid_t tid, int &status) {
    pid_t got;
    while ((got = waitpid(tid, &status, __WALL | __WNOTHREAD)) < 0 && errno == EINTR) {
    }
    return got;
}

} // namespace

live::Result<uint64_t> remote_syscall(pid_t tid, uint64_t stub, long number, const uint64_t (&args)[6]) {
    auto failed = [&](const char *what) {
        return live::Error{std::string(what) + " in thread " + std::to_string(tid) + ": " + std::strerror(errno)};
    };
    user_regs_struct saved;
    if (ptrace(PTRACE_GETREGS, tid, nullptr, &saved) != 0)
        return failed("cannot read the registers");
    uint8_t original[sizeof kSyscallStub];
    const std::string mem = "/proc/" + std::to_string(tid) + "/mem";
    const int fd = open(mem.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return failed("cannot open the memory");
    if (pread(fd, original, sizeof original, static_cast<off_t>(stub)) != sizeof original ||
        pwrite(fd, kSyscallStub, sizeof kSyscallStub, static_cast<off_t>(stub)) != sizeof kSyscallStub) {
        close(fd);
        return failed("cannot write a system call");
    }
    user_regs_struct call = saved;
    call.rip = stub;
    call.rax = static_cast<uint64_t>(number);
    call.orig_rax = static_cast<uint64_t>(-1); // no system call restart on resuming
    call.rdi = args[0];
    call.rsi = args[1];
    call.rdx = args[2];
    call.r10 = args[3];
    call.r8 = args[4];
    call.r9 = args[5];
    int deferred_signal = 0;
    uint64_t result = 0;
    bool done = ptrace(PTRACE_SETREGS, tid, nullptr, &call) == 0;
    while (done) {
        int status = 0;
        if (ptrace(PTRACE_CONT, tid, nullptr, nullptr) != 0 || wait_stop(tid, status) != tid || !WIFSTOPPED(status)) {
            done = false;
            break;
        }
        user_regs_struct after;
        if (WSTOPSIG(status) == SIGTRAP && (status >> 16) == 0 && ptrace(PTRACE_GETREGS, tid, nullptr, &after) == 0 &&
            after.rip == stub + sizeof kSyscallStub) {
            result = after.rax;
            break;
        }
        if ((status >> 16) == 0 && WSTOPSIG(status) != SIGTRAP)
            deferred_signal = WSTOPSIG(status); // the program's: sent again once the call is done
    }
    pwrite(fd, original, sizeof original, static_cast<off_t>(stub));
    close(fd);
    ptrace(PTRACE_SETREGS, tid, nullptr, &saved);
    if (deferred_signal != 0)
        syscall(SYS_tkill, tid, deferred_signal);
    if (!done)
        return failed("the remote system call did not return");
    return result;
}

Breakpoints::Breakpoints(int64_t pid) : pid_(pid) {
    mem_fd_ = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDWR | O_CLOEXEC);
}

Breakpoints::~Breakpoints() {
    if (mem_fd_ >= 0)
        close(mem_fd_);
}

size_t Breakpoints::read(uint64_t address, void *buffer, size_t length) const {
    const ssize_t n = pread(mem_fd_, buffer, length, static_cast<off_t>(address));
    return n > 0 ? static_cast<size_t>(n) : 0;
}

bool Breakpoints::write(uint64_t address, const void *data, size_t length) const {
    return pwrite(mem_fd_, data, length, static_cast<off_t>(address)) == static_cast<ssize_t>(length);
}

void Breakpoints::add(const std::string &path, uint64_t file_offset, uint64_t cookie) {
    pending_.push_back({real_path(path), file_offset, cookie});
}

uint64_t Breakpoints::scratch_slot(pid_t tid, uint64_t near, std::string &why) {
    auto within_reach = [&](uint64_t at) {
        return (at > near ? at - near : near - at) < static_cast<uint64_t>(kReach);
    };
    for (Area &area : areas_) {
        if (area.used + kSlotBytes <= area.size && within_reach(area.base)) {
            area.used += kSlotBytes;
            return area.base + area.used - kSlotBytes;
        }
    }
    const uint64_t at = free_range_near(pid_, near, kAreaBytes);
    const uint64_t stub = entry_point(pid_);
    if (at == 0 || stub == 0) {
        why = "no room for a scratch area within reach of " + hex(near);
        return 0;
    }
    const uint64_t args[6] = {at,
                              kAreaBytes,
                              PROT_READ | PROT_EXEC,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                              static_cast<uint64_t>(-1),
                              0};
    live::Result<uint64_t> mapped = remote_syscall(tid, stub, SYS_mmap, args);
    if (!mapped) {
        why = mapped.error();
        return 0;
    }
    if (mapped.value() != at) {
        why = "the process did not map a scratch area at " + hex(at) + " (mmap gave " + hex(mapped.value()) + ")";
        return 0;
    }
    areas_.push_back({at, kAreaBytes, kSlotBytes});
    return at;
}

bool Breakpoints::place(pid_t tid, uint64_t address, uint64_t cookie, std::string &why) {
    if (auto known = sites_.find(address); known != sites_.end()) {
        known->second.cookies.push_back(cookie);
        return true;
    }
    uint8_t code[ZYDIS_MAX_INSTRUCTION_LENGTH] = {};
    const size_t got = read(address, code, sizeof code);
    if (auto removed = removed_.find(address); removed != removed_.end() && got > 0)
        code[0] = removed->second; // our int3 of an earlier placing may still be there
    const uint32_t length = instruction_length(code, got);
    if (length == 0) {
        why = "no instruction decodes at " + hex(address);
        return false;
    }
    if (code[0] == kInt3) {
        why = "an int3 is already at " + hex(address);
        return false;
    }
    const uint64_t slot = scratch_slot(tid, address, why);
    if (slot == 0)
        return false;
    fpid_plan plan{};
    plan.length = plan.live_length = length;
    uint8_t out[kSlotBytes];
    char reason[200] = "";
    constexpr size_t kJumpBytes = 5;
    const int relocated =
        fpid_relocate(code, &plan, address, slot, out, sizeof out - kJumpBytes, reason, sizeof reason);
    if (relocated < 0) {
        why = reason;
        return false;
    }
    // jmp rel32 to the instruction after the site.
    const int64_t back = static_cast<int64_t>(address + length) - static_cast<int64_t>(slot + relocated + kJumpBytes);
    out[relocated] = 0xe9;
    const int32_t rel = static_cast<int32_t>(back);
    std::memcpy(out + relocated + 1, &rel, sizeof rel);
    if (!write(slot, out, static_cast<size_t>(relocated) + kJumpBytes) || !write(address, &kInt3, 1)) {
        why = std::string("cannot write the process's memory: ") + std::strerror(errno);
        return false;
    }
    removed_.erase(address);
    sites_[address] = Site{address, code[0], slot, {cookie}};
    return true;
}

live::Status Breakpoints::place_pending(pid_t tid, std::vector<std::string> &refused) {
    if (pending_.empty())
        return live::Done{};
    if (mem_fd_ < 0)
        return live::Error{"cannot open the memory of process " + std::to_string(pid_) + ": " + std::strerror(errno)};
    const std::vector<live::stacks::Mapping> mappings =
        live::stacks::parse_maps(read_text("/proc/" + std::to_string(pid_) + "/maps"));
    std::vector<Request> waiting;
    for (const Request &request : pending_) {
        auto mapping = std::find_if(mappings.begin(), mappings.end(), [&](const live::stacks::Mapping &m) {
            return m.path == request.path && request.file_offset >= m.file_offset &&
                   request.file_offset - m.file_offset < m.end - m.start;
        });
        if (mapping == mappings.end()) {
            waiting.push_back(request); // not mapped yet
            continue;
        }
        const uint64_t address = mapping->start + (request.file_offset - mapping->file_offset);
        std::string why;
        if (!place(tid, address, request.cookie, why))
            refused.push_back(request.path + " at offset " + hex(request.file_offset) + ": " + why);
    }
    pending_ = std::move(waiting);
    return live::Done{};
}

const Site *Breakpoints::site_at(uint64_t address) const {
    auto found = sites_.find(address);
    return found == sites_.end() ? nullptr : &found->second;
}

void Breakpoints::remove_all() {
    for (const auto &[address, site] : sites_) {
        write(address, &site.original, 1);
        removed_[address] = site.original;
    }
    sites_.clear();
}

void Breakpoints::remove_from(int64_t child) const {
    const int fd = open(("/proc/" + std::to_string(child) + "/mem").c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return;
    for (const auto &[address, site] : sites_)
        pwrite(fd, &site.original, 1, static_cast<off_t>(address));
    close(fd);
}

} // namespace dtrace::pid::ptrace_backend
