// user_stacks.cpp: the user stack walk by CFI rows in BPF (see user_stacks.h).
#include "fastpath/user_stacks.h"

#include "fastpath/difo_translator.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace dtrace::fastpath {

using namespace bpf;

namespace {

// The words of the walker's per-CPU state.
namespace state {
inline constexpr int16_t kIp = 0;         // the frame's pc
inline constexpr int16_t kSp = 8;         // its rsp
inline constexpr int16_t kBp = 16;        // its rbp, when kBpKnown
inline constexpr int16_t kBpKnown = 24;   // whether rbp is known (an undefined rule, a save outside the copy)
inline constexpr int16_t kCopyStart = 32; // the copy of the stack: its address and size
inline constexpr int16_t kCopySize = 40;
inline constexpr int16_t kPc = 48; // the address looked up, then its link-time address
inline constexpr int16_t kCfa = 56;
inline constexpr int16_t kReturn = 64; // the return address read
inline constexpr int16_t kZero = 72;   // 0, which the verifier does not know (see search_start())
inline constexpr int16_t kCopy = 80;   // the copy's bytes (kUserStackCopyBytes at most)
inline constexpr int16_t kFrames = kCopy + static_cast<int16_t>(kUserStackCopyBytes); // the frames, innermost first
} // namespace state

constexpr uint8_t kRegisterRbp = 6, kRegisterRsp = 7;
constexpr int32_t kCopySizes[] = {8192, 4096, 2048, 1024, 512, 256}; // live_stacks.bpf.h's

// The search's first index: 0 loaded from the state, so that the verifier
// takes the indices as unknown and does not follow each constant apart.
void search_start(BpfEmitter &out, Reg dst) {
    out.load(kDw, dst, R9, state::kZero);
}

// r0 = &map[index], going to `fallback` when absent (never, for an index within the array).
void lookup_index(BpfEmitter &out, uint32_t map, Reg index, BpfEmitter::Label fallback) {
    out.store(kW, R10, frame::kIndex, index);
    emit_map_lookup(out, map, frame::kIndex);
    out.jump_imm(kJeq, R0, 0, fallback);
}

// r7 = the last entry of [r7, r7 + r8) whose 64-bit (or, with `wide`
// false, 32-bit) start at offset 0 is at most the state's pc, when the
// first one's is: a lower bound in `steps` halvings (r8 <= 2^steps).
void emit_search(BpfEmitter &out, uint32_t map, uint32_t steps, bool wide, BpfEmitter::Label fallback) {
    for (uint32_t i = 0; i < steps; i++) {
        BpfEmitter::Label above = out.new_label();
        out.mov(R1, R8);
        out.alu_imm(kRsh, R1, 1);
        out.alu(kAdd, R1, R7);
        lookup_index(out, map, R1, fallback);
        out.load(wide ? kDw : kW, R1, R0, 0);
        out.load(kDw, R2, R9, state::kPc);
        out.mov(R3, R8);
        out.alu_imm(kRsh, R3, 1);
        out.jump_reg(kJgt, R1, R2, above);
        out.alu(kAdd, R7, R3);
        out.bind(above);
        out.alu(kSub, R8, R3);
    }
}

// The 8 bytes at user address r3 from the copy into r1; `outside` when
// the copy does not hold them (the user-space unwinder's read_stack()).
// Clobbers r3, r4.
void emit_read_copy(BpfEmitter &out, BpfEmitter::Label outside) {
    out.load(kDw, R4, R9, state::kCopyStart);
    out.jump_reg(kJlt, R3, R4, outside);
    out.alu(kSub, R3, R4); // the offset in the copy
    out.load(kDw, R4, R9, state::kCopySize);
    out.alu_imm(kSub, R4, 8);
    out.jump_reg(kJsgt, R3, R4, outside);
    out.jump_imm(kJgt, R3, static_cast<int32_t>(kUserStackCopyBytes - 8), outside); // the bound the verifier sees
    out.mov(R1, R9);
    out.alu(kAdd, R1, R3);
    out.load(kDw, R1, R1, state::kCopy);
}

// dst = the signed field of `size` (kW, kH) at r0 + offset.
void load_signed(BpfEmitter &out, Reg dst, uint8_t size, int16_t offset) {
    out.load(size, dst, R0, offset);
    const int32_t shift = size == kW ? 32 : 48;
    out.alu_imm(kLsh, dst, shift);
    out.alu_imm(kArsh, dst, shift);
}

// state[at] = the 8 bytes of kernel memory at r3; `failed` when unreadable.
void emit_read_kernel_word(BpfEmitter &out, int16_t at, BpfEmitter::Label failed) {
    out.mov(R1, R9);
    out.alu_imm(kAdd, R1, at);
    out.mov_imm(R2, 8);
    out.call(Helper::ProbeReadKernel);
    out.jump_imm(kJne, R0, 0, failed);
}

// state::kReturn = the bytes to copy (live_stacks.bpf.h's
// live_user_stack_wanted()): `stack_bytes`, or for a main thread (its
// stack's start within them above rsp) the start's distance and a margin,
// rounded up to one of the copy's sizes.
void emit_wanted_bytes(BpfEmitter &out, uint32_t stack_bytes, const MainStackStart &main_stack) {
    constexpr int32_t kStartMargin = 256; // LIVE_STACK_START_MARGIN
    BpfEmitter::Label done = out.new_label(), bounded = out.new_label();
    out.store_imm(kDw, R9, state::kReturn, static_cast<int32_t>(stack_bytes));
    if (!main_stack.known())
        return;
    out.call(Helper::GetCurrentTask);
    out.mov(R3, R0);
    out.alu_imm(kAdd, R3, static_cast<int32_t>(main_stack.task_mm));
    emit_read_kernel_word(out, state::kCfa, done);
    out.load(kDw, R3, R9, state::kCfa);
    out.jump_imm(kJeq, R3, 0, done); // no mm: not a user thread
    out.alu_imm(kAdd, R3, static_cast<int32_t>(main_stack.mm_start_stack));
    emit_read_kernel_word(out, state::kCfa, done);
    out.load(kDw, R1, R9, state::kCfa);
    out.load(kDw, R2, R9, state::kSp);
    out.jump_reg(kJlt, R1, R2, done); // another thread's stack: below the start
    out.alu(kSub, R1, R2);
    out.jump_imm(kJge, R1, static_cast<int32_t>(stack_bytes), done);
    out.alu_imm(kAdd, R1, kStartMargin); // the bytes needed
    out.mov_imm(R3, kCopySizes[std::size(kCopySizes) - 1]);
    for (size_t i = 1; i < std::size(kCopySizes); i++) {
        BpfEmitter::Label enough = out.new_label();
        out.jump_reg(kJge, R3, R1, enough);
        out.alu_imm(kLsh, R3, 1);
        out.bind(enough);
    }
    out.jump_imm(kJle, R3, static_cast<int32_t>(stack_bytes), bounded);
    out.mov_imm(R3, static_cast<int32_t>(stack_bytes));
    out.bind(bounded);
    out.store(kDw, R9, state::kReturn, R3);
    out.bind(done);
}

// The user-space path's copy of the stack (live_stacks.bpf.h's
// live_copy_user_stack()): the largest of its sizes, up to the wanted
// bytes, readable from rsp. None readable (a thread past its exit_mm(),
// at sched:::off-cpu): `fallback`, where the user-space path shows no
// frame at all rather than the pc's.
void emit_copy_stack(BpfEmitter &out, uint32_t stack_bytes, const MainStackStart &main_stack,
                     BpfEmitter::Label fallback) {
    BpfEmitter::Label copied = out.new_label();
    emit_wanted_bytes(out, stack_bytes, main_stack);
    out.load(kDw, R1, R9, state::kSp);
    out.store(kDw, R9, state::kCopyStart, R1);
    out.store_imm(kDw, R9, state::kCopySize, 0);
    for (int32_t size : kCopySizes) {
        if (static_cast<uint32_t>(size) > stack_bytes)
            continue;
        BpfEmitter::Label unreadable = out.new_label();
        out.load(kDw, R1, R9, state::kReturn);
        out.jump_imm(kJlt, R1, size, unreadable); // more than wanted
        out.mov(R1, R9);
        out.alu_imm(kAdd, R1, state::kCopy);
        out.mov_imm(R2, size);
        out.load(kDw, R3, R9, state::kSp);
        out.call(Helper::ProbeReadUser);
        out.jump_imm(kJne, R0, 0, unreadable);
        out.store_imm(kDw, R9, state::kCopySize, size);
        out.jump(copied);
        out.bind(unreadable);
    }
    out.jump(fallback);
    out.bind(copied);
}

// One step from the state's frame to its caller, written as frame `index`.
void emit_step(BpfEmitter &out, const UserStackWalk &walk, uint32_t index, BpfEmitter::Label stop,
               BpfEmitter::Label fallback) {
    constexpr auto mapping_field = [](size_t offset) { return static_cast<int16_t>(offset); };
    // A return address points after its call: look the call up (cfi_unwinder.cpp's unwind()).
    out.load(kDw, R1, R9, state::kIp);
    if (index > 1)
        out.alu_imm(kSub, R1, 1);
    out.store(kDw, R9, state::kPc, R1);

    // The mapping: the last one starting at or below the pc, if it holds
    // it. A pc in none goes to user space: a file mapped since the table
    // was written, which the user-space path finds in /proc.
    search_start(out, R7);
    out.mov_imm(R8, static_cast<int32_t>(DTRACE_UNWIND_MAPPINGS_MAX));
    emit_search(out, walk.mappings_map, std::bit_width(DTRACE_UNWIND_MAPPINGS_MAX) - 1, true, fallback);
    lookup_index(out, walk.mappings_map, R7, fallback);
    out.load(kDw, R1, R0, mapping_field(offsetof(dtrace_fastpath_user_mapping, start)));
    out.load(kDw, R2, R9, state::kPc);
    out.jump_reg(kJgt, R1, R2, fallback);
    out.load(kDw, R1, R0, mapping_field(offsetof(dtrace_fastpath_user_mapping, end)));
    out.jump_reg(kJge, R2, R1, fallback);
    out.load(kW, R8, R0, mapping_field(offsetof(dtrace_fastpath_user_mapping, nrows)));
    out.jump_imm(kJeq, R8, 0, fallback); // code without rows: the user-space path knows more
    // The pc's block entry (r7), and the pc as a link-time address.
    out.mov(R7, R2);
    out.load(kDw, R1, R0, mapping_field(offsetof(dtrace_fastpath_user_mapping, start)));
    out.alu(kSub, R7, R1);
    out.alu_imm(kRsh, R7, DTRACE_UNWIND_BLOCK_SHIFT);
    out.load(kW, R1, R0, mapping_field(offsetof(dtrace_fastpath_user_mapping, first_block)));
    out.alu(kAdd, R7, R1);
    out.load(kDw, R1, R0, mapping_field(offsetof(dtrace_fastpath_user_mapping, bias)));
    out.alu(kSub, R2, R1);
    out.store(kDw, R9, state::kPc, R2);

    // The row: between the block's entry and the next block's (r8 of them).
    out.mov(R1, R7);
    out.alu_imm(kAdd, R1, 1);
    lookup_index(out, walk.blocks_map, R1, fallback);
    out.load(kW, R8, R0, 0);
    lookup_index(out, walk.blocks_map, R7, fallback);
    out.load(kW, R7, R0, 0);
    out.alu(kSub, R8, R7);
    out.alu_imm(kAdd, R8, 1);
    emit_search(out, walk.rows_map, std::bit_width(DTRACE_UNWIND_BLOCK_ROWS) - 1, false, fallback);
    lookup_index(out, walk.rows_map, R7, fallback);
    out.load(kW, R1, R0, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, start)));
    out.load(kDw, R2, R9, state::kPc);
    out.jump_reg(kJgt, R1, R2, stop); // before the file's first row: no CFI
    out.load(kB, R1, R0, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, kind)));
    out.jump_imm(kJeq, R1, DTRACE_UNWIND_ROW_NONE, stop);
    out.jump_imm(kJne, R1, DTRACE_UNWIND_ROW_COMPACT, fallback);

    // The CFA: rsp or rbp plus the offset.
    BpfEmitter::Label have_register = out.new_label();
    out.load(kB, R1, R0, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, cfa_register)));
    out.load(kDw, R3, R9, state::kSp);
    out.jump_imm(kJeq, R1, kRegisterRsp, have_register);
    out.jump_imm(kJne, R1, kRegisterRbp, fallback);
    out.load(kDw, R2, R9, state::kBpKnown);
    out.jump_imm(kJeq, R2, 0, stop); // the unwinder stops at a CFA of an unknown register
    out.load(kDw, R3, R9, state::kBp);
    out.bind(have_register);
    load_signed(out, R2, kW, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, cfa_offset)));
    out.alu(kAdd, R3, R2);
    out.store(kDw, R9, state::kCfa, R3);

    // The return address, read within the copy (outside it: the unwinder's outermost frame).
    out.load(kB, R1, R0, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, rip_rule)));
    out.jump_imm(kJeq, R1, DTRACE_UNWIND_REGISTER_UNDEFINED, stop);
    out.jump_imm(kJne, R1, DTRACE_UNWIND_REGISTER_AT_CFA, fallback);
    out.load(kB, R7, R0, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, rbp_rule)));
    load_signed(out, R8, kH, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, rbp_cfa_offset)));
    load_signed(out, R3, kH, static_cast<int16_t>(offsetof(dtrace_fastpath_unwind_row, rip_cfa_offset)));
    out.load(kDw, R1, R9, state::kCfa);
    out.alu(kAdd, R3, R1);
    emit_read_copy(out, stop);
    out.store(kDw, R9, state::kReturn, R1);

    // The caller's rbp: undefined, the same, or saved at the CFA (unknown outside the copy).
    BpfEmitter::Label rbp_unknown = out.new_label(), rbp_done = out.new_label();
    out.jump_imm(kJeq, R7, DTRACE_UNWIND_REGISTER_SAME, rbp_done);
    out.jump_imm(kJne, R7, DTRACE_UNWIND_REGISTER_AT_CFA, rbp_unknown);
    out.load(kDw, R3, R9, state::kCfa);
    out.alu(kAdd, R3, R8);
    emit_read_copy(out, rbp_unknown);
    out.store(kDw, R9, state::kBp, R1);
    out.store_imm(kDw, R9, state::kBpKnown, 1);
    out.jump(rbp_done);
    out.bind(rbp_unknown);
    out.store_imm(kDw, R9, state::kBp, 0);
    out.store_imm(kDw, R9, state::kBpKnown, 0);
    out.bind(rbp_done);

    // The caller: a return address, in a frame above its callee's.
    out.load(kDw, R1, R9, state::kReturn);
    out.jump_imm(kJeq, R1, 0, stop);
    out.load(kDw, R2, R9, state::kCfa);
    out.load(kDw, R3, R9, state::kSp);
    out.jump_reg(kJle, R2, R3, stop);
    out.store(kDw, R9, state::kSp, R2);
    out.store(kDw, R9, state::kIp, R1);
    out.store(kDw, R9, static_cast<int16_t>(state::kFrames + 8 * index), R1);
}

