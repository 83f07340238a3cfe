// injector.cpp: ptrace steps that load the agent (injector.h).
#include "injector.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <thread>

#include <elf.h>

#include "elf_functions.h"
#include "function_index.h"
#include "process_modules.h"

namespace dtrace::fpid {

namespace {

constexpr auto kWaitLimit = std::chrono::seconds(10);

std::string errno_text(const char *what) {
    return std::string(what) + ": " + std::strerror(errno);
}

// Waits for the next stop of `pid` (or its end), at most kWaitLimit.
live::Result<int> wait_stop(int64_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
    for (;;) {
        int status = 0;
        pid_t got = waitpid(static_cast<pid_t>(pid), &status, __WALL | WNOHANG);
        if (got == pid) {
            if (WIFEXITED(status) || WIFSIGNALED(status))
                return live::Error{"process " + std::to_string(pid) + " ended while the fpid agent was being loaded"};
            return status;
        }
        if (got < 0 && errno != EINTR)
            return live::Error{errno_text("waitpid")};
        if (std::chrono::steady_clock::now() > deadline)
            return live::Error{"process " + std::to_string(pid) +
                               " did not come back within 10 s while the fpid "
                               "agent was being loaded"};
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

uint64_t auxv_entry(int64_t pid) {
    std::ifstream auxv("/proc/" + std::to_string(pid) + "/auxv", std::ios::binary);
    Elf64_auxv_t entry;
    while (auxv.read(reinterpret_cast<char *>(&entry), sizeof entry))
        if (entry.a_type == AT_ENTRY)
            return entry.a_un.a_val;
    return 0;
}

// The address of libc's dlopen in `pid`.
live::Result<uint64_t> find_dlopen(int64_t pid) {
    for (const live::ProcessModule &module : live::mapped_modules(pid)) {
        if (live::module_file_name(module.path).rfind("libc.so", 0) != 0)
            continue;
        std::string error;
        std::unique_ptr<live::ElfFunctions> functions = live::ElfFunctions::read(module.path, error);
        for (const live::ElfFunction &f : functions ? functions->functions() : std::vector<live::ElfFunction>{}) {
            // Versioned names too ("dlopen@@GLIBC_2.34").
            auto is_named_dlopen = [](const std::string &name) { return name.substr(0, name.find('@')) == "dlopen"; };
            const bool is_dlopen =
                is_named_dlopen(f.name) || std::any_of(f.aliases.begin(), f.aliases.end(), is_named_dlopen);
            if (uint64_t address = is_dlopen ? ProcessAddresses(pid).of(module.path, f.file_offset) : 0; address != 0)
                return address;
        }
    }
    return live::Error{"process " + std::to_string(pid) +
                       " has no libc with dlopen mapped (a static program cannot load the fpid agent)"};
}

bool write_memory(int64_t pid, uint64_t address, const void *data, size_t size) {
    iovec local{const_cast<void *>(data), size};
    iovec remote{reinterpret_cast<void *>(address), size};
    return process_vm_writev(static_cast<pid_t>(pid), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

} // namespace

live::Status run_to_entry(int64_t pid) {
    const uint64_t entry = auxv_entry(pid);
    if (entry == 0)
        return live::Error{"cannot find the entry point of process " + std::to_string(pid)};
    errno = 0;
    const long original = ptrace(PTRACE_PEEKTEXT, pid, entry, nullptr);
    if (errno != 0)
        return live::Error{errno_text("reading the entry point")};
    const long trap = (original & ~0xffL) | 0xcc;
    if (ptrace(PTRACE_POKETEXT, pid, entry, trap) != 0)
        return live::Error{errno_text("setting a breakpoint at the entry point")};
    int signal = 0;
    for (;;) {
        if (ptrace(PTRACE_CONT, pid, nullptr, signal) != 0)
            return live::Error{errno_text("resuming to the entry point")};
        live::Result<int> status = wait_stop(pid);
        if (!status)
            return live::Error{status.error()};
        signal = WSTOPSIG(status.value());
        if (signal != SIGTRAP)
            continue; // the program's own signal, delivered
        user_regs_struct regs;
        if (ptrace(PTRACE_GETREGS, pid, nullptr, &regs) != 0)
            return live::Error{errno_text("reading registers")};
        if (regs.rip != entry + 1)
            continue;
        regs.rip = entry;
        if (ptrace(PTRACE_POKETEXT, pid, entry, original) != 0 || ptrace(PTRACE_SETREGS, pid, nullptr, &regs) != 0)
            return live::Error{errno_text("removing the entry breakpoint")};
        return live::Done{};
    }
}

live::Status inject_agent(int64_t pid, const std::string &agent_path) {
    live::Result<uint64_t> dlopen_address = find_dlopen(pid);
    if (!dlopen_address)
        return live::Error{dlopen_address.error()};
    user_regs_struct saved;
    if (ptrace(PTRACE_GETREGS, pid, nullptr, &saved) != 0)
        return live::Error{errno_text("reading registers")};
    // Below the red zone: the path, then a return address of 0.
    const uint64_t path_at = (saved.rsp - 128 - agent_path.size() - 1) & ~uint64_t{15};
    const uint64_t return_at = ((path_at - 64) & ~uint64_t{15}) - 8;
    const uint64_t zero = 0;
    if (!write_memory(pid, path_at, agent_path.c_str(), agent_path.size() + 1) ||
        !write_memory(pid, return_at, &zero, sizeof zero))
        return live::Error{errno_text("writing to the target's stack")};
    user_regs_struct call = saved;
    call.rip = dlopen_address.value();
    call.rsp = return_at;
    call.rdi = path_at;
    call.rsi = RTLD_NOW;
    call.rax = 0;
    call.orig_rax = static_cast<uint64_t>(-1); // no system call restart on resuming
    if (ptrace(PTRACE_SETREGS, pid, nullptr, &call) != 0)
        return live::Error{errno_text("setting registers")};
    int signal = 0;
    user_regs_struct after{};
    for (;;) {
        if (ptrace(PTRACE_CONT, pid, nullptr, signal) != 0)
            return live::Error{errno_text("resuming the target into dlopen")};
        live::Result<int> status = wait_stop(pid);
        if (!status)
            return live::Error{status.error()};
        signal = WSTOPSIG(status.value());
        if (ptrace(PTRACE_GETREGS, pid, nullptr, &after) != 0)
            return live::Error{errno_text("reading registers")};
        if (signal == SIGSEGV && after.rip == 0)
            break; // back from dlopen
        if (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL) {
            ptrace(PTRACE_SETREGS, pid, nullptr, &saved);
            return live::Error{"process " + std::to_string(pid) + " faulted (signal " + std::to_string(signal) +
                               ") while loading the fpid agent"};
        }
        // Another signal: a stop or one of its own, delivered (or left for later).
        if (signal == SIGSTOP || signal == SIGTRAP || (status.value() >> 16) != 0)
            signal = 0;
    }
    if (ptrace(PTRACE_SETREGS, pid, nullptr, &saved) != 0)
        return live::Error{errno_text("restoring registers")};
    if (after.rax == 0)
        return live::Error{"dlopen(" + agent_path + ") failed in process " + std::to_string(pid)};
    return live::Done{};
}

} // namespace dtrace::fpid
