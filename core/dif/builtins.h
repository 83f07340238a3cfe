// builtins.h: the names of DIF's builtin variables (VarId), for the assembler,
// the disassembler and the validator. One table, in VarId order.
#pragma once

#include "dif/isa.h"

#include <optional>
#include <string_view>

namespace dtrace::dif {

struct BuiltinInfo {
    VarId id;
    const char *name;
    bool is_array; // read with Ldga, index in r1 (args[], uregs[])
};

// nullptr when `id` names no builtin.
const BuiltinInfo *builtin_info(uint32_t id);
std::optional<VarId> builtin_by_name(std::string_view name);

} // namespace dtrace::dif
