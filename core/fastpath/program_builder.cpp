// program_builder.cpp: a group's clauses as one BPF program (see program_builder.h).
#include "fastpath/program_builder.h"

#include "fastpath/aggregation_code.h"
#include "fastpath/difo_translator.h"
#include "fastpath/kernel_records.h"
#include "fastpath/kernel_strings.h"
#include "fastpath/user_stacks.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace dtrace::fastpath {

using namespace bpf;
using compiler::ActionKind;

namespace {

const char *action_name(ActionKind kind) {
    switch (kind) {
    case ActionKind::Trace:
        return "trace()";
    case ActionKind::Printf:
        return "printf()";
    case ActionKind::Printa:
        return "printa()";
    case ActionKind::Exit:
        return "exit()";
    case ActionKind::Default:
        return "tracing the probe (a clause without actions)";
    case ActionKind::Speculate:
    case ActionKind::Commit:
    case ActionKind::Discard:
        return "speculations";
    case ActionKind::Print:
        return "print()";
    case ActionKind::Expression:
    case ActionKind::Aggregate:
    case ActionKind::Freopen:
    case ActionKind::Ftruncate:
    case ActionKind::System:
    case ActionKind::Raise:
    case ActionKind::Stop:
    case ActionKind::Chill:
    case ActionKind::Library:
    case ActionKind::Tracemem:
    case ActionKind::Plugin:
        return "this action";
    }
    return "this action"; // not reached: every kind has its case
}

void emit_prologue(BpfEmitter &out, MapPlan &plan, const ProbeShape &shape, const BuiltinUses &uses) {
    out.mov(R6, R1); // the context, kept across helper calls
    // DIF registers need no zeroing: the translator refuses to read one that
    // is not written on every path (difo_translator.h). A this-> variable
    // read before it is assigned is 0.
    if (uses.clause_locals) {
        out.mov_imm(R1, 0);
        for (unsigned i = 0; i < frame::kMaxClauseLocals; i++)
            out.store(kDw, R10, frame::clause_local(i), R1);
    }
    if (uses.scratch)
        emit_scratch_prologue(out, plan);
    if (uses.execname && shape.context.thread_task()) {
        emit_task_comm(out, shape.context);
    } else if (uses.execname) {
        // Older kernels (6.1) do not pad the name (strscpy): the bytes after
        // its NUL are part of the key, so zero them first.
        out.mov_imm(R1, 0);
        out.store(kDw, R10, frame::kComm, R1);
        out.store(kDw, R10, frame::kComm + 8, R1);
        out.mov(R1, R10);
        out.alu_imm(kAdd, R1, frame::kComm);
        out.mov_imm(R2, kStringKeyBytes);
        out.call(Helper::GetCurrentComm);
    }
    if (uses.timestamp) {
        out.call(Helper::KtimeGetNs);
        out.store(kDw, R10, frame::kTimestamp, R0);
    }
    if (uses.pid_tgid && shape.context.thread_task()) {
        emit_task_pid_tgid(out, shape.context, shape.task_tgid);
    } else if (uses.pid_tgid) {
        out.call(Helper::GetCurrentPidTgid);
        out.store(kDw, R10, frame::kPidTgid, R0);
    }
    if (uses.uid_gid && shape.context.thread_task()) {
        emit_task_uid_gid(out, shape.context);
    } else if (uses.uid_gid) {
        out.call(Helper::GetCurrentUidGid);
        out.store(kDw, R10, frame::kUidGid, R0);
    }
    if (uses.return_value && shape.syscall_return) {
        // arg0 = arg1 = the value the caller sees: -1 on failure, with errno.
        BpfEmitter::Label store = out.new_label();
        out.load(kDw, R1, R6, static_cast<int16_t>(shape.arg_offset));
        out.mov_imm(R2, 0);
        out.jump_imm(kJsge, R1, 0, store);
        out.jump_imm(kJslt, R1, -4095, store);
        out.mov_imm(R2, 0);
        out.alu(kSub, R2, R1);
        out.mov_imm(R1, -1);
        out.bind(store);
        out.store(kDw, R10, frame::kReturnValue, R1);
        out.store(kDw, R10, frame::kErrno, R2);
    }
}

// The register a part of `agg`'s key tuple is written through, with
// `offset` made relative to it: the frame's key (r10), or the scratch map's
// (r4) for a key larger than the frame's room.
Reg key_part_base(BpfEmitter &out, const KernelAggregation &agg, int16_t &offset) {
    if (agg.key_in_scratch) {
        emit_load_base(out, R4, StringBase::Scratch);
        return R4;
    }
    offset = static_cast<int16_t>(frame::kKey + offset);
    return R10;
}

// Writes a key DIFO's value into `agg`'s key tuple at `offset`.
void store_key_part(BpfEmitter &out, const KernelAggregation &agg, const DifoValue &value, const dif::TypeDesc &type,
                    int16_t offset, uint32_t string_bytes) {
    const Reg base = key_part_base(out, agg, offset);
    if (type.kind == dif::TypeDesc::Kind::Integer) {
        value.expect_integer("a string where the aggregation key is an integer");
        out.load(kDw, R1, R10, frame::kResult);
        out.store(kDw, base, offset, R1);
        return;
    }
    emit_store_string(out, value.string(), base, offset, agg.string_bytes, string_bytes);
}

// copyin() and copyinstr() fault, naming the probe.
bool reads_user_memory(const dif::Difo &difo) {
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        if (in.op == dif::Op::Call &&
            (in.imm == uint32_t(dif::Subr::Copyinstr) || in.imm == uint32_t(dif::Subr::Copyin)))
            return true;
    }
    return false;
}