// Declines the event (`fallback`) unless it is of the table's process
// (DTRACE_UNWIND_PROCESS_ENTRY): a probe of every process (a system
// call's) walks one process's stacks, by that process's rows.
void emit_process_gate(BpfEmitter &out, const UserStackWalk &walk, BpfEmitter::Label fallback) {
    out.call(Helper::GetCurrentPidTgid);
    out.alu_imm(kRsh, R0, 32);
    out.mov(R7, R0);
    out.store_imm(kW, R10, frame::kIndex, static_cast<int32_t>(DTRACE_UNWIND_PROCESS_ENTRY));
    emit_map_lookup(out, walk.mappings_map, frame::kIndex);
    out.jump_imm(kJeq, R0, 0, fallback);
    out.load(kDw, R1, R0, static_cast<int16_t>(offsetof(dtrace_fastpath_user_mapping, start)));
    out.jump_reg(kJne, R1, R7, fallback);
}

// The first frame's registers into the state: from the context, or from
// the current task's struct pt_regs (a tracepoint's program: the
// registers of the thread in user space), copied with one read into the
// copy's room (filled later).
void emit_load_registers(BpfEmitter &out, const UserRegisterPlace &place, BpfEmitter::Label fallback) {
    const std::pair<int16_t, int16_t> words[] = {
        {place.ip, state::kIp}, {place.sp, state::kSp}, {place.bp, state::kBp}};
    Reg base = R6;
    int16_t displacement = 0;
    if (place.in_task) {
        const int16_t bytes = static_cast<int16_t>(std::max({place.ip, place.sp, place.bp}) + 8);
        if (place.ip < 0 || place.sp < 0 || place.bp < 0 || static_cast<uint32_t>(bytes) > kUserStackCopyBytes)
            throw Refusal("the user registers are not in the task's registers"); // not reached: a plugin's offsets
        out.call(Helper::GetCurrentTaskBtf);
        out.mov(R1, R0);
        out.call(Helper::TaskPtRegs);
        out.mov(R3, R0);
        out.mov(R1, R9);
        out.alu_imm(kAdd, R1, state::kCopy);
        out.mov_imm(R2, bytes);
        out.call(Helper::ProbeReadKernel);
        out.jump_imm(kJne, R0, 0, fallback);
        base = R9;
        displacement = state::kCopy;
    }
    for (const auto &[place_offset, at] : words) {
        out.load(kDw, R1, base, static_cast<int16_t>(displacement + place_offset));
        out.store(kDw, R9, at, R1);
    }
    out.load(kDw, R1, R9, state::kIp);
    out.store(kDw, R9, state::kFrames, R1);
}

