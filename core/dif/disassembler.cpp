// disassembler.cpp: the listing, driven by the opcode table.
#include "dif/disassembler.h"

#include "dif/asm_lexer.h"
#include "dif/builtins.h"
#include "dif/opcodes.h"
#include "dif/subroutines.h"
#include "dif/type_text.h"

#include <cinttypes>
#include <cstdio>

namespace dtrace::dif {

namespace {

constexpr int kMnemonicWidth = 7; // "flushts"
constexpr size_t kCommentColumn = 36;
constexpr size_t kNameWidth = 16; // DTrace's "%-16s" variable-name column

std::string reg(unsigned r) {
    return "%r" + std::to_string(r);
}

std::string hex(uint64_t v) {
    char buf[2 + 16 + 1];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return buf;
}

std::string memory(unsigned base, uint32_t imm) {
    int32_t d = static_cast<int32_t>(imm);
    std::string s = "[" + reg(base);
    if (d > 0)
        s += "+" + std::to_string(d);
    else if (d < 0)
        s += std::to_string(d);
    return s + "]";
}

std::string pad(std::string s, size_t width) {
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

const Variable *find_variable(const Difo &difo, Scope scope, uint32_t id) {
    for (const Variable &v : difo.vars)
        if (v.scope == scope && v.id == id)
            return &v;
    return nullptr;
}

// True when every field the opcode does not use is zero, so that the
// instruction text encodes back to the same word.
bool canonical(const OpInfo &info, const Instr &in) {
    const FormatInfo &f = format_info(info.format);
    return (in.rd == 0 || (f.regs & (kReadsRd | kWritesRd))) && (in.r1 == 0 || (f.regs & kReadsR1)) &&
           (in.r2 == 0 || (f.regs & kReadsR2)) && (in.imm == 0 || f.imm != ImmKind::None);
}

struct Text {
    std::string instruction;
    std::string comment;
};

class Printer {
  public:
    explicit Printer(const Difo &difo) : difo_(difo) {}

    Text instruction(uint64_t word) const {
        const Instr in = decode(word);
        const OpInfo *info = op_info(static_cast<uint8_t>(in.op));
        if (!info)
            return {".word " + hex(word), "(illegal opcode)"};
        if (!canonical(*info, in))
            return {".word " + hex(word), std::string(info->mnemonic) + " with reserved bits set"};
        std::string ops;
        std::string comment;
        switch (info->format) {
        case Format::None:
            break;
        case Format::Binary:
        case Format::Copy:
            ops = reg(in.rd) + ", " + reg(in.r1) + ", " + reg(in.r2);
            break;
        case Format::Unary:
            ops = reg(in.rd) + ", " + reg(in.r1);
            break;
        case Format::Setx:
            ops = reg(in.rd) + ", DT_INTEGER[" + std::to_string(in.imm) + "]";
            if (in.imm < difo_.inttab.size())
                comment = hex(difo_.inttab[in.imm]);
            break;
        case Format::Sets:
            ops = reg(in.rd) + ", DT_STRING[" + std::to_string(in.imm) + "]";
            if (in.imm < difo_.strtab.size())
                comment = assembly::quote(difo_.strtab.c_str() + in.imm);
            break;
        case Format::Extend:
            ops = reg(in.rd) + ", " + reg(in.r1) + ", " + std::to_string(in.imm);
            break;
        case Format::Branch:
            ops = std::to_string(in.imm);
            break;
        case Format::CondBranch:
            ops = reg(in.r1) + ", " + std::to_string(in.imm);
            break;
        case Format::Ret:
        case Format::PushString:
            ops = reg(in.r1);
            break;
        case Format::Load:
            ops = reg(in.rd) + ", " + memory(in.r1, in.imm);
            break;
        case Format::Store:
            ops = memory(in.rd, in.imm) + ", " + reg(in.r1);
            break;
        case Format::LoadVar:
            ops = reg(in.rd) + ", " + variable(*info->var, in.imm, comment);
            break;
        case Format::StoreVar:
            ops = variable(*info->var, in.imm, comment) + ", " + reg(in.r1);
            break;
        case Format::LoadArray:
            ops = reg(in.rd) + ", " + variable(*info->var, in.imm, comment);
            if (in.r1 != 0 || in.imm < kFirstUserVariable)
                ops += ", " + reg(in.r1);
            break;
        case Format::PushValue:
            ops = reg(in.r1) + ", " + std::to_string(in.imm);
            break;
        case Format::PushRef:
            ops = reg(in.r1) + ", " + reg(in.r2);
            break;
        case Format::Call: {
            const SubrInfo *s = subr_info(in.imm);
            ops = reg(in.rd) + ", " + (s ? std::string(s->name) : "DIF_SUBR(" + std::to_string(in.imm) + ")");
            break;
        }
        }
        std::string text = ops.empty() ? info->mnemonic : pad(info->mnemonic, kMnemonicWidth) + " " + ops;
        return {text, comment};
    }

  private:
    // Builtins by name; user variables by id, named in the comment.
    std::string variable(const VarAccess &access, uint32_t id, std::string &comment) const {
        if (id < kFirstUserVariable && access.scope == Scope::Global)
            if (const BuiltinInfo *b = builtin_info(id))
                return b->name;
        if (const Variable *v = find_variable(difo_, access.scope, id))
            comment = assembly::quote(v->name);
        return "DT_VAR(" + std::to_string(id) + ")";
    }

    const Difo &difo_;
};

// DTrace's r/w flags: whether the code loads and/or stores the variable.
std::string access_flags(const Difo &difo, const Variable &v) {
    bool read = false, written = false;
    for (uint64_t word : difo.code) {
        Instr in = decode(word);
        const OpInfo *info = op_info(static_cast<uint8_t>(in.op));
        if (!info || !info->var || info->var->scope != v.scope || in.imm != v.id)
            continue;
        (info->var->store ? written : read) = true;
    }
    return read && written ? "r/w" : read ? "r" : written ? "w" : "";
}

const char *scope_name(Scope s) {
    switch (s) {
    case Scope::Global:
        return "glb";
    case Scope::ThreadLocal:
        return "tls";
    case Scope::ClauseLocal:
        return "loc";
    }
    return "?";
}

void append_code(std::string &out, const Difo &difo) {
    char prefix[64];
    std::snprintf(prefix, sizeof prefix, "%-3s %-16s    %s\n", "OFF", "OPCODE", "INSTRUCTION");
    out += prefix;
    Printer printer(difo);
    for (size_t pc = 0; pc < difo.code.size(); pc++) {
        std::snprintf(prefix, sizeof prefix, "%02zu: %016" PRIx64 "    ", pc, difo.code[pc]);
        Text t = printer.instruction(difo.code[pc]);
        out += prefix;
        if (t.comment.empty())
            out += t.instruction;
        else
            out += pad(t.instruction, kCommentColumn) + "! " + t.comment;
        out += '\n';
    }
}

void append_variables(std::string &out, const Difo &difo) {
    if (difo.vars.empty())
        return;
    char line[128];
    std::snprintf(line, sizeof line, "\n%-16s %-4s %-3s %-3s %-4s %s\n", "NAME", "ID", "KND", "SCP", "FLAG", "TYPE");
    out += line;
    for (const Variable &v : difo.vars) {
        std::snprintf(line, sizeof line, " %-4x %-3s %-3s %-4s ", v.id, v.is_array ? "arr" : "scl", scope_name(v.scope),
                      access_flags(difo, v).c_str());
        out += pad(v.name, kNameWidth) + line + type_text(v.type) + "\n";
    }
}

void append_integers(std::string &out, const Difo &difo) {
    if (difo.inttab.empty())
        return;
    out += "\nIDX  INTEGER\n";
    for (size_t i = 0; i < difo.inttab.size(); i++)
        out += pad(std::to_string(i), 4) + " " + hex(difo.inttab[i]) + "\n";
}

void append_strings(std::string &out, const Difo &difo) {
    if (difo.strtab.empty())
        return;
    out += "\nOFF  STRING\n";
    for (size_t off = 0; off < difo.strtab.size();) {
        size_t nul = difo.strtab.find('\0', off);
        size_t end = nul == std::string::npos ? difo.strtab.size() : nul;
        out +=
            pad(std::to_string(off), 4) + " " + assembly::quote(std::string_view(difo.strtab).substr(off, end - off));
        out += nul == std::string::npos ? "    ! not NUL-terminated\n" : "\n";
        off = end + 1;
    }
}

} // namespace

std::string disassemble_instruction(const Difo &difo, uint64_t word) {
    return Printer(difo).instruction(word).instruction;
}

std::string disassemble(const Difo &difo, std::string_view label) {
    std::string out = "DIFO ";
    if (!label.empty())
        out.append(label).append(" ");
    out += "returns " + type_text(difo.rtype) + "\n";
    append_code(out, difo);
    append_variables(out, difo);
    append_integers(out, difo);
    append_strings(out, difo);
    return out;
}

} // namespace dtrace::dif
