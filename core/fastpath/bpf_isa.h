// bpf_isa.h: the BPF instructions the fast path emits, encoded as the
// kernel's UAPI lays out struct bpf_insn (8 bytes: opcode, dst and src
// registers in one byte, a 16-bit offset, a 32-bit immediate). The numbers
// are the kernel's ABI; the core writes them itself so that it needs neither
// the Linux headers nor libbpf (docs/fastpath.md).
#pragma once

#include <cstdint>

namespace dtrace::fastpath::bpf {

// Instruction classes, sizes, modes and sources.
inline constexpr uint8_t kLd = 0x00, kLdx = 0x01, kSt = 0x02, kStx = 0x03, kAlu = 0x04, kJmp = 0x05, kAlu64 = 0x07;
inline constexpr uint8_t kW = 0x00, kH = 0x08, kB = 0x10, kDw = 0x18;
inline constexpr uint8_t kImm = 0x00, kMem = 0x60;
inline constexpr uint8_t kK = 0x00, kX = 0x08;

// ALU operations.
inline constexpr uint8_t kAdd = 0x00, kSub = 0x10, kMul = 0x20, kDiv = 0x30, kOr = 0x40, kAnd = 0x50, kLsh = 0x60,
                         kRsh = 0x70, kNeg = 0x80, kMod = 0x90, kXor = 0xa0, kMov = 0xb0, kArsh = 0xc0, kEnd = 0xd0;
inline constexpr uint8_t kToBe = 0x08; // kEnd's source bit: convert to big-endian

// Jump operations.
inline constexpr uint8_t kJa = 0x00, kJeq = 0x10, kJgt = 0x20, kJge = 0x30, kJne = 0x50, kJsgt = 0x60, kJsge = 0x70,
                         kCall = 0x80, kExit = 0x90, kJlt = 0xa0, kJle = 0xb0, kJslt = 0xc0, kJsle = 0xd0;

// Registers: r0 return value, r1-r5 helper arguments (clobbered by calls),
// r6-r9 kept across calls, r10 the read-only frame pointer.
enum Reg : uint8_t { R0 = 0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

// A 64-bit immediate load whose immediate is a map (ld_imm64's src_reg).
inline constexpr uint8_t kPseudoMapFd = 1;

// Helper functions (enum bpf_func_id).
enum class Helper : int32_t {
    MapLookupElem = 1,
    MapUpdateElem = 2,
    MapDeleteElem = 3,
    KtimeGetNs = 5,
    TailCall = 12,
    GetSmpProcessorId = 8,
    GetCurrentPidTgid = 14,
    GetCurrentUidGid = 15,
    GetCurrentComm = 16,
    GetCurrentTask = 35,
    GetStack = 67,
    ProbeReadKernel = 113,
    ProbeReadUserStr = 114,
    RingbufOutput = 130,
    RingbufReserve = 131,
    RingbufSubmit = 132,
    GetCurrentTaskBtf = 158,
    GetAttachCookie = 174,
    TaskPtRegs = 175,
    ProbeReadUser = 112,
};

// bpf_ringbuf_output() flags: the consumer polls, no wakeup wanted.
inline constexpr int32_t kRingbufNoWakeup = 1;

// bpf_map_update_elem() flags.
inline constexpr int32_t kUpdateAny = 0, kUpdateNoExist = 1;

struct Insn {
    uint8_t code = 0;
    uint8_t dst = 0;
    uint8_t src = 0;
    int16_t off = 0;
    int32_t imm = 0;

    uint64_t encode() const {
        return uint64_t(code) | uint64_t(uint8_t((src << 4) | (dst & 0xf))) << 8 | uint64_t(uint16_t(off)) << 16 |
               uint64_t(uint32_t(imm)) << 32;
    }
};

} // namespace dtrace::fastpath::bpf
