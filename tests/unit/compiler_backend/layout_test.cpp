// layout_test.cpp: structs, unions and bit-fields declared in D, laid out
// as DTrace lays them out (type_layout.h); loads of members and bit-fields
// from memory; the & operator; and DTrace's declaration errors.
#include "source_harness.h"

#include <cstring>

using namespace dtrace::compiler;
using namespace source_harness;

namespace {

// Runs `src` with arg0 pointing at `bytes`, which the program may read.
std::vector<int64_t> run_on(const std::string &src, const std::vector<uint8_t> &bytes) {
    Runner r;
    r.readable.push_back({bytes.data(), bytes.size()});
    r.env.args = {uint64_t(uintptr_t(bytes.data()))};
    std::vector<int64_t> out;
    for (const auto &v : run(src, r))
        out.push_back(v.i);
    return out;
}

using Ints = std::vector<int64_t>;

} // namespace

TEST(Layout, StructsEndWithTheirLastMember) {
    // No padding after the last member, unlike C.
    EXPECT_EQ(eval("sizeof (struct { int a; char b; })"), 5);
    EXPECT_EQ(eval("sizeof (struct { char c; int i; })"), 8);
    EXPECT_EQ(eval("sizeof (struct { char c; long l; })"), 16);
    EXPECT_EQ(eval("sizeof (union { char c[3]; int i; })"), 4);
    EXPECT_EQ(eval("sizeof (union { char c[5]; int i; })"), 5);
}

TEST(Layout, StructsAlignAsTheirFirstMember) {
    EXPECT_EQ(run_on("struct in { char x; int y; }; struct out { char c; struct in i; };"
                     "BEGIN { trace(offsetof(struct out, i)); trace(sizeof (struct out)); }",
                     {}),
              (Ints{1, 9}));
}

TEST(Layout, BitFieldsAreNotPacked) {
    EXPECT_EQ(run_on("struct bf { int a:3; int b:5; int c; short d:9; char e; };"
                     "BEGIN { trace(offsetof(struct bf, c)); trace(offsetof(struct bf, e)); "
                     "trace(sizeof (struct bf)); }",
                     {}),
              (Ints{4, 10, 11}));
    // An unnamed zero-width field is dropped.
    EXPECT_EQ(eval("sizeof (struct { char a:1; int :0; char b:2; })"), 2);
}

TEST(Layout, MembersLoadFromMemory) {
    std::vector<uint8_t> bytes(16, 0);
    int32_t i = -5;
    bytes[0] = 200;
    std::memcpy(&bytes[4], &i, sizeof i);
    EXPECT_EQ(run_on("struct s { unsigned char c; int i; };"
                     "BEGIN { this->p = (struct s *)arg0; trace(this->p->c); trace(this->p->i); "
                     "trace((*this->p).i); }",
                     bytes),
              (Ints{200, -5, -5}));
}

TEST(Layout, BitFieldsLoadAndExtend) {
    // One byte each: a (bits 0-2 of byte 0), u (byte 1), w (byte 2).
    std::vector<uint8_t> bytes = {0x05, 0x1f, 0x1f, 0, 0, 0, 0, 0};
    EXPECT_EQ(run_on("struct b { int a:3; unsigned u:3; int w:5; };"
                     "BEGIN { this->p = (struct b *)arg0; trace(this->p->a); trace(this->p->u); trace(this->p->w); }",
                     bytes),
              (Ints{-3, 7, -1}));
}

