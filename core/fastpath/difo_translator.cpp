// difo_translator.cpp: DIF instructions to BPF (see difo_translator.h).
#include "fastpath/difo_translator.h"

#include "dif/builtins.h"
#include "dif/subroutines.h"
#include "fastpath/kernel_records.h"

#include <array>
#include <cstring>
#include <optional>

namespace dtrace::fastpath {

using namespace bpf;
using dif::Op;
using dif::VarId;

namespace {

constexpr int64_t kMaxErrno = 4095;

std::string builtin_name(uint32_t id) {
    const dif::BuiltinInfo *info = dif::builtin_info(id);
    return info ? info->name : "builtin " + std::to_string(id);
}

const dif::Variable *variable_of(const dif::Difo &difo, uint32_t id, dif::Scope scope) {
    for (const dif::Variable &v : difo.vars)
        if (v.id == id && v.scope == scope)
            return &v;
    return nullptr;
}

std::string string_at(const dif::Difo &difo, uint32_t offset) {
    if (offset >= difo.strtab.size())
        throw Refusal("a string constant out of its table");
    return std::string(difo.strtab.c_str() + offset);
}

// A string as the kernel holds execname: 16 bytes, zero-padded (truncated
// beyond), as two little-endian words.
std::array<uint64_t, 2> string_words(const std::string &text) {
    char bytes[kStringKeyBytes] = {};
    std::memcpy(bytes, text.data(), std::min<size_t>(text.size(), sizeof bytes));
    std::array<uint64_t, 2> words;
    std::memcpy(words.data(), bytes, sizeof bytes);
    return words;
}

} // namespace

void DifoValue::expect_integer(const char *refusal) const {
    if (kind == Kind::Buffer)
        throw Refusal(kCopyinBytesAsValue);
    if (kind != Kind::Integer)
        throw Refusal(refusal);
}

KernelString DifoValue::string() const {
    switch (kind) {
    case Kind::Execname:
        return KernelString{KernelString::Kind::Execname};
    case Kind::Constant:
        return KernelString{KernelString::Kind::Constant, text};
    case Kind::Memory:
        return memory;
    case Kind::Buffer:
        throw Refusal(kCopyinBytesAsValue);
    case Kind::Integer:
        break;
    }
    throw Refusal("an integer where a string is wanted");
}

struct DifoTranslator::State {
    std::array<Kind, dif::kRegisterCount> regs;
    bool reachable = true;
    std::map<size_t, std::array<Kind, dif::kRegisterCount>> pending; // kinds arriving by a branch
    std::map<size_t, BpfEmitter::Label> labels;
    BpfEmitter::Label end = 0;
    std::optional<DifoValue> returned;
    // The tuple stack's bytes, written at frame::kTuple as it is pushed (D's
    // types keep an array's key types the same at every use).
    uint32_t tuple_bytes = 0;
    std::vector<Kind> tuple; // the kinds pushed

    void merge_into(size_t target) {
        auto [it, fresh] = pending.try_emplace(target, regs);
        if (fresh)
            return;
        for (size_t r = 0; r < regs.size(); r++)
            if (!(it->second[r] == regs[r])) {
                const bool integers = it->second[r].tag == Kind::Integer && regs[r].tag == Kind::Integer;
                const bool above_user = it->second[r].above_user || regs[r].above_user;
                it->second[r] = Kind{integers ? Kind::Integer : Kind::Mixed};
                it->second[r].above_user = integers && above_user;
            }
    }
};

void load_dif_register(BpfEmitter &out, Reg dst, uint8_t r) {
    if (r == dif::kZeroRegister)
        out.mov_imm(dst, 0);
    else
        out.load(kDw, dst, R10, frame::dif_register(r));
}

void store_dif_register(BpfEmitter &out, uint8_t r, Reg src) {
    if (r != dif::kZeroRegister)
        out.store(kDw, R10, frame::dif_register(r), src);
}

void emit_map_lookup(BpfEmitter &out, uint32_t map, int16_t key_offset) {
    out.load_map(R1, map);
    out.mov(R2, R10);
    out.alu_imm(kAdd, R2, key_offset);
    out.call(Helper::MapLookupElem);
}

void emit_count_drop(BpfEmitter &out, uint32_t which) {
    BpfEmitter::Label done = out.new_label();
    out.store_imm(kW, R10, frame::kIndex, static_cast<int32_t>(which));
    emit_map_lookup(out, MapPlan::kDrops, frame::kIndex);
    out.jump_imm(kJeq, R0, 0, done);
    out.load(kDw, R1, R0, 0);
    out.alu_imm(kAdd, R1, 1);
    out.store(kDw, R0, 0, R1);
    out.bind(done);
}

void note_builtin_uses(const dif::Difo &difo, BuiltinUses &uses) {
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        if (in.op == Op::Ldtv || in.op == Op::Sttv || in.op == Op::Ldta || in.op == Op::Stta)
            uses.pid_tgid = true; // the thread-local key
        if (in.op == Op::Ldga && in.imm == uint32_t(VarId::Args))
            uses.return_value = true;
        if (in.op == Op::Ldlv || in.op == Op::Stlv)
            uses.clause_locals = true;
        if (in.op == Op::Call && (in.imm == uint32_t(dif::Subr::Copyinstr) || in.imm == uint32_t(dif::Subr::Copyin)))
            uses.scratch = uses.timestamp = true; // a fault's record has the timestamp
        if (in.op != Op::Ldgv)
            continue;
        switch (VarId(in.imm)) {
        case VarId::Execname:
            uses.execname = true;
            break;
        case VarId::Timestamp:
        case VarId::Walltimestamp:
            uses.timestamp = true;
            break;
        case VarId::Pid:
        case VarId::Tid:
            uses.pid_tgid = true;
            break;
        case VarId::Uid:
        case VarId::Gid:
            uses.uid_gid = true;
            break;
        case VarId::Arg0:
        case VarId::Arg1:
        case VarId::Errno:
            uses.return_value = true;
            break;
        default:
            break;
        }
    }
}