bool reads_probe_names(const dif::Difo &difo) {
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        if (in.op == dif::Op::Ldgv && in.imm >= uint32_t(dif::VarId::ProbeProv) &&
            in.imm <= uint32_t(dif::VarId::ProbeName))
            return true;
    }
    return false;
}

class ClauseEmitter {
  public:
    ClauseEmitter(BpfEmitter &out, MapPlan &plan, const ProbeShape &shape, ClauseLocalSlots &locals,
                  const compiler::Program &program, const ProbeIdentity *probe, const SharedProgram *shared)
        : out_(out), plan_(plan), shape_(shape), program_(program),
          difos_(out, plan, shape, program, locals, probe, shared), shared_(shared ? &shared->probes : nullptr) {}

    // `site`: the clause's enabled probe id (its records and faults name it), if known.
    void emit(const compiler::Clause &clause, std::optional<FaultSite> site) {
        BpfEmitter::Label end = out_.new_label();
        site_ = site.value_or(FaultSite{});
        site_.clause_end = end;
        known_site_ = site.has_value();
        enter_action(0);
        if (clause.predicate) {
            difos_.emit(*clause.predicate).expect_integer("a predicate that is a string");
            out_.load(kDw, R1, R10, frame::kResult);
            out_.jump_imm(kJeq, R1, 0, end);
        }
        std::optional<RecordWriter> record;
        if (clause_records(clause)) {
            if (!known_site_)
                throw Refusal("a clause that records without its probe's own program");
            record.emplace(out_, plan_, site_, shared_);
        }
        int32_t index = 0;
        for (const compiler::Action &action : clause.actions) {
            enter_action(++index);
            emit_action(action, record);
        }
        if (record)
            record->finish();
        out_.bind(end);
    }

  private:
    // The DIF that follows belongs to action `index` (0: the predicate).
    void enter_action(int32_t index) {
        site_.action = index;
        difos_.set_fault_site(site_);
        difos_.allow_faults(known_site_);
    }

    void emit_action(const compiler::Action &action, std::optional<RecordWriter> &record) {
        switch (action.kind) {
        case ActionKind::Expression:
            if (action.value)
                difos_.emit(*action.value);
            return;
        case ActionKind::Aggregate:
            return emit_aggregate(action);
        case ActionKind::Trace:
            return record_value(*record, *action.value);
        case ActionKind::Printf:
            for (const dif::Difo &arg : action.args)
                record_value(*record, arg);
            return;
        case ActionKind::Default: // the probe line: a record without fields
            return;
        case ActionKind::Printa:
        case ActionKind::Exit:
        case ActionKind::Speculate:
        case ActionKind::Commit:
        case ActionKind::Discard:
        case ActionKind::Freopen:
        case ActionKind::Ftruncate:
        case ActionKind::System:
        case ActionKind::Raise:
        case ActionKind::Stop:
        case ActionKind::Chill:
        case ActionKind::Library:
        case ActionKind::Tracemem:
        case ActionKind::Print:
        case ActionKind::Plugin:
            break;
        }
        throw Refusal(std::string(action_name(action.kind)) + " is not available in the kernel path");
    }

