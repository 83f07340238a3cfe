// kernel_frame.h: what the fast path's code generators share: how a
// generated program's stack frame is laid out, the maps a set of programs
// uses (the map plan: created by the plugin, read back at snapshot time),
// the shape of the probes' BPF context, and the refusal a generator throws
// when a clause cannot run in the kernel.
#pragma once

#include "compiler/program.h"
#include "fastpath/probe_context.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <dtrace/provider.h>

namespace dtrace::fastpath {

// Why a clause stays in user space, in words for -x fastpath=explain.
struct Refusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The BPF stack frame (offsets from r10, which points past its top). DIF
// registers live in memory: a clause's DIFOs are short, and the verifier
// then sees every value at a fixed place.
namespace frame {
inline constexpr int16_t dif_register(unsigned r) {
    return static_cast<int16_t>(-8 * static_cast<int>(r));
} // 1..7
inline constexpr int16_t kResult = -64; // a DIFO's returned integer
inline constexpr unsigned kMaxClauseLocals = 8;
inline constexpr int16_t clause_local(unsigned i) {
    return static_cast<int16_t>(-72 - 8 * static_cast<int>(i));
}
inline constexpr int16_t kComm = -144; // execname, 16 bytes zero-padded
inline constexpr int16_t kTimestamp = -152;
inline constexpr int16_t kPidTgid = -160;
inline constexpr int16_t kUidGid = -168;
inline constexpr int16_t kReturnValue = -176; // a syscall return's arg0 (-1 on failure)
inline constexpr int16_t kErrno = -184;
inline constexpr int16_t kAggValue = -192;
inline constexpr int16_t kAggIncrement = -200;
inline constexpr int16_t kVarKey = -208; // thread-local key: the thread id
inline constexpr int16_t kVarValue = -216;
inline constexpr int16_t kIndex = -224; // a u32 array index (drops, zero value)
inline constexpr uint32_t kMaxKeyBytes = 128;
inline constexpr int16_t kKey = -224 - static_cast<int16_t>(kMaxKeyBytes); // an aggregation's key tuple
inline constexpr uint32_t kMaxTupleBytes = 128;
inline constexpr int16_t kTuple = kKey - static_cast<int16_t>(kMaxTupleBytes); // DIF's tuple stack: an array's key
inline constexpr int16_t kTupleThread = kTuple - 8;    // a self-> array's key: the thread id, then the tuple
inline constexpr int16_t kTaskWord = kTupleThread - 8; // a word read from the current task (ppid, vtimestamp)
// Pointers kept across the clauses of a firing (the verifier tracks spilled
// pointers): the CPU's scratch (kernel_strings.h), the probe's entry of a
// program shared by probes (shared_probes.h).
inline constexpr int16_t kScratch = kTaskWord - 8;
inline constexpr int16_t kProbeInfo = kScratch - 8; // -512: the frame's last slot
} // namespace frame

inline constexpr uint32_t kStringKeyBytes = 16; // a string key in the kernel: execname's room (TASK_COMM_LEN)
// A string in kernel memory (a copyinstr() result, a probe name of a shared
// program) takes MapPlan::string_bytes, at most this.
inline constexpr uint32_t kMaxStringBytes = 1024;

// Where a probe's context holds the user registers a walk of the user
// stack starts from: byte offsets of 8-byte words (dtrace_fastpath_probe),
// in the context, or (`in_task`) in the current task's struct pt_regs.
struct UserRegisterPlace {
    int16_t ip = 0, sp = 0, bp = 0;
    bool in_task = false;

    friend auto operator<=>(const UserRegisterPlace &, const UserRegisterPlace &) = default;
};

// Where the kernel keeps the start of a process's main stack: task_struct's
// mm, mm_struct's start_stack (dtrace_fastpath_probe; 0: unknown).
struct MainStackStart {
    uint32_t task_mm = 0, mm_start_stack = 0;