DifoValue DifoTranslator::emit(const dif::Difo &difo) {
    State state;
    state.regs[dif::kZeroRegister] = Kind{Kind::Integer, true, 0};
    state.end = out_.new_label();
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        if ((in.op == Op::Ba || in.op == Op::Bz || in.op == Op::Bnz) && !state.labels.count(in.imm))
            state.labels[in.imm] = out_.new_label();
    }
    for (size_t pc = 0; pc < difo.code.size(); pc++) {
        if (auto label = state.labels.find(pc); label != state.labels.end())
            out_.bind(label->second);
        if (auto arriving = state.pending.find(pc); arriving != state.pending.end()) {
            if (state.reachable)
                state.merge_into(pc);
            state.regs = state.pending[pc];
            state.reachable = true;
        }
        if (!state.reachable)
            continue;
        emit_instruction(difo, pc, state);
    }
    out_.bind(state.end);
    if (!state.returned)
        throw Refusal("a DIF object that never returns");
    return *state.returned;
}

void DifoTranslator::emit_instruction(const dif::Difo &difo, size_t pc, State &state) {
    const dif::Instr in = dif::decode(difo.code[pc]);
    auto &regs = state.regs;
    auto integer = [&](uint8_t r) -> const Kind & { return require_integer(regs[r]); };
    auto set = [&](uint8_t r, Kind k) {
        if (r != dif::kZeroRegister)
            regs[r] = std::move(k);
    };
    // A known displacement into copyin()'s bytes moves within them (code-free: loads add it).
    auto displace = [&](uint8_t buffer, uint8_t other, bool subtract) {
        const Kind &by = integer(other);
        if (!by.known)
            throw Refusal("an offset into copyin()'s bytes not known at compile time");
        Kind moved = regs[buffer];
        moved.value = subtract ? moved.value - by.value : moved.value + by.value;
        set(in.rd, moved);
    };
    auto binary = [&](uint8_t op) {
        if (op == kAdd && regs[in.r1].tag == Kind::Buffer)
            return displace(in.r1, in.r2, false);
        if (op == kAdd && regs[in.r2].tag == Kind::Buffer)
            return displace(in.r2, in.r1, false);
        if (op == kSub && regs[in.r1].tag == Kind::Buffer)
            return displace(in.r1, in.r2, true);
        const Kind &left = integer(in.r1);
        const Kind &right = integer(in.r2);
        // A sum or difference of constants stays known (a provider's record
        // address plus a member's offset: refuse_provider_address()); one
        // with a constant above the user half, or a sum already above it,
        // stays above it (fds[fd]: the record of `fd`).
        Kind result{Kind::Integer};
        if (left.known && right.known && (op == kAdd || op == kSub))
            result = Kind{Kind::Integer, true, op == kAdd ? left.value + right.value : left.value - right.value};
        else if (op == kAdd || op == kSub)
            result.above_user = above_user_half(left) || (op == kAdd && above_user_half(right));
        load_dif_register(out_, R1, in.r1);
        load_dif_register(out_, R2, in.r2);
        out_.alu(op, R1, R2);
        store_dif_register(out_, in.rd, R1);
        set(in.rd, result);
    };
    auto divide = [&](uint8_t op, bool is_signed) {
        integer(in.r1);
        const Kind &divisor = integer(in.r2);
        // The kernel cannot fault as DIF does on a zero divisor, nor record
        // the error: only a known non-zero divisor goes to the kernel.
        if (!divisor.known || divisor.value == 0 || (is_signed && int64_t(divisor.value) == -1))
            throw Refusal("division by a value not known to be non-zero");
        load_dif_register(out_, R1, in.r1);
        load_dif_register(out_, R2, in.r2);
        if (is_signed)
            out_.signed_alu(op, R1, R2);
        else
            out_.alu(op, R1, R2);
        store_dif_register(out_, in.rd, R1);
        set(in.rd, Kind{Kind::Integer});
    };
    auto compare = [&](uint8_t jump_op) {
        integer(in.r1);
        integer(in.r2);
        BpfEmitter::Label holds = out_.new_label();
        load_dif_register(out_, R1, in.r1);
        load_dif_register(out_, R2, in.r2);
        out_.mov_imm(R3, 1);
        out_.jump_reg(jump_op, R1, R2, holds);
        out_.mov_imm(R3, 0);
        out_.bind(holds);
        store_dif_register(out_, in.rd, R3);
        set(in.rd, Kind{Kind::Integer});
    };
    auto branch_target = [&]() {
        state.merge_into(in.imm);
        return state.labels.at(in.imm);
    };
    switch (in.op) {
    case Op::Nop:
        return;
    case Op::Flushts:
        state.tuple_bytes = 0;
        state.tuple.clear();
        return;
    case Op::Or:
        return binary(kOr);
    case Op::Xor:
        return binary(kXor);
    case Op::And:
        return binary(kAnd);
    case Op::Shl:
        return binary(kLsh); // BPF's shifts use the count's low 6 bits, as DIF's
    case Op::Srl:
        return binary(kRsh);
    case Op::Sra:
        return binary(kArsh);
    case Op::Sub:
        return binary(kSub);
    case Op::Add:
        return binary(kAdd);
    case Op::Mul:
        return binary(kMul);
    case Op::Udiv:
        return divide(kDiv, false);
    case Op::Urem:
        return divide(kMod, false);
    case Op::Sdiv:
        return divide(kDiv, true);
    case Op::Srem:
        return divide(kMod, true);
    case Op::Not:
        integer(in.r1);
        load_dif_register(out_, R1, in.r1);
        out_.alu_imm(kXor, R1, -1);
        store_dif_register(out_, in.rd, R1);
        return set(in.rd, Kind{Kind::Integer});
    case Op::Mov:
        if (regs[in.r1].tag == Kind::Integer) {
            load_dif_register(out_, R1, in.r1);
            store_dif_register(out_, in.rd, R1);
        }
        return set(in.rd, regs[in.r1]);
    case Op::Seq:
        return compare(kJeq);
    case Op::Sne:
        return compare(kJne);
    case Op::Slt:
        return compare(kJslt);
    case Op::Sle:
        return compare(kJsle);
    case Op::Sltu:
        return compare(kJlt);
    case Op::Sleu:
        return compare(kJle);
    case Op::Scmp:
        emit_string_compare(regs[in.r1], regs[in.r2], in.rd);
        return set(in.rd, Kind{Kind::Integer});
    case Op::Setx: {
        if (in.imm >= difo.inttab.size())
            throw Refusal("an integer constant out of its table");
        const uint64_t value = difo.inttab[in.imm];
        out_.load_imm64(R1, value);
        store_dif_register(out_, in.rd, R1);
        return set(in.rd, Kind{Kind::Integer, true, value});
    }
    case Op::Sets:
        return set(in.rd, Kind{Kind::Constant, false, 0, string_at(difo, in.imm)});
    case Op::Sext:
    case Op::Zext: {
        integer(in.r1);
        if (in.imm == 0 || in.imm >= 64)
            throw Refusal("an extension of " + std::to_string(in.imm) + " bits");
        const Kind source = regs[in.r1];
        load_dif_register(out_, R1, in.r1);
        out_.alu_imm(kLsh, R1, static_cast<int32_t>(64 - in.imm));
        out_.alu_imm(in.op == Op::Sext ? kArsh : kRsh, R1, static_cast<int32_t>(64 - in.imm));
        store_dif_register(out_, in.rd, R1);
        if (!source.known)
            return set(in.rd, Kind{Kind::Integer});
        // A constant stays known (copyinstr()'s length, a divisor).
        const unsigned shift = 64 - in.imm;
        const uint64_t value =
            in.op == Op::Sext ? uint64_t(int64_t(source.value << shift) >> shift) : (source.value << shift) >> shift;
        return set(in.rd, Kind{Kind::Integer, true, value});
    }
    case Op::Ba:
        out_.jump(branch_target());
        state.reachable = false;
        return;
    case Op::Bz:
    case Op::Bnz:
        integer(in.r1);
        load_dif_register(out_, R1, in.r1);
        out_.jump_imm(in.op == Op::Bz ? kJeq : kJne, R1, 0, branch_target());
        return;
    case Op::Ret: {
        DifoValue value;
        const Kind &k = regs[in.r1];
        if (k.tag == Kind::Integer) {
            load_dif_register(out_, R1, in.r1);
            out_.store(kDw, R10, frame::kResult, R1);
        } else if (k.tag == Kind::Execname) {
            value.kind = DifoValue::Kind::Execname;
        } else if (k.tag == Kind::Constant) {
            value.kind = DifoValue::Kind::Constant;
            value.text = k.text;
        } else if (k.tag == Kind::Memory) {
            value.kind = DifoValue::Kind::Memory;
            value.memory = k.memory;
        } else if (k.tag == Kind::Buffer) {
            value.kind = DifoValue::Kind::Buffer;
        } else {
            throw Refusal("a value that may be a string or an integer");
        }
        if (state.returned && (state.returned->kind != value.kind || state.returned->text != value.text ||
                               state.returned->memory != value.memory))
            throw Refusal("a string result that depends on a condition");
        state.returned = value;
        out_.jump(state.end);
        state.reachable = false;
        return;
    }
    case Op::Ldgv:
    case Op::Stgv: {
        if (in.op == Op::Ldgv && in.imm < dif::kFirstUserVariable)
            return emit_builtin(VarId(in.imm), in.rd, state);
        const dif::Variable *var = variable_of(difo, in.imm, dif::Scope::Global);
        if (!var || var->type.kind != dif::TypeDesc::Kind::Integer)
            throw Refusal("global variables other than integers are not available in the kernel path");
        if (in.op == Op::Stgv)
            integer(in.r1);
        emit_global(*var, in.op == Op::Ldgv ? in.rd : in.r1, in.op == Op::Stgv);
        if (in.op == Op::Ldgv)
            set(in.rd, Kind{Kind::Integer});
        return;
    }
    case Op::Ldga:
        if (in.imm == uint32_t(VarId::Args)) {
            const Kind &index = integer(in.r1);
            if (!index.known)
                throw Refusal("args[] with an index not known at compile time");
            emit_arg(static_cast<uint32_t>(index.value), in.rd, "args[" + std::to_string(index.value) + "]");
            return set(in.rd, Kind{Kind::Integer});
        }
        if (in.imm < dif::kFirstUserVariable)
            throw Refusal(builtin_name(in.imm) + "[] is not available in the kernel path");
        [[fallthrough]];
    case Op::Stga:
    case Op::Ldta:
    case Op::Stta: {
        const bool store = in.op == Op::Stga || in.op == Op::Stta;
        const dif::Scope scope = in.op == Op::Ldga || in.op == Op::Stga ? dif::Scope::Global : dif::Scope::ThreadLocal;
        const dif::Variable *var = variable_of(difo, in.imm, scope);
        if (!var || var->type.kind != dif::TypeDesc::Kind::Integer)
            throw Refusal("associative arrays of values other than integers are not available in the kernel path");
        if (store)
            integer(in.r1);
        emit_array(*var, store ? in.r1 : in.rd, store, state);
        if (!store)
            set(in.rd, Kind{Kind::Integer});
        return;
    }
    case Op::Pushtv:
        integer(in.r1);
        return emit_push(regs[in.r1], in.r1, state);
    case Op::Pushts:
        return emit_push(regs[in.r1], in.r1, state);
    case Op::Pushtr:
    case Op::Popts:
        // A by-reference tuple entry feeds a subroutine or an array: name the subroutine if one follows.
        for (size_t next = pc + 1; next < difo.code.size(); next++)
            if (dif::decode(difo.code[next]).op == Op::Call)
                return emit_instruction(difo, next, state);
        throw Refusal("associative arrays with keys other than integers and strings are not available in the kernel "
                      "path");
    case Op::Ldlv:
    case Op::Stlv:
        return emit_clause_local(in, pc, difo, state);
    case Op::Ldtv:
    case Op::Sttv: {
        const dif::Variable *var = variable_of(difo, in.imm, dif::Scope::ThreadLocal);
        if (!var || var->type.kind != dif::TypeDesc::Kind::Integer)
            throw Refusal("self-> variables other than integers are not available in the kernel path");
        if (in.op == Op::Sttv)
            integer(in.r1);
        emit_thread_local(*var, in.op == Op::Ldtv ? in.rd : in.r1, in.op == Op::Sttv);
        if (in.op == Op::Ldtv)
            set(in.rd, Kind{Kind::Integer});
        return;
    }
    case Op::Call: {
        if (in.imm == uint32_t(dif::Subr::Copyinstr))
            return emit_copyinstr(in.rd, pc, state);
        if (in.imm == uint32_t(dif::Subr::Copyin))
            return emit_copyin(in.rd, pc, state);
        const dif::SubrInfo *subr = dif::subr_info(in.imm);
        throw Refusal(std::string(subr ? subr->name : "a subroutine") + "() is not available in the kernel path");
    }
    default:
        if (dif::load_shape(in.op).width != 0 && regs[in.r1].tag == Kind::Buffer)
            return emit_buffer_load(in, regs[in.r1], state);
        throw Refusal("memory loads and stores are not available in the kernel path");
    }
}