    // A recorded value: a stack() is taken by the kernel (its DIF is not
    // run), anything else is its DIF's value.
    void record_value(RecordWriter &record, const dif::Difo &difo) {
        if (!is_kernel_stack(difo.rtype))
            return record.field(difos_.emit(difo), difo.rtype);
        require_kernel_stacks();
        record.kernel_stack(difo.rtype);
    }

    // stack() needs the plugin's count of the tracing machinery's frames,
    // and is the current thread's (bpf_get_stack()).
    void require_kernel_stacks() const {
        if (!shape_.kernel_stacks)
            throw Refusal("stack() is not available in the kernel path of this provider");
        if (shape_.context.thread_task())
            throw Refusal("stack() of another thread than the current one is not available in the kernel path");
    }

    // A ustack(n) key part: the pid, then the first n frames the prologue's
    // walk found (user_stacks.h), as the engine records ustack(n).
    void emit_user_stack_key_part(const KernelAggregation &agg, const dif::TypeDesc &type, int16_t offset,
                                  BpfEmitter::Label skip) {
        const std::optional<UserStackWalk> walk = planned_user_stack_walk(plan_, shape_.context.raw_tracepoint());
        if (!walk)
            throw Refusal("a ustack() key without the walk of the user stack"); // not reached: build() walks
        emit_user_stack_state(out_, *walk, skip);
        const Reg base = key_part_base(out_, agg, offset);
        out_.load(kDw, R1, R10, frame::kPidTgid);
        out_.alu_imm(kRsh, R1, 32);
        out_.store(kDw, base, offset, R1);
        emit_copy_user_stack(out_, base, static_cast<int16_t>(offset + 8), user_stack_key_frames(type));
    }

    void emit_aggregate(const compiler::Action &action) {
        KernelAggregation &agg = plan_aggregation(plan_, program_, action.aggregation);
        if (action.args.size() != agg.key_types.size())
            throw Refusal("an aggregation key of another shape than its declaration");
        int16_t offset = 0;
        BpfEmitter::Label skip = out_.new_label();
        if (action.args.empty())
            out_.store_imm(kDw, R10, frame::kKey, 0);
        for (size_t i = 0; i < action.args.size(); i++) {
            const dif::TypeDesc &type = agg.key_types[i];
            if (is_kernel_stack(type)) {
                require_kernel_stacks(); // stack(n) reads nothing but the firing's stack: its DIF is not run
                emit_stack_key_part(out_, agg, type, offset);
            } else if (is_user_stack(type)) {
                emit_user_stack_key_part(agg, type, offset, skip); // walked by the prologue: its DIF is not run
            } else {
                store_key_part(out_, agg, difos_.emit(action.args[i]), type, offset, plan_.string_bytes);
            }
            offset = static_cast<int16_t>(offset + key_part_bytes(type, agg.string_bytes));
        }
        out_.mov_imm(R1, 0);
        out_.store(kDw, R10, frame::kAggValue, R1);
        out_.mov_imm(R1, 1);
        out_.store(kDw, R10, frame::kAggIncrement, R1);
        for (size_t i = 0; i < action.agg_args.size() && i < 2; i++) {
            difos_.emit(action.agg_args[i]).expect_integer("a string where the aggregating function takes an integer");
            out_.load(kDw, R1, R10, frame::kResult);
            out_.store(kDw, R10, i == 0 ? frame::kAggValue : frame::kAggIncrement, R1);
        }
        emit_aggregate_update(out_, agg);
        out_.bind(skip);
    }

    BpfEmitter &out_;
    MapPlan &plan_;
    const ProbeShape &shape_;
    const compiler::Program &program_;
    DifoTranslator difos_;
    const SharedProbeList *shared_ = nullptr;
    FaultSite site_;
    bool known_site_ = false;
};