    bool known() const { return task_mm != 0 && mm_start_stack != 0; }
    friend auto operator<=>(const MainStackStart &, const MainStackStart &) = default;
};

// How the probes of one program hold their event (dtrace_fastpath_probe).
struct ProbeShape {
    uint32_t nargs = 0;
    uint32_t arg_offset = 0;
    bool syscall_return = false;
    // Offsets in the kernel's task_struct (dtrace_fastpath_probe); 0: unknown.
    uint32_t task_real_parent = 0, task_tgid = 0, task_exec_runtime = 0;
    ProbeContext context; // tracepoint fields, another task's builtins, raw tracepoints (probe_context.h)
    // The context word that tells the probes apart (shared_probes.h); size 0: none.
    uint32_t probe_word_offset = 0, probe_word_size = 0;
    // The plugin tells the tracing machinery's frames atop a kernel stack
    // (dtrace_fastpath_ops.kernel_stack_skip): stack() can run in the kernel.
    bool kernel_stacks = false;
    // The plugin writes the probe's process's table into the walk of user
    // stacks' maps (dtrace_fastpath_ops.fill_user_stack_maps, user_stacks.h),
    // gives the way back to user space for an event the walk declines
    // (fill_way_back), and the context holds the user registers at
    // `user_registers` (DTRACE_FASTPATH_USER_REGISTERS): ustack() keys can
    // run in the kernel.
    bool user_stacks = false;
    std::string user_stacks_unavailable; // without user_stacks, why (the plugin's words; empty: not said)
    UserRegisterPlace user_registers;
    MainStackStart main_stack; // known: a walk copies a main thread's stack to its start only

    friend auto operator<=>(const ProbeShape &, const ProbeShape &) = default;
};

// The probe a program of its own serves: what a clause that records (its
// enabled probe ids) or reads the probe's names needs to know.
struct ProbeIdentity {
    std::string provider, module, function, name;
    std::vector<uint32_t> epids; // per clause of the program, in order
    uint64_t word = 0;           // its ProbeShape::probe_word (shared_probes.h)
};

// How one clause's record lies in the kernel's ring (kernel_records.h).
struct RecordField {
    // String: MapPlan::string_bytes zero-padded bytes (a string in kernel memory).
    // KernelStack: a stack()'s kernel frames (kernel_stacks.h).
    enum class Kind { Integer, Execname, Constant, String, KernelStack } kind = Kind::Integer;
    std::string text;      // Constant: the string (written by user space, not the kernel)
    dif::TypeDesc stack{}; // KernelStack: the stack(n) recorded
};
struct RecordLayout {
    std::vector<RecordField> fields;
    uint32_t bytes = 0; // in the kernel: the header and the fields
};

struct MapSpec {
    dtrace_bpf_map_type type = DTRACE_BPF_MAP_HASH;
    uint32_t key_size = 0;
    uint32_t value_size = 0;
    uint32_t max_entries = 0;
    std::string name;
};

// One aggregation updated in the kernel: its per-CPU hash map and how its
// keys and values are laid out there.
struct KernelAggregation {
    const compiler::AggregationDecl *decl = nullptr;
    const compiler::Program *program = nullptr; // a program whose id `decl->id` names it
    uint32_t map = 0;
    // Each an 8-byte integer, a string_bytes string or a stack()'s kernel frames (key_part_bytes()).
    std::vector<dif::TypeDesc> key_types;
    uint32_t key_bytes = 0;
    uint32_t string_bytes = kStringKeyBytes; // a string key's bytes
    bool key_in_scratch = false;             // built in the scratch map (larger than the frame's room)
    uint32_t value_words = 0;
    // No key, and a function whose first word counts the firings (count,
    // avg, min, max, stddev): a per-CPU array of one entry (a lookup the
    // kernel inlines, never full), whose entry counts as absent until fired.
    bool single_entry = false;
};

// The maps of every program of a session, by name, with their sizes.
struct MapPlan {
    static constexpr uint32_t kDrops = 0;     // per-CPU u64 counters: aggregation, dynamic variable, record drops
    static constexpr uint32_t kZeroValue = 1; // one zeroed value, the first value of a new aggregation entry
    static constexpr uint32_t kAggregationDrops = 0, kVariableDrops = 1, kRecordDrops = 2;

    size_t aggregation_entries = 4096; // from aggsize
    size_t variable_entries = 4096;    // from dynvarsize
    size_t ring_bytes = 1u << 22;      // from bufsize
    int64_t wall_offset_ns = 0;        // walltimestamp - timestamp (CLOCK_REALTIME - CLOCK_MONOTONIC)
    uint32_t strsize = 256;            // the strsize option: copyinstr()'s bound
    // A string in kernel memory: the longest string the programs can see
    // (size_strings()), a multiple of 8, kStringKeyBytes at least.
    uint32_t string_bytes = kStringKeyBytes;
    std::vector<MapSpec> maps;
    std::map<std::string, uint32_t> by_name;
    std::map<std::string, KernelAggregation> aggregations; // by aggregation name
    std::map<uint32_t, RecordLayout> records;              // by enabled probe id
    // Entries the installer writes once the maps exist (shared_probes.h).
    struct Entry {
        uint32_t map;
        std::string key, value;
    };
    std::vector<Entry> initial_entries;

    MapPlan();
    uint32_t add(const std::string &name, MapSpec spec);
};

} // namespace dtrace::fastpath