void DifoTranslator::emit_builtin(VarId id, uint8_t rd, State &state) {
    auto integer_result = [&] {
        store_dif_register(out_, rd, R1);
        if (rd != dif::kZeroRegister)
            state.regs[rd] = Kind{Kind::Integer};
    };
    switch (id) {
    case VarId::Execname:
        if (rd != dif::kZeroRegister)
            state.regs[rd] = Kind{Kind::Execname};
        return;
    case VarId::ProbeProv:
    case VarId::ProbeMod:
    case VarId::ProbeFunc:
    case VarId::ProbeName: {
        const int which = static_cast<int>(uint32_t(id) - uint32_t(VarId::ProbeProv));
        if (rd == dif::kZeroRegister)
            return;
        if (shared_) {
            Kind k{Kind::Memory};
            k.memory = KernelString{KernelString::Kind::Memory, "", StringBase::ProbeInfo,
                                    probe_name_offset(plan_, *shared_, which), which};
            state.regs[rd] = k;
            return;
        }
        if (!probe_)
            throw Refusal(builtin_name(uint32_t(id)) + " without the probe's own program");
        const std::string *names[] = {&probe_->provider, &probe_->module, &probe_->function, &probe_->name};
        state.regs[rd] = Kind{Kind::Constant, false, 0, *names[which]};
        return;
    }
    case VarId::Pid:
        out_.load(kDw, R1, R10, frame::kPidTgid);
        out_.alu_imm(kRsh, R1, 32);
        return integer_result();
    case VarId::Tid:
    case VarId::Uid:
        out_.load(kDw, R1, R10, id == VarId::Tid ? frame::kPidTgid : frame::kUidGid);
        out_.alu_imm(kLsh, R1, 32);
        out_.alu_imm(kRsh, R1, 32);
        return integer_result();
    case VarId::Gid:
        out_.load(kDw, R1, R10, frame::kUidGid);
        out_.alu_imm(kRsh, R1, 32);
        return integer_result();
    case VarId::Timestamp:
        out_.load(kDw, R1, R10, frame::kTimestamp);
        return integer_result();
    case VarId::Walltimestamp:
        // The event's time on the wall clock (the user-space path reads it when the event arrives).
        out_.load(kDw, R1, R10, frame::kTimestamp);
        out_.load_imm64(R2, static_cast<uint64_t>(plan_.wall_offset_ns));
        out_.alu(kAdd, R1, R2);
        return integer_result();
    case VarId::Ppid:
        if (shape_.task_real_parent == 0 || shape_.task_tgid == 0)
            throw Refusal(
                "ppid is not available in the kernel path (the plugin does not know the kernel's task_struct)");
        emit_thread_task(out_, shape_.context);
        emit_read_task_word(R0, shape_.task_real_parent, 8);
        out_.load(kDw, R3, R10, frame::kTaskWord);
        emit_read_task_word(R3, shape_.task_tgid, 4);
        out_.load(kDw, R1, R10, frame::kTaskWord);
        return integer_result();
    case VarId::Vtimestamp:
        if (shape_.task_exec_runtime == 0)
            throw Refusal(
                "vtimestamp is not available in the kernel path (the plugin does not know the kernel's task_struct)");
        emit_thread_task(out_, shape_.context);
        emit_read_task_word(R0, shape_.task_exec_runtime, 8);
        out_.load(kDw, R1, R10, frame::kTaskWord);
        return integer_result();
    case VarId::Cpu:
        out_.call(Helper::GetSmpProcessorId);
        out_.mov(R1, R0);
        return integer_result();
    case VarId::Errno:
        if (shape_.syscall_return)
            out_.load(kDw, R1, R10, frame::kErrno);
        else
            out_.mov_imm(R1, 0);
        return integer_result();
    default:
        if (id >= VarId::Arg0 && id <= VarId::Arg9) {
            emit_arg(uint32_t(id) - uint32_t(VarId::Arg0), rd, builtin_name(uint32_t(id)));
            if (rd != dif::kZeroRegister)
                state.regs[rd] = Kind{Kind::Integer};
            return;
        }
        throw Refusal(builtin_name(uint32_t(id)) + " is not available in the kernel path");
    }
}

