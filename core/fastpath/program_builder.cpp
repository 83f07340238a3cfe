// program_builder.cpp: a group's clauses as one BPF program (see program_builder.h).
#include "fastpath/program_builder.h"

#include "fastpath/aggregation_code.h"
#include "fastpath/difo_translator.h"
#include "fastpath/kernel_records.h"

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

void emit_prologue(BpfEmitter &out, const ProbeShape &shape, const BuiltinUses &uses) {
    out.mov(R6, R1); // the context, kept across helper calls
    out.mov_imm(R1, 0);
    for (unsigned r = 1; r < dif::kRegisterCount; r++)
        out.store(kDw, R10, frame::dif_register(r), R1);
    for (unsigned i = 0; i < frame::kMaxClauseLocals; i++)
        out.store(kDw, R10, frame::clause_local(i), R1);
    if (uses.execname && shape.context.thread_task()) {
        emit_task_comm(out, shape.context);
    } else if (uses.execname) {
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

// Writes a key DIFO's value into the key tuple at `offset`.
void store_key_part(BpfEmitter &out, const DifoValue &value, const dif::TypeDesc &type, int16_t offset) {
    if (type.kind == dif::TypeDesc::Kind::Integer) {
        if (value.kind != DifoValue::Kind::Integer)
            throw Refusal("a string where the aggregation key is an integer");
        out.load(kDw, R1, R10, frame::kResult);
        out.store(kDw, R10, offset, R1);
        return;
    }
    if (value.kind == DifoValue::Kind::Execname) {
        for (int16_t word = 0; word < 16; word += 8) {
            out.load(kDw, R1, R10, static_cast<int16_t>(frame::kComm + word));
            out.store(kDw, R10, static_cast<int16_t>(offset + word), R1);
        }
        return;
    }
    if (value.kind != DifoValue::Kind::Constant || value.text.size() >= kStringKeyBytes)
        throw Refusal("string keys other than execname and constants of under 16 bytes");
    char bytes[kStringKeyBytes] = {};
    value.text.copy(bytes, value.text.size());
    for (int16_t word = 0; word < 16; word += 8) {
        uint64_t w;
        std::memcpy(&w, bytes + word, sizeof w);
        out.load_imm64(R1, w);
        out.store(kDw, R10, static_cast<int16_t>(offset + word), R1);
    }
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
                  const compiler::Program &program, const ProbeIdentity *probe)
        : out_(out), plan_(plan), program_(program), difos_(out, plan, shape, program, locals, probe) {}

    // `epid`: the clause's enabled probe id (its records name it).
    void emit(const compiler::Clause &clause, std::optional<uint32_t> epid) {
        BpfEmitter::Label end = out_.new_label();
        if (clause.predicate) {
            if (difos_.emit(*clause.predicate).kind != DifoValue::Kind::Integer)
                throw Refusal("a predicate that is a string");
            out_.load(kDw, R1, R10, frame::kResult);
            out_.jump_imm(kJeq, R1, 0, end);
        }
        std::optional<RecordWriter> record;
        if (clause_records(clause)) {
            if (!epid)
                throw Refusal("a clause that records without its probe's own program");
            record.emplace(out_, plan_, *epid);
        }
        for (const compiler::Action &action : clause.actions)
            emit_action(action, record);
        if (record)
            record->finish();
        out_.bind(end);
    }

  private:
    void emit_action(const compiler::Action &action, std::optional<RecordWriter> &record) {
        switch (action.kind) {
        case ActionKind::Expression:
            if (action.value)
                difos_.emit(*action.value);
            return;
        case ActionKind::Aggregate:
            return emit_aggregate(action);
        case ActionKind::Trace:
            return record->field(difos_.emit(*action.value), action.value->rtype);
        case ActionKind::Printf:
            for (const dif::Difo &arg : action.args)
                record->field(difos_.emit(arg), arg.rtype);
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

    void emit_aggregate(const compiler::Action &action) {
        KernelAggregation &agg = plan_aggregation(plan_, program_, action.aggregation);
        if (action.args.size() != agg.key_types.size())
            throw Refusal("an aggregation key of another shape than its declaration");
        int16_t offset = frame::kKey;
        if (action.args.empty())
            out_.store_imm(kDw, R10, offset, 0);
        for (size_t i = 0; i < action.args.size(); i++) {
            store_key_part(out_, difos_.emit(action.args[i]), agg.key_types[i], offset);
            offset = static_cast<int16_t>(offset + (agg.key_types[i].kind == dif::TypeDesc::Kind::String ? 16 : 8));
        }
        out_.mov_imm(R1, 0);
        out_.store(kDw, R10, frame::kAggValue, R1);
        out_.mov_imm(R1, 1);
        out_.store(kDw, R10, frame::kAggIncrement, R1);
        for (size_t i = 0; i < action.agg_args.size() && i < 2; i++) {
            if (difos_.emit(action.agg_args[i]).kind != DifoValue::Kind::Integer)
                throw Refusal("a string where the aggregating function takes an integer");
            out_.load(kDw, R1, R10, frame::kResult);
            out_.store(kDw, R10, i == 0 ? frame::kAggValue : frame::kAggIncrement, R1);
        }
        emit_aggregate_update(out_, agg);
    }

    BpfEmitter &out_;
    MapPlan &plan_;
    const compiler::Program &program_;
    DifoTranslator difos_;
};

BuiltinUses uses_of(const std::vector<ClauseRef> &clauses) {
    BuiltinUses uses;
    for (const ClauseRef &ref : clauses) {
        uses.timestamp |= clause_records(*ref.clause); // the record's
        if (ref.clause->predicate)
            note_builtin_uses(*ref.clause->predicate, uses);
        for (const compiler::Action &a : ref.clause->actions) {
            if (a.value)
                note_builtin_uses(*a.value, uses);
            for (const dif::Difo &d : a.args)
                note_builtin_uses(d, uses);
            for (const dif::Difo &d : a.agg_args)
                note_builtin_uses(d, uses);
        }
    }
    return uses;
}

} // namespace

bool clause_records(const compiler::Clause &clause) {
    return clause.actions.empty() || std::any_of(clause.actions.begin(), clause.actions.end(),
                                                 [](const auto &a) { return compiler::writes_record(a.kind); });
}

bool needs_probe_identity(const std::vector<ClauseRef> &clauses) {
    for (const ClauseRef &ref : clauses) {
        if (clause_records(*ref.clause) || (ref.clause->predicate && reads_probe_names(*ref.clause->predicate)))
            return true;
        for (const compiler::Action &a : ref.clause->actions) {
            if (a.value && reads_probe_names(*a.value))
                return true;
            for (const auto *difos : {&a.args, &a.agg_args})
                for (const dif::Difo &d : *difos)
                    if (reads_probe_names(d))
                        return true;
        }
    }
    return false;
}

std::vector<uint64_t> build_program(MapPlan &plan, const ProbeShape &shape, const std::vector<ClauseRef> &clauses,
                                    const ProbeIdentity *probe) {
    BpfEmitter out;
    emit_prologue(out, shape, uses_of(clauses));
    ClauseLocalSlots locals;
    for (size_t i = 0; i < clauses.size(); i++) {
        std::optional<uint32_t> epid;
        if (probe && i < probe->epids.size())
            epid = probe->epids[i];
        ClauseEmitter(out, plan, shape, locals, *clauses[i].program, probe).emit(*clauses[i].clause, epid);
    }
    out.mov_imm(R0, 0);
    out.exit();
    return out.finish();
}

} // namespace dtrace::fastpath
