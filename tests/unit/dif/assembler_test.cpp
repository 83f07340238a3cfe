// Assembler and disassembler: encoding, interning, labels, errors with line
// numbers, the listing's layout, and exact round trips.
#include "dif/assembler.h"
#include "dif/disassembler.h"
#include "dif/opcodes.h"
#include "dif_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::dif {
namespace {

using test::assemble_ok;

void expect_same(const Difo &a, const Difo &b) {
    EXPECT_EQ(a.code, b.code);
    EXPECT_EQ(a.inttab, b.inttab);
    EXPECT_EQ(a.strtab, b.strtab);
    EXPECT_EQ(a.rtype, b.rtype);
    ASSERT_EQ(a.vars.size(), b.vars.size());
    for (size_t i = 0; i < a.vars.size(); i++) {
        EXPECT_EQ(a.vars[i].id, b.vars[i].id);
        EXPECT_EQ(a.vars[i].scope, b.vars[i].scope);
        EXPECT_EQ(a.vars[i].is_array, b.vars[i].is_array);
        EXPECT_EQ(a.vars[i].type, b.vars[i].type);
        EXPECT_EQ(a.vars[i].name, b.vars[i].name);
    }
}

void expect_round_trip(const Difo &d) {
    std::string listing = disassemble(d);
    AsmResult again = assemble(listing);
    for (const AsmError &e : again.errors)
        ADD_FAILURE() << e.to_string() << "\nlisting:\n" << listing;
    expect_same(d, again.difo);
}

TEST(Assembler, EncodesFieldsDestinationFirst) {
    Difo d = assemble_ok("add %r3, %r1, %r2\nret %r3");
    ASSERT_EQ(d.code.size(), 2u);
    EXPECT_EQ(d.code[0], encode({Op::Add, 3, 1, 2, 0}));
    EXPECT_EQ(d.code[1], encode({Op::Ret, 0, 3, 0, 0}));
}

TEST(Assembler, InternsIntegersAndStrings) {
    Difo d = assemble_ok("setx %r1, 10\nsetx %r2, 0x20\nsetx %r3, 10\nsetx %r4, -1\n"
                         "sets %r5, \"ab\"\nsets %r6, \"c\"\nsets %r7, \"ab\"\nret %r1");
    EXPECT_EQ(d.inttab, (std::vector<uint64_t>{10, 0x20, UINT64_MAX}));
    EXPECT_EQ(decode(d.code[2]).imm, 0u);
    EXPECT_EQ(decode(d.code[3]).imm, 2u);
    EXPECT_EQ(d.strtab, std::string("ab\0c\0", 5));
    EXPECT_EQ(decode(d.code[5]).imm, 3u);
    EXPECT_EQ(decode(d.code[6]).imm, 0u);
}

TEST(Assembler, DecodesStringEscapes) {
    Difo d = assemble_ok("sets %r1, \"a\\n\\t\\\"\\\\\\x41\"\nret %r1");
    EXPECT_EQ(d.strtab, std::string("a\n\t\"\\A\0", 7));
}

TEST(Assembler, ResolvesLabelsForwardAndBackward) {
    Difo d = assemble_ok("start: bz %r1, end\nba end\nnop\nend:\nret %r1\n");
    EXPECT_EQ(decode(d.code[0]).imm, 3u);
    EXPECT_EQ(decode(d.code[1]).imm, 3u);
    Difo back = assemble_ok("top: nop\nba top\nret %r0");
    EXPECT_EQ(decode(back.code[1]).imm, 0u); // assembles; the validator rejects it
}

TEST(Assembler, MemoryOperandsTakeSignedDisplacements) {
    Difo d = assemble_ok("ldx %r2, [%r1+8]\nldub %r2, [%r1]\nstw [%r3-4], %r2\nret %r0");
    EXPECT_EQ(d.code[0], encode({Op::Ldx, 2, 1, 0, 8}));
    EXPECT_EQ(d.code[1], encode({Op::Ldub, 2, 1, 0, 0}));
    EXPECT_EQ(d.code[2], encode({Op::Stw, 3, 2, 0, static_cast<uint32_t>(-4)}));
}

TEST(Assembler, VariablesByNameOrId) {
    Difo d = assemble_ok("ldgv %r1, arg0\nldgv %r2, x\nstgv DT_VAR(256), %r1\nldga %r3, args, %r1\n"
                         "ldtv %r4, t\nret %r1\n"
                         "NAME ID KND SCP FLAG TYPE\nx 100 scl glb int64\nt 100 scl tls string\n");
    EXPECT_EQ(decode(d.code[0]).imm, uint32_t(VarId::Arg0));
    EXPECT_EQ(decode(d.code[1]).imm, 0x100u);
    EXPECT_EQ(decode(d.code[2]).imm, 0x100u);
    EXPECT_EQ(d.code[3], encode({Op::Ldga, 3, 1, 0, uint32_t(VarId::Args)}));
    EXPECT_EQ(decode(d.code[4]).op, Op::Ldtv);
    ASSERT_EQ(d.vars.size(), 2u);
    EXPECT_EQ(d.vars[1].scope, Scope::ThreadLocal);
    EXPECT_EQ(d.vars[1].type.kind, TypeDesc::Kind::String);
}

TEST(Assembler, SubroutinesByNameOrNumber) {
    Difo d = assemble_ok("call %r1, strlen\ncall %r2, DIF_SUBR(5)\nret %r1");
    EXPECT_EQ(d.code[0], encode({Op::Call, 1, 0, 0, uint32_t(Subr::Strlen)}));
    EXPECT_EQ(decode(d.code[1]).imm, 5u);
}

TEST(Assembler, ReturnTypeHeader) {
    EXPECT_EQ(assemble_ok("DIFO returns string\nret %r1").rtype.kind, TypeDesc::Kind::String);
    EXPECT_EQ(assemble_ok("DIFO returns uint16\nret %r1").rtype, (TypeDesc{TypeDesc::Kind::Integer, 2, false}));
    EXPECT_EQ(assemble_ok("DIFO returns byref:24\nret %r1").rtype, (TypeDesc{TypeDesc::Kind::ByRef, 24, false}));
}

TEST(Assembler, ReportsErrorsWithLineNumbers) {
    AsmResult r = assemble("nop\nfrob %r1\nadd %r1, %r2\nba nowhere\nldgv %r1, nosuch\nsets %r1, \"open\n"
                           "ret %r99999\n");
    ASSERT_EQ(r.errors.size(), 6u);
    EXPECT_EQ(r.errors[0].line, 2);
    EXPECT_EQ(r.errors[0].message, "unknown mnemonic 'frob'");
    EXPECT_EQ(r.errors[1].line, 3);
    EXPECT_EQ(r.errors[1].message, "expected ','");
    EXPECT_EQ(r.errors[2].line, 4);
    EXPECT_EQ(r.errors[2].message, "undefined label 'nowhere'");
    EXPECT_EQ(r.errors[3].to_string(), "line 5: undeclared variable 'nosuch'");
    EXPECT_EQ(r.errors[4].line, 6);
    EXPECT_EQ(r.errors[4].message, "unterminated string");
    EXPECT_EQ(r.errors[5].line, 7);
    EXPECT_EQ(r.errors[5].message, "bad register %r99999");
}

TEST(Assembler, RejectsOutOfRangeImmediates) {
    AsmResult r = assemble("sext %r1, %r2, 0x100000000\nldx %r1, [%r2+0x80000000]\nret %r1");
    ASSERT_EQ(r.errors.size(), 2u);
    EXPECT_EQ(r.errors[0].line, 1);
    EXPECT_EQ(r.errors[1].message, "displacement does not fit in 32 bits");
}

TEST(Assembler, RejectsDuplicateLabelsAndBadTables) {
    AsmResult r = assemble("a: nop\na: ret %r0\nIDX INTEGER\n1 5\nOFF STRING\n3 \"x\"\n"
                           "NAME ID KND SCP FLAG TYPE\nv 100 scl nowhere int64\n");
    ASSERT_EQ(r.errors.size(), 4u);
    EXPECT_EQ(r.errors[0].message, "label 'a' defined twice");
    EXPECT_EQ(r.errors[1].line, 4);
    EXPECT_EQ(r.errors[2].line, 6);
    EXPECT_EQ(r.errors[3].line, 8);
}

TEST(Disassembler, ListsInDTraceLayout) {
    Difo d = assemble_ok("DIFO returns int64\n"
                         "ldgv %r1, arg0\nsetx %r2, 10\nslt %r3, %r2, %r1\nsets %r4, \"hi\"\n"
                         "stgv x, %r1\nret %r3\n"
                         "NAME ID KND SCP FLAG TYPE\nx 100 scl glb int64\n");
    std::string expected = "DIFO returns D type (integer) (size 8)\n"
                           "OFF OPCODE              INSTRUCTION\n"
                           "00: 0000000100000131    ldgv    %r1, arg0\n"
                           "01: 0000000000000217    setx    %r2, DT_INTEGER[0]          ! 0xa\n"
                           "02: 0000000001020312    slt     %r3, %r2, %r1\n"
                           "03: 0000000000000418    sets    %r4, DT_STRING[0]           ! \"hi\"\n"
                           "04: 0000010000010032    stgv    DT_VAR(256), %r1            ! \"x\"\n"
                           "05: 000000000003001e    ret     %r3\n"
                           "\n"
                           "NAME             ID   KND SCP FLAG TYPE\n"
                           "x                100  scl glb w    D type (integer) (size 8)\n"
                           "\n"
                           "IDX  INTEGER\n"
                           "0    0xa\n"
                           "\n"
                           "OFF  STRING\n"
                           "0    \"hi\"\n";
    EXPECT_EQ(disassemble(d), expected);
}

TEST(Disassembler, LabelsTheHeaderAndFlagsReadWrite) {
    Difo d = assemble_ok("ldtv %r1, t\nsttv t, %r1\nret %r1\nNAME ID KND SCP FLAG TYPE\nt 101 scl tls uint32\n");
    std::string s = disassemble(d, "0x1");
    EXPECT_EQ(s.substr(0, s.find('\n')), "DIFO 0x1 returns D type (integer) (size 8)");
    EXPECT_NE(s.find("t                101  scl tls r/w  D type (unsigned integer) (size 4)\n"), std::string::npos);
}

TEST(Disassembler, ShowsIllegalWordsRawAndRoundTrips) {
    Difo d;
    d.code = {0xff, encode({Op::Nop, 0, 0, 0, 7}), encode({Op::Ret, 0, 1, 0, 0})};
    std::string s = disassemble(d);
    EXPECT_NE(s.find(".word 0xff"), std::string::npos) << s;
    EXPECT_NE(s.find("! (illegal opcode)"), std::string::npos) << s;
    EXPECT_NE(s.find("! nop with reserved bits set"), std::string::npos) << s;
    expect_round_trip(d);
}

TEST(Disassembler, SingleInstruction) {
    Difo d;
    EXPECT_EQ(disassemble_instruction(d, encode({Op::Stx, 2, 1, 0, 16})), "stx     [%r2+16], %r1");
    EXPECT_EQ(disassemble_instruction(d, encode({Op::Flushts, 0, 0, 0, 0})), "flushts");
    EXPECT_EQ(disassemble_instruction(d, encode({Op::Call, 1, 0, 0, 999})), "call    %r1, DIF_SUBR(999)");
}

// One instruction of every opcode, with every field it uses non-trivial,
// survives disassembly and reassembly bit for bit.
TEST(RoundTrip, EveryOpcode) {
    Difo d;
    d.inttab = {1, 2, 3};
    d.strtab = std::string("abc\0de\0", 7);
    d.vars = {Variable{0x100, Scope::Global, false, {}, "g"}, Variable{0x101, Scope::Global, true, {}, "ga"},
              Variable{0x100, Scope::ThreadLocal, false, {TypeDesc::Kind::String, 256, false}, "t"},
              Variable{0x101, Scope::ThreadLocal, true, {TypeDesc::Kind::ByRef, 12, false}, "ta"},
              Variable{0x100, Scope::ClauseLocal, false, {TypeDesc::Kind::Integer, 1, false}, "l"}};
    d.rtype = {TypeDesc::Kind::String, 256, false};
    for (uint8_t op = 0; op < uint8_t(Op::OpCount); op++) {
        const OpInfo *info = op_info(op);
        const FormatInfo &f = format_info(info->format);
        Instr in{Op(op), 0, 0, 0, 0};
        if (f.regs & (kReadsRd | kWritesRd))
            in.rd = 5;
        if (f.regs & kReadsR1)
            in.r1 = 6;
        if (f.regs & kReadsR2)
            in.r2 = 7;
        switch (f.imm) {
        case ImmKind::IntIndex:
            in.imm = 2;
            break;
        case ImmKind::StrOffset:
            in.imm = 4;
            break;
        case ImmKind::Width:
            in.imm = 16;
            break;
        case ImmKind::Target:
            in.imm = 200;
            break;
        case ImmKind::Offset:
            in.imm = static_cast<uint32_t>(-24);
            break;
        case ImmKind::Variable:
            in.imm = info->var->array ? 0x101 : 0x100;
            break;
        case ImmKind::Size:
            in.imm = 4;
            break;
        case ImmKind::Subroutine:
            in.imm = uint32_t(Subr::Strtok);
            break;
        case ImmKind::None:
            break;
        }
        d.code.push_back(encode(in));
    }
    d.code.push_back(encode({Op::Ldga, 1, 2, 0, uint32_t(VarId::Uregs)}));
    d.code.push_back(encode({Op::Ldgv, 1, 0, 0, uint32_t(VarId::Threadname)}));
    d.code.push_back(encode({Op::Ldgv, 1, 0, 0, 0x2000})); // undeclared id
    expect_round_trip(d);
}

} // namespace
} // namespace dtrace::dif