// frame::kTaskWord = the `size` bytes at `base` + `offset` in kernel memory
// (zero-extended; 0 when the read fails).
void DifoTranslator::emit_read_task_word(Reg base, uint32_t offset, int32_t size) {
    out_.mov(R3, base);
    out_.alu_imm(kAdd, R3, static_cast<int32_t>(offset));
    out_.store_imm(kDw, R10, frame::kTaskWord, 0);
    out_.mov(R1, R10);
    out_.alu_imm(kAdd, R1, frame::kTaskWord);
    out_.mov_imm(R2, size);
    out_.call(Helper::ProbeReadKernel);
}

// argN: the event's words (a syscall return: its value, twice), or where
// the probe's table says; beyond the probe's arguments, 0, as the
// user-space path reads missing arguments. `name`: how the clause names it.
void DifoTranslator::emit_arg(uint32_t index, uint8_t rd, const std::string &name) {
    if (shape_.syscall_return) {
        if (index < 2)
            out_.load(kDw, R1, R10, frame::kReturnValue);
        else
            out_.mov_imm(R1, 0);
    } else if (shape_.context.arg_fields()) {
        emit_table_arg(out_, shape_.context, shape_.nargs, index, name);
    } else if (index < shape_.nargs) {
        out_.load(kDw, R1, R6, static_cast<int16_t>(shape_.arg_offset + 8 * index));
    } else {
        out_.mov_imm(R1, 0);
    }
    store_dif_register(out_, rd, R1);
}

