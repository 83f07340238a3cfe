// Validator: a well-formed DIFO passes; each rule rejects with a message
// naming the instruction (or table entry).
#include "dif/validator.h"
#include "dif_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::dif {
namespace {

using test::assemble_ok;

// The single error `text` should produce.
ValidationError only_error(const Difo &d) {
    ValidationResult r = validate(d);
    EXPECT_EQ(r.errors.size(), 1u);
    for (const ValidationError &e : r.errors)
        if (r.errors.size() != 1)
            ADD_FAILURE() << e.to_string();
    return r.errors.empty() ? ValidationError{} : r.errors[0];
}

ValidationError only_error(std::string_view text) {
    return only_error(assemble_ok(text));
}

void expect_rejects(std::string_view text, uint32_t index, std::string_view message) {
    ValidationError e = only_error(text);
    EXPECT_EQ(e.where, ValidationError::Where::Instruction);
    EXPECT_EQ(e.index, index);
    EXPECT_EQ(e.message, message);
}

constexpr const char *kVars = "NAME ID KND SCP FLAG TYPE\n"
                              "g 100 scl glb int64\n"
                              "a 101 arr glb int64\n"
                              "t 100 scl tls int64\n"
                              "ta 101 arr tls int64\n"
                              "l 100 scl loc int64\n";

TEST(Validator, AcceptsAWellFormedProgram) {
    Difo d = assemble_ok(std::string("ldgv %r1, arg0\nsetx %r2, 10\nslt %r3, %r2, %r1\nbz %r3, out\n"
                                     "sets %r4, \"s\"\npushts %r4\npushtv %r1, 8\nldga %r5, a\nstga a, %r1\n"
                                     "flushts\nldga %r6, args, %r1\nsttv t, %r1\nldta %r5, ta\nstlv l, %r5\n"
                                     "sext %r5, %r5, 16\ncall %r6, strlen\nout:\nret %r3\n") +
                         kVars);
    ValidationResult r = validate(d);
    for (const ValidationError &e : r.errors)
        ADD_FAILURE() << e.to_string();
    EXPECT_TRUE(r.ok());
}

TEST(Validator, UnknownOpcode) {
    expect_rejects(".word 0xfe\nret %r0", 0, "invalid opcode 254");
    expect_rejects(std::string(".word ") + std::to_string(uint8_t(Op::OpCount)) + "\nret %r0", 0,
                   "invalid opcode " + std::to_string(uint8_t(Op::OpCount)));
}

TEST(Validator, RegisterOutOfRange) {
    expect_rejects("nop\nadd %r1, %r8, %r2\nret %r1", 1, "invalid register 8");
    expect_rejects("ret %r200", 0, "invalid register 200");
}

TEST(Validator, WritesToR0) {
    expect_rejects("mov %r0, %r1\nret %r0", 0, "cannot write to %r0");
    expect_rejects("call %r0, rand\nret %r0", 0, "cannot write to %r0");
}

TEST(Validator, ReservedFieldsMustBeZero) {
    Difo d = assemble_ok("ret %r1");
    d.code.insert(d.code.begin(), encode({Op::Mov, 1, 2, 3, 0})); // r2 unused by mov
    ValidationError e = only_error(d);
    EXPECT_EQ(e.message, "non-zero reserved bits");
    d.code[0] = encode({Op::Popts, 0, 0, 0, 1});
    EXPECT_EQ(only_error(d).message, "non-zero reserved bits");
}

TEST(Validator, Branches) {
    expect_rejects("nop\nba 1\nret %r0", 1, "backward branch to 1");
    expect_rejects("nop\nbz %r1, 0\nret %r0", 1, "backward branch to 0");
    expect_rejects("bnz %r1, 7\nret %r0", 0, "invalid branch target 7");
}

TEST(Validator, TableReferences) {
    expect_rejects("setx %r1, DT_INTEGER[0]\nret %r1", 0, "invalid integer ref 0");
    expect_rejects("OFF STRING\n0 \"ab\"\nOFF OPCODE INSTRUCTION\nsets %r1, DT_STRING[3]\nret %r1", 0,
                   "invalid string ref 3");
    expect_rejects("OFF STRING\n0 \"ab\"\nOFF OPCODE INSTRUCTION\nsets %r1, DT_STRING[1]\nret %r1", 0,
                   "string ref 1 is not the start of a string");
    Difo d = assemble_ok("sets %r1, DT_STRING[0]\nret %r1");
    d.strtab = "abc"; // no NUL
    EXPECT_EQ(only_error(d).message, "string ref 0 is not NUL-terminated");
}

TEST(Validator, VariablesMustBeDeclaredWithTheirScopeAndKind) {
    std::string v = kVars;
    expect_rejects("stgv DT_VAR(300), %r1\nret %r0\n" + v, 0, "variable 300 is not declared in the variable table");
    expect_rejects("ldtv %r1, DT_VAR(300)\nret %r1\n" + v, 0, "variable 300 is not declared in the variable table");
    expect_rejects("ldlv %r1, DT_VAR(257)\nret %r1\n" + v, 0, "variable 257 is not declared in the variable table");
    expect_rejects("ldgv %r1, DT_VAR(257)\nret %r1\n" + v, 0, "variable a is an array");
    expect_rejects("stga DT_VAR(256), %r1\nret %r0\n" + v, 0, "variable g is not an array");
    expect_rejects("stta DT_VAR(256), %r1\nret %r0\n" + v, 0, "variable t is not an array");
}

TEST(Validator, Builtins) {
    expect_rejects("stgv arg0, %r1\nret %r0", 0, "cannot store to builtin variable arg0");
    expect_rejects("ldga %r1, arg0, %r2\nret %r1", 0, "builtin variable arg0 is not an array");
    expect_rejects("ldgv %r1, args\nret %r1", 0, "builtin array args must be read with ldga");
    expect_rejects("ldgv %r1, DT_VAR(200)\nret %r1", 0, "invalid variable 200");
    expect_rejects("ldtv %r1, DT_VAR(1)\nret %r1", 0, "invalid variable 1");
}

TEST(Validator, UnknownSubroutine) {
    expect_rejects("call %r1, DIF_SUBR(" + std::to_string(uint32_t(Subr::Count)) + ")\nret %r1", 0,
                   "invalid subroutine " + std::to_string(uint32_t(Subr::Count)));
}

TEST(Validator, ImmediateWidths) {
    expect_rejects("sext %r1, %r1, 12\nret %r1", 0, "invalid extension width 12");
    expect_rejects("zext %r1, %r1, 64\nret %r1", 0, "invalid extension width 64");
    expect_rejects("pushtv %r1, 3\nret %r1", 0, "invalid tuple value size 3");
    expect_rejects("pushtv %r1, 0\nret %r1", 0, "invalid tuple value size 0");
}

TEST(Validator, MustEndWithRet) {
    expect_rejects("nop", 0, "expected 'ret' as last DIF instruction");
    expect_rejects("ret %r1\nnop", 1, "expected 'ret' as last DIF instruction");
    Difo empty;
    EXPECT_EQ(only_error(empty).message, "expected 'ret' as last DIF instruction");
}

TEST(Validator, VariableTable) {
    Difo d = assemble_ok("ret %r0");
    d.vars = {Variable{5, Scope::Global, false, {}, "low"}};
    ValidationError e = only_error(d);
    EXPECT_EQ(e.where, ValidationError::Where::VariableTable);
    EXPECT_EQ(e.to_string(), "DIF variable table entry 0: invalid variable id 5");
    d.vars = {Variable{0x100, Scope::ClauseLocal, true, {}, "la"}};
    EXPECT_EQ(only_error(d).message, "clause-local variable la cannot be an array");
    d.vars = {Variable{0x100, Scope::Global, false, {TypeDesc::Kind::Integer, 3, true}, "odd"}};
    EXPECT_EQ(only_error(d).message, "variable odd has an invalid type size 3");
    d.vars = {Variable{0x100, Scope::Global, false, {}, "x"},
              Variable{0x100, Scope::Global, false, {TypeDesc::Kind::String, 256, false}, "x"}};
    e = only_error(d);
    EXPECT_EQ(e.index, 1u);
    EXPECT_EQ(e.message, "conflicting declarations of variable 256");
}

TEST(Validator, ReturnType) {
    Difo d = assemble_ok("ret %r0");
    d.rtype = {TypeDesc::Kind::Integer, 16, true};
    ValidationError e = only_error(d);
    EXPECT_EQ(e.where, ValidationError::Where::ReturnType);
    EXPECT_EQ(e.to_string(), "DIF return type: bad return size 16");
    d.rtype = {TypeDesc::Kind::Integer, 0, false}; // void
    EXPECT_TRUE(validate(d).ok());
}

TEST(Validator, MessagesNameTheInstruction) {
    ValidationError e = only_error("nop\nnop\nmov %r0, %r1\nret %r0");
    EXPECT_EQ(e.to_string(), "DIF instruction 2: cannot write to %r0");
}

} // namespace
} // namespace dtrace::dif