// Calls `fn` for each DIFO of the clause: its predicate, its actions' values and arguments.
template <typename Fn> void for_each_difo(const compiler::Clause &clause, Fn &&fn) {
    if (clause.predicate)
        fn(*clause.predicate);
    for (const compiler::Action &a : clause.actions) {
        if (a.value)
            fn(*a.value);
        for (const auto *difos : {&a.args, &a.agg_args})
            for (const dif::Difo &d : *difos)
                fn(d);
    }
}

} // namespace

std::set<std::string> variables_of(const compiler::Clause &clause) {
    std::set<std::string> out;
    for_each_difo(clause, [&](const dif::Difo &d) {
        for (const dif::Variable &v : d.vars) {
            if (v.scope == dif::Scope::ThreadLocal)
                out.insert("self->" + v.name);
            else if (v.scope == dif::Scope::Global)
                out.insert(v.name);
        }
    });
    return out;
}

namespace {

// Whether an aggregation key of the clause is larger than the frame's room (it goes to the scratch map).
bool has_large_key(const compiler::Clause &clause, uint32_t string_bytes) {
    for (const compiler::Action &a : clause.actions) {
        uint32_t bytes = 0;
        if (a.kind == ActionKind::Aggregate)
            for (const dif::Difo &d : a.args)
                bytes += key_part_bytes(d.rtype, string_bytes);
        if (bytes > frame::kMaxKeyBytes)
            return true;
    }
    return false;
}

// The most frames the clauses' ustack() keys show (0: no such key).
uint32_t user_stack_walk_frames(const std::vector<ClauseRef> &clauses) {
    uint32_t frames = 0;
    for (const ClauseRef &ref : clauses)
        for (const compiler::Action &a : ref.clause->actions)
            if (a.kind == ActionKind::Aggregate)
                for (const dif::Difo &d : a.args)
                    if (is_user_stack(d.rtype))
                        frames = std::max(frames, user_stack_key_frames(d.rtype));
    return frames;
}

// An event the walk declines goes to user space, where every clause of the
// program runs instead: one that records or uses self-> or global
// variables would act there on the user space's copies of what the other
// events keep in the kernel (records out of order, variables apart).
void require_declinable(const std::vector<ClauseRef> &clauses) {
    for (const ClauseRef &ref : clauses) {
        if (clause_records(*ref.clause))
            throw Refusal("ustack() keys in the kernel path with a clause on the same probe that records (an event "
                          "the walk sends to user space would record out of order)");
        if (!variables_of(*ref.clause).empty())
            throw Refusal("ustack() keys in the kernel path with self-> or global variables on the same probe (an "
                          "event the walk sends to user space would see the user space's copies)");
    }
}

// The prologue's walk of the user stack for the clauses' ustack() keys
// (user_stacks.h): before any clause acts, so that an event the walk
// declines goes back to the plugin's program whole, every clause then
// running in user space.
void emit_user_stack_prologue(BpfEmitter &out, MapPlan &plan, const ProbeShape &shape,
                              const std::vector<ClauseRef> &clauses) {
    const uint32_t frames = user_stack_walk_frames(clauses);
    if (frames == 0)
        return;
    if (!shape.user_stacks && !shape.user_stacks_unavailable.empty())
        throw Refusal("ustack() keys are not available in the kernel path: " + shape.user_stacks_unavailable);
    if (!shape.user_stacks)
        throw Refusal("ustack() keys are not available in the kernel path of this provider (its plugin does not "
                      "give the walk by the CFI its process's rows, the user registers and a way back to user "
                      "space)");
    require_declinable(clauses);
    const UserStackWalk walk = plan_user_stack_walk(plan, frames, shape.context.raw_tracepoint());
    BpfEmitter::Label declined = out.new_label(), walked = out.new_label();
    emit_user_stack_walk(out, walk, shape.user_registers, frames, kUserStackCopyBytes, declined, shape.main_stack);
    out.jump(walked);
    out.bind(declined);
    emit_way_back(out, walk);
    out.bind(walked);
}

BuiltinUses uses_of(const MapPlan &plan, const std::vector<ClauseRef> &clauses) {
    BuiltinUses uses;
    uses.pid_tgid = user_stack_walk_frames(clauses) > 0; // a ustack() key's pid
    for (const ClauseRef &ref : clauses) {
        uses.timestamp |= clause_records(*ref.clause); // the record's
        uses.scratch |= has_large_key(*ref.clause, plan.string_bytes);
        for_each_difo(*ref.clause, [&](const dif::Difo &d) { note_builtin_uses(d, uses); });
    }
    return uses;
}

} // namespace