// rd = strcmp(left, right) as -1, 0 or 1 (kernel_strings.h).
void DifoTranslator::emit_string_compare(const Kind &left, const Kind &right, uint8_t rd) {
    const KernelString l = string_of(left), r = string_of(right);
    if (l == r) { // the same string
        out_.mov_imm(R1, 0);
        return store_dif_register(out_, rd, R1);
    }
    emit_compare_strings(out_, l, r, plan_.string_bytes);
    store_dif_register(out_, rd, R3);
}

KernelString DifoTranslator::string_of(const Kind &k) const {
    switch (k.tag) {
    case Kind::Execname:
        return KernelString{KernelString::Kind::Execname};
    case Kind::Constant:
        return KernelString{KernelString::Kind::Constant, k.text};
    case Kind::Memory:
        return k.memory;
    default:
        throw Refusal(k.tag == Kind::Mixed ? "a value that may be a string or an integer"
                                           : "an integer where a string is wanted");
    }
}

// Whether an integer is known to lie above x86-64's user half: a constant
// there, or such a constant plus an unknown.
bool DifoTranslator::above_user_half(const Kind &k) {
    constexpr uint64_t kUserSpaceEnd = 0x0000800000000000ull;
    return (k.known && k.value >= kUserSpaceEnd) || k.above_user;
}