TEST(Layout, AddressOf) {
    std::vector<uint8_t> bytes(16, 0);
    EXPECT_EQ(run_on("struct s { char c; int i; }; BEGIN { this->p = (struct s *)arg0; "
                     "trace((uintptr_t)&this->p->i - arg0); trace(&*this->p == this->p); "
                     "trace((uintptr_t)&(*this->p).c - arg0); }",
                     bytes),
              (Ints{4, 1, 0}));
    EXPECT_EQ(error("BEGIN { x = 1; y = &x; }").tag, Tag::D_ADDROF_VAR);
    EXPECT_EQ(error("BEGIN { y = &arg0; }").tag, Tag::D_ADDROF_VAR);
    Diagnostic d = error("BEGIN { y = &1; }");
    EXPECT_EQ(d.tag, Tag::D_ADDROF_LVAL);
    EXPECT_EQ(d.message, "unacceptable operand for unary & operator");
    d = error("struct b { int a:3; }; BEGIN { y = &((struct b *)arg0)->a; }");
    EXPECT_EQ(d.tag, Tag::D_ADDROF_BITFIELD);
    EXPECT_EQ(d.message, "cannot take address of bit-field");
    d = error("struct b { int a:3; }; BEGIN { trace(sizeof (((struct b *)arg0)->a)); }");
    EXPECT_EQ(d.tag, Tag::D_SIZEOF_BITFIELD);
    EXPECT_EQ(d.message, "cannot apply sizeof to a bit-field");
}

TEST(Layout, MemberDeclarationErrors) {
    Diagnostic d = error("struct s { char *p:3; };");
    EXPECT_EQ(d.tag, Tag::D_DECL_BFTYPE);
    EXPECT_EQ(d.message, "invalid type for bit-field: p");
    d = error("struct s { char c:9; };");
    EXPECT_EQ(d.tag, Tag::D_DECL_BFSIZE);
    EXPECT_EQ(d.message, "bit-field too big for type: c");
    d = error("struct s { int a:0; };");
    EXPECT_EQ(d.tag, Tag::D_DECL_BFCONST);
    EXPECT_EQ(d.message, "positive integral constant expression expected as bit-field size");
    d = error("struct s { void v; };");
    EXPECT_EQ(d.tag, Tag::D_DECL_VOIDOBJ);
    EXPECT_EQ(d.message, "cannot have void member: v");
    d = error("struct f; struct s { struct f x; };");
    EXPECT_EQ(d.tag, Tag::D_DECL_INCOMPLETE);
}

TEST(Layout, ArrayAndEnumDeclarationErrors) {
    Diagnostic d = error("int a[0];");
    EXPECT_EQ(d.tag, Tag::D_DECL_ARRSUB);
    EXPECT_EQ(d.message,
              "positive integral constant expression or tuple signature expected as array declaration subscript");
    EXPECT_EQ(error("int a[-2];").tag, Tag::D_DECL_ARRSUB);
    d = error("int a[0x100000000];");
    EXPECT_EQ(d.tag, Tag::D_DECL_ARRBIG);
    EXPECT_EQ(d.message, "array dimension too big");
    d = error("void a[3];");
    EXPECT_EQ(d.tag, Tag::D_DECL_VOIDOBJ);
    EXPECT_EQ(d.message, "cannot declare array of void");
    d = error("enum e { A = 0x80000000 };");
    EXPECT_EQ(d.tag, Tag::D_DECL_ENOFLOW);
    EXPECT_EQ(d.message, "enumerator 'A' value overflows INT_MAX (2147483647)");
    d = error("enum e { A = \"x\" };");
    EXPECT_EQ(d.tag, Tag::D_DECL_ENCONST);
    EXPECT_EQ(d.message, "enumerator 'A' must be assigned to an integral constant expression");
}

TEST(Layout, EnumeratorsCountOnAsInts) {
    auto v = run("enum e { A = 2147483647, B }; BEGIN { trace(A); trace(B); }");
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].i, 2147483647);
    EXPECT_EQ(v[1].i, -2147483648LL);
}

TEST(Layout, ArgsOutsideOfAClause) {
    Diagnostic d = error("inline int x = args[0];");
    EXPECT_EQ(d.tag, Tag::D_ARGS_NONE);
    EXPECT_EQ(d.message, "args[ ] may not be referenced outside of a probe clause");
}