bool clause_records(const compiler::Clause &clause) {
    return clause.actions.empty() || std::any_of(clause.actions.begin(), clause.actions.end(),
                                                 [](const auto &a) { return compiler::writes_record(a.kind); });
}

bool needs_probe_identity(const std::vector<ClauseRef> &clauses) {
    bool needed = false;
    for (const ClauseRef &ref : clauses) {
        needed |= clause_records(*ref.clause);
        for_each_difo(*ref.clause,
                      [&](const dif::Difo &d) { needed = needed || reads_probe_names(d) || reads_user_memory(d); });
    }
    return needed;
}

bool walks_user_stacks(const std::vector<ClauseRef> &clauses) {
    return user_stack_walk_frames(clauses) > 0;
}

bool reads_arguments(const std::vector<ClauseRef> &clauses) {
    bool reads = false;
    for (const ClauseRef &ref : clauses)
        for_each_difo(*ref.clause, [&](const dif::Difo &d) {
            for (uint64_t word : d.code) {
                const dif::Instr in = dif::decode(word);
                reads = reads ||
                        (in.op == dif::Op::Ldgv && in.imm >= uint32_t(dif::VarId::Arg0) &&
                         in.imm <= uint32_t(dif::VarId::Arg9)) ||
                        (in.op == dif::Op::Ldga && in.imm == uint32_t(dif::VarId::Args));
            }
        });
    return reads;
}

void size_strings(MapPlan &plan, const std::vector<ClauseRef> &clauses,
                  const std::vector<const ProbeIdentity *> &probes) {
    bool names = false;
    for (const ClauseRef &ref : clauses)
        for_each_difo(*ref.clause, [&](const dif::Difo &d) {
            size_strings(plan, d);
            names = names || reads_probe_names(d);
        });
    if (names)
        for (const ProbeIdentity *probe : probes)
            for (const std::string *name : {&probe->provider, &probe->module, &probe->function, &probe->name})
                size_strings(plan, *name);
}

namespace {

std::vector<uint64_t> build(MapPlan &plan, const ProbeShape &shape, const std::vector<ClauseRef> &clauses,
                            const ProbeIdentity *probe, SharedProgram *shared) {
    BpfEmitter out;
    emit_prologue(out, plan, shape, uses_of(plan, clauses));
    if (shared) {
        shared->clauses = static_cast<uint32_t>(clauses.size());
        plan_shared_program(plan, *shared);
        emit_probe_lookup(out, shape, *shared);
    }
    emit_user_stack_prologue(out, plan, shape, clauses);
    ClauseLocalSlots locals;
    for (size_t i = 0; i < clauses.size(); i++) {
        std::optional<FaultSite> site;
        if (probe && i < probe->epids.size())
            site = FaultSite{0, 0, probe->epids[i]};
        if (shared)
            site = FaultSite{0, 0, 0, static_cast<int32_t>(i)};
        ClauseEmitter(out, plan, shape, locals, *clauses[i].program, probe, shared).emit(*clauses[i].clause, site);
    }
    out.mov_imm(R0, 0);
    out.exit();
    return out.finish();
}

} // namespace

std::vector<uint64_t> build_program(MapPlan &plan, const ProbeShape &shape, const std::vector<ClauseRef> &clauses,
                                    const ProbeIdentity *probe) {
    size_strings(plan, clauses, probe ? SharedProbeList{probe} : SharedProbeList{});
    return build(plan, shape, clauses, probe, nullptr);
}

std::vector<uint64_t> build_shared_program(MapPlan &plan, const ProbeShape &shape,
                                           const std::vector<ClauseRef> &clauses, SharedProgram &shared) {
    if (shape.probe_word_size != 4 && shape.probe_word_size != 8)
        throw Refusal("probes that share a program without a word telling them apart");
    size_strings(plan, clauses, shared.probes);
    return build(plan, shape, clauses, nullptr, &shared);
}

} // namespace dtrace::fastpath