// An address above x86-64's user half is no process's memory: it is a
// provider's own record (curpsinfo's and curlwpsinfo's twins, fds[]'s),
// which only the plugin answers, in user space.
void DifoTranslator::refuse_provider_address(const Kind &address, const char *what) {
    if (above_user_half(address))
        throw Refusal(std::string(what) +
                      " of a provider's record (as curpsinfo's and fds[]'s), which only user space reads");
}

// copyinstr(addr [, maxlen]): the string at the user address, at most
// strsize - 1 bytes (or maxlen), into a zeroed scratch slot of its own. A
// read that fails writes DTrace's error record (invalid address, the
// address) and ends the clause, as the engine's copyinstr() faults.
void DifoTranslator::emit_copyinstr(uint8_t rd, size_t pc, State &state) {
    if (!faults_allowed_)
        throw Refusal("copyinstr() without its probe's own program (its faults name the probe)");
    if (state.tuple.empty() || state.tuple[0].tag != Kind::Integer || state.tuple.size() > 2)
        throw Refusal("copyinstr() of something other than an address");
    refuse_provider_address(state.tuple[0], "copyinstr()");
    uint32_t size = plan_.strsize;
    if (state.tuple.size() == 2) {
        if (state.tuple[1].tag != Kind::Integer || !state.tuple[1].known)
            throw Refusal("copyinstr() with a length not known at compile time");
        if (state.tuple[1].value < size)
            size = static_cast<uint32_t>(state.tuple[1].value + 1);
    }
    if (size > plan_.string_bytes || size == 0)
        throw Refusal("copyinstr() of more than " + std::to_string(kMaxStringBytes - 1) + " bytes (strsize)");
    if (string_slots_ >= kMaxStringSlots)
        throw Refusal("more than " + std::to_string(kMaxStringSlots) + " copyinstr() calls in a clause");
    const int16_t slot = string_slot_offset(plan_, string_slots_++);
    scratch_map(plan_, static_cast<uint32_t>(slot) + plan_.string_bytes);
    // Zeroed first: the kernel copies up to the NUL, the key and the compare want the padding.
    emit_load_base(out_, R1, StringBase::Scratch);
    for (uint32_t word = 0; word < plan_.string_bytes / 8; word++)
        out_.store_imm(kDw, R1, static_cast<int16_t>(slot + 8 * word), 0);
    out_.alu_imm(kAdd, R1, slot);
    out_.mov_imm(R2, static_cast<int32_t>(size));
    out_.load(kDw, R3, R10, frame::kTuple);
    out_.call(Helper::ProbeReadUserStr);
    emit_read_fault(pc);
    if (rd != dif::kZeroRegister) {
        Kind k{Kind::Memory};
        k.memory = KernelString{KernelString::Kind::Memory, "", StringBase::Scratch, slot};
        state.regs[rd] = k;
    }
}

// A user-memory read's helper returned r0: a negative one writes DTrace's
// error record (invalid address, the address at frame::kTuple) and ends
// the clause, as the engine's copyin() and copyinstr() fault.
void DifoTranslator::emit_read_fault(size_t pc) {
    BpfEmitter::Label read = out_.new_label();
    out_.jump_imm(kJsge, R0, 0, read);
    emit_fault_record(out_, plan_, fault_, static_cast<uint32_t>(pc), dif::FaultKind::BadAddr, frame::kTuple);
    out_.jump(fault_.clause_end);
    out_.bind(read);
}

// copyin(addr, size): `size` bytes (known at compile time) at the user
// address, read at the event into the clause's scratch after its earlier
// copyin() bytes; the clause then loads from them (emit_buffer_load).
void DifoTranslator::emit_copyin(uint8_t rd, size_t pc, State &state) {
    if (!faults_allowed_)
        throw Refusal("copyin() without its probe's own program (its faults name the probe)");
    if (state.tuple.size() != 2 || state.tuple[0].tag != Kind::Integer)
        throw Refusal("copyin() of something other than an address");
    refuse_provider_address(state.tuple[0], "copyin()");
    if (state.tuple[1].tag != Kind::Integer || !state.tuple[1].known)
        throw Refusal("copyin() of a size not known at compile time");
    const uint64_t size = state.tuple[1].value;
    if (size == 0 || size > kMaxCopyinBytes - copyin_bytes_)
        throw Refusal("copyin() of 0 bytes, or of more than " + std::to_string(kMaxCopyinBytes) + " in a clause");
    const int16_t at = copyin_offset(plan_, copyin_bytes_);
    copyin_bytes_ += static_cast<uint32_t>((size + 7) / 8 * 8);
    scratch_map(plan_, static_cast<uint32_t>(copyin_offset(plan_, copyin_bytes_)));
    emit_load_base(out_, R1, StringBase::Scratch);
    out_.alu_imm(kAdd, R1, at);
    out_.mov_imm(R2, static_cast<int32_t>(size));
    out_.load(kDw, R3, R10, frame::kTuple);
    out_.call(Helper::ProbeReadUser);
    emit_read_fault(pc);
    if (rd != dif::kZeroRegister) {
        Kind k{Kind::Buffer};
        k.buffer = at;
        k.buffer_bytes = static_cast<uint32_t>(size);
        state.regs[rd] = k;
    }
}

