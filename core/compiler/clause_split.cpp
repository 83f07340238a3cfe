// clause_split.cpp: splitting a clause at its if statements (see clause_split.h).
//
// The statements are walked in order; a run of statements between two `if`s
// is one basic block. Conditions are numbered in the order DTrace numbers
// them: an if's own condition, then those inside its body, then its else's.
#include "compiler/clause_split.h"

namespace dtrace::compiler {

namespace {

bool any_if(const std::vector<StmtPtr> &stmts) {
    for (const auto &s : stmts) {
        if (s->kind == Stmt::Kind::If || (s->kind == Stmt::Kind::Block && any_if(s->body)))
            return true;
    }
    return false;
}

// The statements of a list or body with blocks opened and empty statements dropped.
void flatten(const Stmt &s, std::vector<const Stmt *> &out) {
    switch (s.kind) {
    case Stmt::Kind::Empty:
        return;
    case Stmt::Kind::Block:
        for (const auto &inner : s.body)
            flatten(*inner, out);
        return;
    case Stmt::Kind::Expr:
    case Stmt::Kind::If:
        out.push_back(&s);
        return;
    }
}

std::vector<const Stmt *> flatten(const std::vector<StmtPtr> &stmts) {
    std::vector<const Stmt *> out;
    for (const auto &s : stmts)
        flatten(*s, out);
    return out;
}

class Splitter {
  public:
    std::vector<ClausePart> parts;

    uint32_t add_condition(const Expr *test, uint32_t negates, uint32_t guard, int line) {
        ClausePart p;
        p.kind = ClausePart::Kind::Condition;
        p.id = ++conditions_;
        p.guard = guard;
        p.test = test;
        p.negates = negates;
        p.line = line;
        parts.push_back(std::move(p));
        return conditions_;
    }

    void visit(const std::vector<const Stmt *> &stmts, uint32_t guard) {
        std::vector<const Stmt *> block;
        for (const Stmt *s : stmts) {
            if (s->kind != Stmt::Kind::If) {
                block.push_back(s);
                continue;
            }
            add_block(guard, block);
            const Expr &test = *s->expr;
            uint32_t then_id = add_condition(&test, 0, guard, test.line);
            visit(body(*s, 0), then_id);
            if (s->body.size() > 1)
                visit(body(*s, 1), add_condition(nullptr, then_id, guard, test.line));
        }
        add_block(guard, block);
    }

  private:
    static std::vector<const Stmt *> body(const Stmt &if_stmt, size_t which) {
        std::vector<const Stmt *> out;
        flatten(*if_stmt.body[which], out);
        return out;
    }

    // A block before any condition exists needs no predicate: nothing can
    // have faulted yet in this clause.
    void add_block(uint32_t guard, std::vector<const Stmt *> &stmts) {
        if (stmts.empty())
            return;
        ClausePart p;
        p.kind = ClausePart::Kind::Block;
        p.guard = guard;
        p.checks_error_flag = guard != 0 || conditions_ != 0;
        p.statements = std::move(stmts);
        stmts.clear();
        parts.push_back(std::move(p));
    }

    uint32_t conditions_ = 0;
};

} // namespace

bool has_if(const ProbeClause &c) {
    return any_if(c.statements);
}

std::vector<ClausePart> split_clause(const ProbeClause &c) {
    Splitter s;
    s.parts.push_back(ClausePart{ClausePart::Kind::ClearErrorFlag});
    uint32_t guard = 0;
    if (c.predicate)
        guard = s.add_condition(c.predicate.get(), 0, 0, c.predicate->line);
    s.visit(flatten(c.statements), guard);
    return std::move(s.parts);
}

} // namespace dtrace::compiler
