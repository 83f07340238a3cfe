// validator.cpp: table-driven instruction checks (opcodes.h says which
// fields each opcode uses) plus the opcode-specific rules.
#include "dif/validator.h"

#include "dif/builtins.h"
#include "dif/opcodes.h"
#include "dif/subroutines.h"
#include "dif/variables.h"

#include <array>

namespace dtrace::dif {

namespace {

constexpr std::array<uint32_t, 3> kExtendWidths{8, 16, 32};
constexpr std::array<uint32_t, 4> kValueSizes{1, 2, 4, 8};
constexpr std::array<uint32_t, 5> kReturnSizes{0, 1, 2, 4, 8};

template <size_t N> bool one_of(uint32_t v, const std::array<uint32_t, N> &set) {
    for (uint32_t x : set)
        if (x == v)
            return true;
    return false;
}

std::string str(uint64_t v) {
    return std::to_string(v);
}

class Checker {
  public:
    Checker(const Difo &difo, ValidationResult &result) : difo_(difo), result_(result) {}

    void run() {
        for (uint32_t pc = 0; pc < difo_.code.size(); pc++)
            check_instruction(pc, decode(difo_.code[pc]));
        if (difo_.code.empty() || decode(difo_.code.back()).op != Op::Ret) {
            uint32_t last = difo_.code.empty() ? 0 : static_cast<uint32_t>(difo_.code.size() - 1);
            error(last, "expected 'ret' as last DIF instruction");
        }
        check_variable_table();
        check_return_type();
    }

  private:
    void error(uint32_t pc, std::string message) {
        result_.errors.push_back({ValidationError::Where::Instruction, pc, std::move(message)});
    }
    void table_error(uint32_t index, std::string message) {
        result_.errors.push_back({ValidationError::Where::VariableTable, index, std::move(message)});
    }

    void check_register(uint32_t pc, uint8_t reg, bool used) {
        if (used && reg >= kRegisterCount)
            error(pc, "invalid register " + str(reg));
        else if (!used && reg != 0)
            error(pc, "non-zero reserved bits");
    }

    void check_instruction(uint32_t pc, const Instr &in) {
        const OpInfo *info = op_info(static_cast<uint8_t>(in.op));
        if (!info) {
            error(pc, "invalid opcode " + str(static_cast<uint8_t>(in.op)));
            return;
        }
        const FormatInfo &f = format_info(info->format);
        check_register(pc, in.rd, f.regs & (kReadsRd | kWritesRd));
        check_register(pc, in.r1, f.regs & kReadsR1);
        check_register(pc, in.r2, f.regs & kReadsR2);
        if ((f.regs & kWritesRd) && in.rd == kZeroRegister)
            error(pc, "cannot write to %r0");
        check_immediate(pc, in, *info, f.imm);
    }

    void check_immediate(uint32_t pc, const Instr &in, const OpInfo &info, ImmKind kind) {
        const uint32_t imm = in.imm;
        switch (kind) {
        case ImmKind::None:
            if (imm != 0)
                error(pc, "non-zero reserved bits");
            break;
        case ImmKind::IntIndex:
            if (imm >= difo_.inttab.size())
                error(pc, "invalid integer ref " + str(imm));
            break;
        case ImmKind::StrOffset:
            check_string_ref(pc, imm);
            break;
        case ImmKind::Width:
            if (!one_of(imm, kExtendWidths))
                error(pc, "invalid extension width " + str(imm));
            break;
        case ImmKind::Target:
            if (imm >= difo_.code.size())
                error(pc, "invalid branch target " + str(imm));
            else if (imm <= pc)
                error(pc, "backward branch to " + str(imm));
            break;
        case ImmKind::Offset:
            break;
        case ImmKind::Variable:
            check_variable_ref(pc, *info.var, imm);
            break;
        case ImmKind::Size:
            if (!one_of(imm, kValueSizes))
                error(pc, "invalid tuple value size " + str(imm));
            break;
        case ImmKind::Subroutine:
            if (!subr_info(imm))
                error(pc, "invalid subroutine " + str(imm));
            break;
        }
    }