// A load from copyin()'s bytes (a struct's field, the word a pointer is
// read from), at an offset known at compile time within what was read.
void DifoTranslator::emit_buffer_load(const dif::Instr &in, const Kind &address, State &state) {
    const auto [width, is_signed] = dif::load_shape(in.op);
    const int64_t at = static_cast<int64_t>(address.value) + static_cast<int32_t>(in.imm);
    if (at < 0 || at + width > address.buffer_bytes)
        throw Refusal("a load outside the " + std::to_string(address.buffer_bytes) + " bytes copyin() read");
    if (at % width != 0) // the bytes start 8-aligned in either path; the engine faults on such a load
        throw Refusal("a load of " + std::to_string(width) + " bytes at offset " + std::to_string(at) +
                      " of copyin()'s bytes, not aligned");
    const uint8_t size = width == 1 ? kB : width == 2 ? kH : width == 4 ? kW : kDw;
    emit_load_base(out_, R1, StringBase::Scratch);
    out_.load(size, R1, R1, static_cast<int16_t>(address.buffer + at));
    if (is_signed) {
        out_.alu_imm(kLsh, R1, 64 - 8 * width);
        out_.alu_imm(kArsh, R1, 64 - 8 * width);
    }
    store_dif_register(out_, in.rd, R1);
    if (in.rd != dif::kZeroRegister)
        state.regs[in.rd] = Kind{Kind::Integer};
}

// this->x: an integer in the frame. One that holds copyin()'s bytes keeps
// their kind for the loads of the clause's later DIFOs (its frame slot
// holds their address, which is all another clause could read of it).
void DifoTranslator::emit_clause_local(const dif::Instr &in, size_t pc, const dif::Difo &difo, State &state) {
    const dif::Variable *var = variable_of(difo, in.imm, dif::Scope::ClauseLocal);
    if (!var || var->type.kind != dif::TypeDesc::Kind::Integer)
        throw Refusal("this-> variables other than integers are not available in the kernel path");
    const int16_t slot = frame::clause_local(clause_local_slot(*var));
    if (in.op == Op::Ldlv) {
        if (in.rd == dif::kZeroRegister)
            return;
        if (auto held = buffer_locals_.find(var->id); held != buffer_locals_.end()) {
            state.regs[in.rd] = held->second;
            return;
        }
        out_.load(kDw, R1, R10, slot);
        store_dif_register(out_, in.rd, R1);
        state.regs[in.rd] = Kind{Kind::Integer};
        return;
    }
    const Kind &value = state.regs[in.r1];
    if (value.tag == Kind::Buffer) {
        // Later DIFOs may rely on the store only when every path to here makes it.
        if (!state.pending.empty() && state.pending.rbegin()->first > pc)
            throw Refusal("copyin()'s bytes kept in a this-> variable under a condition");
        buffer_locals_[var->id] = value;
        emit_load_base(out_, R1, StringBase::Scratch);
        out_.alu_imm(kAdd, R1, static_cast<int32_t>(value.buffer + static_cast<int64_t>(value.value)));
        out_.store(kDw, R10, slot, R1);
        return;
    }
    buffer_locals_.erase(var->id);
    require_integer(value);
    load_dif_register(out_, R1, in.r1);
    out_.store(kDw, R10, slot, R1);
}

const DifoTranslator::Kind &DifoTranslator::require_integer(const Kind &k) {
    if (k.tag == Kind::Buffer)
        throw Refusal(kCopyinBytesAsValue);
    if (k.tag != Kind::Integer)
        throw Refusal(k.tag == Kind::Mixed ? "a value that may be a string or an integer"
                                           : "a string where an integer is wanted");
    return k;
}

unsigned DifoTranslator::clause_local_slot(const dif::Variable &var) {
    auto [it, added] = locals_.try_emplace({&program_, var.id}, static_cast<unsigned>(locals_.size()));
    if (it->second >= frame::kMaxClauseLocals)
        throw Refusal("more than " + std::to_string(frame::kMaxClauseLocals) + " this-> variables");
    return it->second;
}

uint32_t DifoTranslator::variable_map(const std::string &name, MapSpec spec) {
    if (auto it = plan_.by_name.find(name); it != plan_.by_name.end()) {
        if (plan_.maps[it->second].key_size != spec.key_size)
            throw Refusal(name + " is used with keys of different types");
        return it->second;
    }
    return plan_.add(name, std::move(spec));
}

// The thread id at r10 + offset (a thread-local variable's key, or its first word).
void DifoTranslator::emit_thread_key(int16_t offset) {
    out_.load(kDw, R1, R10, frame::kPidTgid);
    out_.alu_imm(kLsh, R1, 32);
    out_.alu_imm(kRsh, R1, 32);
    out_.store(kDw, R10, offset, R1);
}

// self->x: a hash map per variable, keyed by the thread id.
void DifoTranslator::emit_thread_local(const dif::Variable &var, uint8_t reg, bool store) {
    const uint32_t map = variable_map(
        "self->" + var.name,
        MapSpec{DTRACE_BPF_MAP_HASH, 8, 8, static_cast<uint32_t>(plan_.variable_entries), "dt_self_" + var.name});
    emit_thread_key(frame::kVarKey);
    emit_dynamic_variable(map, frame::kVarKey, reg, store);
}