// The plan's name of the way back's program array for programs of raw tracepoints or of the others.
const char *way_back_of(bool raw_tracepoint) {
    return raw_tracepoint ? "ustack_way_back_raw" : "ustack_way_back";
}

} // namespace

UserStackWalk plan_user_stack_walk(MapPlan &plan, uint32_t frames, bool raw_tracepoint) {
    const uint32_t state_bytes = static_cast<uint32_t>(state::kFrames) + 8 * std::max(frames, 1u);
    if (!plan.by_name.contains("ustack_state")) {
        plan.add("ustack_state", MapSpec{DTRACE_BPF_MAP_PERCPU_ARRAY, 4, state_bytes, 1, "dt_ustack"});
        plan.add("ustack_rows", MapSpec{DTRACE_BPF_MAP_ARRAY, 4, sizeof(dtrace_fastpath_unwind_row),
                                        DTRACE_UNWIND_ROWS_MAX, "dt_urows"});
        plan.add("ustack_mappings", MapSpec{DTRACE_BPF_MAP_ARRAY, 4, sizeof(dtrace_fastpath_user_mapping),
                                            DTRACE_UNWIND_MAPPINGS_MAX + 1, "dt_umaps"});
        plan.add("ustack_blocks", MapSpec{DTRACE_BPF_MAP_ARRAY, 4, 4, DTRACE_UNWIND_BLOCKS_MAX, "dt_ublocks"});
    }
    MapSpec &state = plan.maps[plan.by_name.at("ustack_state")];
    state.value_size = std::max(state.value_size, state_bytes);
    const char *way_back = way_back_of(raw_tracepoint);
    if (!plan.by_name.contains(way_back))
        plan.add(way_back,
                 MapSpec{DTRACE_BPF_MAP_PROG_ARRAY, 4, 4, 1, raw_tracepoint ? "dt_way_back_raw" : "dt_way_back"});
    return *planned_user_stack_walk(plan, raw_tracepoint);
}