    void check_string_ref(uint32_t pc, uint32_t offset) {
        const std::string &t = difo_.strtab;
        if (offset >= t.size())
            error(pc, "invalid string ref " + str(offset));
        else if (offset > 0 && t[offset - 1] != '\0')
            error(pc, "string ref " + str(offset) + " is not the start of a string");
        else if (t.find('\0', offset) == std::string::npos)
            error(pc, "string ref " + str(offset) + " is not NUL-terminated");
    }

    const Variable *declared(Scope scope, uint32_t id) const {
        for (const Variable &v : difo_.vars)
            if (v.scope == scope && v.id == id)
                return &v;
        return nullptr;
    }

    void check_variable_ref(uint32_t pc, const VarAccess &access, uint32_t id) {
        if (id < kFirstUserVariable) {
            check_builtin_ref(pc, access, id);
            return;
        }
        const Variable *v = declared(access.scope, id);
        if (id > kMaxVariableId || !v) {
            error(pc, "variable " + str(id) + " is not declared in the variable table");
            return;
        }
        if (v->is_array != access.array)
            error(pc, "variable " + v->name + (v->is_array ? " is an array" : " is not an array"));
    }

    void check_builtin_ref(uint32_t pc, const VarAccess &access, uint32_t id) {
        const BuiltinInfo *b = builtin_info(id);
        if (!b || access.scope != Scope::Global) {
            error(pc, "invalid variable " + str(id));
            return;
        }
        if (access.store)
            error(pc, std::string("cannot store to builtin variable ") + b->name);
        else if (access.array && !b->is_array)
            error(pc, std::string("builtin variable ") + b->name + " is not an array");
        else if (!access.array && b->is_array)
            error(pc, std::string("builtin array ") + b->name + " must be read with ldga");
    }

    static bool type_ok(const TypeDesc &t) {
        switch (t.kind) {
        case TypeDesc::Kind::Integer:
            return one_of(t.size, kValueSizes);
        case TypeDesc::Kind::String:
            return true;
        case TypeDesc::Kind::ByRef:
            return t.size >= 1 && t.size <= kMaxByRefSize;
        }
        return false;
    }

    void check_variable_table() {
        for (uint32_t i = 0; i < difo_.vars.size(); i++) {
            const Variable &v = difo_.vars[i];
            if (v.id < kFirstUserVariable || v.id > kMaxVariableId)
                table_error(i, "invalid variable id " + str(v.id));
            else if (v.scope == Scope::ClauseLocal && v.is_array)
                table_error(i, "clause-local variable " + v.name + " cannot be an array");
            else if (!type_ok(v.type))
                table_error(i, "variable " + v.name + " has an invalid type size " + str(v.type.size));
            else if (const Variable *first = declared(v.scope, v.id);
                     first != &v && (first->is_array != v.is_array || !(first->type == v.type)))
                table_error(i, "conflicting declarations of variable " + str(v.id));
        }
    }

    void check_return_type() {
        const TypeDesc &t = difo_.rtype;
        bool ok = t.kind == TypeDesc::Kind::Integer ? one_of(t.size, kReturnSizes)
                  : t.kind == TypeDesc::Kind::ByRef ? t.size > 0
                                                    : true;
        if (!ok)
            result_.errors.push_back({ValidationError::Where::ReturnType, 0, "bad return size " + str(t.size)});
    }

    const Difo &difo_;
    ValidationResult &result_;
};

} // namespace

std::string ValidationError::to_string() const {
    switch (where) {
    case Where::Instruction:
        return "DIF instruction " + std::to_string(index) + ": " + message;
    case Where::VariableTable:
        return "DIF variable table entry " + std::to_string(index) + ": " + message;
    case Where::ReturnType:
        return "DIF return type: " + message;
    }
    return message;
}

ValidationResult validate(const Difo &difo) {
    ValidationResult result;
    Checker(difo, result).run();
    return result;
}

} // namespace dtrace::dif