// A global scalar: a one-entry array map per variable (0 until stored,
// never freed, as DTrace's).
void DifoTranslator::emit_global(const dif::Variable &var, uint8_t reg, bool store) {
    const uint32_t map = variable_map(var.name, MapSpec{DTRACE_BPF_MAP_ARRAY, 4, 8, 1, "dt_global_" + var.name});
    BpfEmitter::Label absent = out_.new_label();
    out_.store_imm(kW, R10, frame::kIndex, 0);
    emit_map_lookup(out_, map, frame::kIndex);
    if (store) {
        out_.jump_imm(kJeq, R0, 0, absent);
        load_dif_register(out_, R1, reg);
        out_.store(kDw, R0, 0, R1);
        out_.bind(absent);
        return;
    }
    out_.mov_imm(R1, 0);
    out_.jump_imm(kJeq, R0, 0, absent);
    out_.load(kDw, R1, R0, 0);
    out_.bind(absent);
    store_dif_register(out_, reg, R1);
}

// Pushes DIF register `reg` (of kind `value`) on the tuple stack: 8 bytes
// for an integer, 16 for a string (execname's room, zero-padded).
void DifoTranslator::emit_push(const Kind &value, uint8_t reg, State &state) {
    const bool is_string = value.tag == Kind::Execname || value.tag == Kind::Constant;
    if (value.tag == Kind::Memory)
        throw Refusal("associative array keys of strings other than execname and constants of under 16 bytes");
    if (!is_string && value.tag != Kind::Integer)
        throw Refusal("a value that may be a string or an integer");
    const uint32_t size = is_string ? kStringKeyBytes : 8;
    if (state.tuple_bytes + size > frame::kMaxTupleBytes)
        throw Refusal("an associative array key of more than " + std::to_string(frame::kMaxTupleBytes) + " bytes");
    const int16_t at = static_cast<int16_t>(frame::kTuple + state.tuple_bytes);
    if (value.tag == Kind::Integer) {
        load_dif_register(out_, R1, reg);
        out_.store(kDw, R10, at, R1);
    } else if (value.tag == Kind::Execname) {
        for (int16_t word = 0; word < 16; word += 8) {
            out_.load(kDw, R1, R10, static_cast<int16_t>(frame::kComm + word));
            out_.store(kDw, R10, static_cast<int16_t>(at + word), R1);
        }
    } else {
        if (value.text.size() >= kStringKeyBytes)
            throw Refusal("string keys other than execname and constants of under 16 bytes");
        const std::array<uint64_t, 2> words = string_words(value.text);
        for (int word = 0; word < 2; word++) {
            out_.load_imm64(R1, words[word]);
            out_.store(kDw, R10, static_cast<int16_t>(at + 8 * word), R1);
        }
    }
    state.tuple_bytes += size;
    state.tuple.push_back(value);
}

// a[k...] and self->a[k...]: a hash map per array, keyed by the tuple (and
// the thread id first for self->), of integers.
void DifoTranslator::emit_array(const dif::Variable &var, uint8_t reg, bool store, State &state) {
    const bool thread = var.scope == dif::Scope::ThreadLocal;
    if (state.tuple_bytes == 0)
        throw Refusal("an associative array without a key");
    const uint32_t key_bytes = state.tuple_bytes + (thread ? 8 : 0);
    const uint32_t map =
        variable_map((thread ? "self->" : "") + var.name + "[]",
                     MapSpec{DTRACE_BPF_MAP_HASH, key_bytes, 8, static_cast<uint32_t>(plan_.variable_entries),
                             (thread ? "dt_self_" : "dt_array_") + var.name});
    if (thread)
        emit_thread_key(frame::kTupleThread);
    emit_dynamic_variable(map, thread ? frame::kTupleThread : frame::kTuple, reg, store);
}

// The entry of `map` whose key is at r10 + key_offset: read into DIF
// register `reg` (0 when absent), or set from it: storing 0 deletes the
// entry, as DTrace frees it; a store that finds the map full is a dynamic
// variable drop.
void DifoTranslator::emit_dynamic_variable(uint32_t map, int16_t key_offset, uint8_t reg, bool store) {
    BpfEmitter::Label done = out_.new_label();
    if (!store) {
        emit_map_lookup(out_, map, key_offset);
        out_.mov_imm(R1, 0);
        BpfEmitter::Label absent = out_.new_label();
        out_.jump_imm(kJeq, R0, 0, absent);
        out_.load(kDw, R1, R0, 0);
        out_.bind(absent);
        store_dif_register(out_, reg, R1);
        return;
    }
    BpfEmitter::Label remove = out_.new_label();
    load_dif_register(out_, R3, reg);
    out_.jump_imm(kJeq, R3, 0, remove);
    out_.store(kDw, R10, frame::kVarValue, R3);
    out_.load_map(R1, map);
    out_.mov(R2, R10);
    out_.alu_imm(kAdd, R2, key_offset);
    out_.mov(R3, R10);
    out_.alu_imm(kAdd, R3, frame::kVarValue);
    out_.mov_imm(R4, kUpdateAny);
    out_.call(Helper::MapUpdateElem);
    out_.jump_imm(kJeq, R0, 0, done);
    emit_count_drop(out_, MapPlan::kVariableDrops);
    out_.jump(done);
    out_.bind(remove);
    out_.load_map(R1, map);
    out_.mov(R2, R10);
    out_.alu_imm(kAdd, R2, key_offset);
    out_.call(Helper::MapDeleteElem);
    out_.bind(done);
}

} // namespace dtrace::fastpath