std::optional<UserStackWalk> planned_user_stack_walk(const MapPlan &plan, bool raw_tracepoint) {
    auto state = plan.by_name.find("ustack_state");
    auto way_back = plan.by_name.find(way_back_of(raw_tracepoint));
    if (state == plan.by_name.end() || way_back == plan.by_name.end())
        return std::nullopt;
    return UserStackWalk{state->second, plan.by_name.at("ustack_rows"), plan.by_name.at("ustack_mappings"),
                         plan.by_name.at("ustack_blocks"), way_back->second};
}

void emit_user_stack_walk(BpfEmitter &out, const UserStackWalk &walk, const UserRegisterPlace &place, uint32_t frames,
                          uint32_t stack_bytes, BpfEmitter::Label fallback, const MainStackStart &main_stack) {
    if (frames == 0 || frames > kMaxUserStackFrames)
        throw Refusal("ustack() of more than " + std::to_string(kMaxUserStackFrames) +
                      " frames is not available in the kernel path");
    // Each step's stop and fallback jump to the step's end, which jumps on
    // to the next step's: a BPF jump reaches 32767 instructions, and the
    // kernel lengthens the program as it inlines the lookups.
    BpfEmitter::Label stop = out.new_label();
    std::vector<BpfEmitter::Label> stops, fallbacks;
    for (uint32_t i = 1; i < frames; i++) {
        stops.push_back(out.new_label());
        fallbacks.push_back(out.new_label());
    }
    stops.push_back(stop);
    fallbacks.push_back(fallback);
    emit_process_gate(out, walk, fallbacks.front());
    out.store_imm(kW, R10, frame::kIndex, 0);
    emit_map_lookup(out, walk.state_map, frame::kIndex);
    out.jump_imm(kJeq, R0, 0, fallbacks.front());
    out.mov(R9, R0);
    out.store_imm(kDw, R9, state::kZero, 0);
    for (uint32_t i = 1; i < frames; i++)
        out.store_imm(kDw, R9, static_cast<int16_t>(state::kFrames + 8 * i), 0);
    emit_load_registers(out, place, fallbacks.front());
    out.store_imm(kDw, R9, state::kBpKnown, 1);
    emit_copy_stack(out, stack_bytes, main_stack, fallbacks.front());
    for (uint32_t i = 1; i < frames; i++) {
        BpfEmitter::Label next = out.new_label();
        emit_step(out, walk, i, stops[i - 1], fallbacks[i - 1]);
        out.jump(next);
        out.bind(stops[i - 1]);
        out.jump(stops[i]);
        out.bind(fallbacks[i - 1]);
        out.jump(fallbacks[i]);
        out.bind(next);
    }
    out.bind(stop);
}

void emit_copy_user_stack(BpfEmitter &out, Reg dst, int16_t offset, uint32_t frames) {
    for (uint32_t i = 0; i < frames; i++) {
        out.load(kDw, R1, R9, static_cast<int16_t>(state::kFrames + 8 * i));
        out.store(kDw, dst, static_cast<int16_t>(offset + 8 * i), R1);
    }
}

void emit_user_stack_state(BpfEmitter &out, const UserStackWalk &walk, BpfEmitter::Label missing) {
    out.store_imm(kW, R10, frame::kIndex, 0);
    emit_map_lookup(out, walk.state_map, frame::kIndex);
    out.jump_imm(kJeq, R0, 0, missing);
    out.mov(R9, R0);
}

void emit_way_back(BpfEmitter &out, const UserStackWalk &walk) {
    out.mov(R1, R6);
    out.load_map(R2, walk.way_back_map);
    out.mov_imm(R3, 0);
    out.call(Helper::TailCall);
    out.mov_imm(R0, 0);
    out.exit();
}

} // namespace dtrace::fastpath
