// user_registers.h: uregs[] at user-space probes (pid, USDT) on x86-64.
//
// D indexes uregs[] with the R_* constants of Oracle's DTrace for Linux:
// 0..20 are the kernel's struct pt_regs in order (R_R15 .. R_SS; R_ERR reads
// orig_rax), 21..24 the segment registers R_DS R_ES R_FS R_GS, and from 25
// the 32-bit names (R_EBX = 25 ... R_ESP = 40, then R_PC R_FP R_SP R_PS R_R0
// R_R1 as aliases), which read the 64-bit register they name. A uprobe sees
// no segment register but cs and ss: those read as an illegal operation.
// Oracle's regs.d also gives R_TRAPNO the value 25, R_EBX's; a uprobe has
// no trap number, so it is not declared here.
#pragma once

#include <cstdint>
#include <span>

#include <dtrace/provider.h>

#include "bpf/uprobe_record.h"

namespace dtrace::live {

inline constexpr uint32_t kUregsCount = 42; // through R_SS's 32-bit alias (41)

struct UserRegisters {
    uint64_t value[kUregsCount] = {};
    uint64_t missing = 0; // bit i: value[i] is not known
};

// The uregs[] of a uprobe event from the registers its tail carries.
UserRegisters user_registers(const uprobe_tail &tail);

// The perf registers uregs[] reads (PERF_SAMPLE_REGS_USER's mask): every
// general register with the flags, cs and ss. x86-64 refuses ds, es, fs and
// gs in a mask, and has no orig_rax there: those read as missing.
uint64_t perf_user_regs_mask();

// The uregs[] of a perf sample taken with `mask` (the registers in its bits'
// order), a superset of perf_user_regs_mask() or not: a register the mask
// lacks reads as missing.
UserRegisters user_registers_from_perf(uint64_t mask, std::span<const uint64_t> regs);

// Points ctx's uregs[] at `regs` (which must outlive the firing).
void set_user_registers(dtrace_event_ctx &ctx, const UserRegisters &regs);

// The D source of the R_* constants.
const char *user_registers_d_library();

// Registers user_registers_d_library() as the shared D library
// "linux/regs.d" (the first live plugin to load registers it). Returns 0, or
// -1 after the host has said why.
int register_user_registers_library(dtrace_host *host, const dtrace_host_ops *ops);

} // namespace dtrace::live
