// family_reg.cpp: reg — the registry (Registry class): registry_t *.
//
// create 10, open 11, delete 12, query 13, setvalue 14, delvalue 15,
// queryvalue 16, enumkey 17, enumvaluekey 18, querymulvalue 19, setinfo 20,
// flush 21, kcbcreate 22, kcbdelete 23, virtualize 26, close 27,
// setsecurity 28, querysecurity 29.
#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

namespace {

namespace field {
const MofFieldId Index{"Index"};
const MofFieldId Status{"Status"};
const MofFieldId InitialTime{"InitialTime"};
const MofFieldId KeyHandle{"KeyHandle"};
const MofFieldId KeyName{"KeyName"};
} // namespace field

constexpr dtrace_arg_desc kRegistry[] = {kernel_arg("etw_registry_t *", 0, "registry_t *")};

size_t registry(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    uint64_t address = 0;
    KernelRecord &g = c.memory.record(address);
    g[reg::r_index] = r.u(field::Index);
    g[reg::r_status] = r.u(field::Status);
    g[reg::r_intime] = static_cast<uint64_t>(c.ns(r.u(field::InitialTime)));
    g[reg::r_rname] = c.memory.text(c.state.key_name(r.u(field::KeyHandle), r.s(field::KeyName)));
    a[0] = address;
    return 1;
}

using K = KernelClass;
constexpr KernelProbe kRows[] = {
    {"reg", "create", K::Registry, {10}, kRegistry, registry, "", ""},
    {"reg", "open", K::Registry, {11}, kRegistry, registry, "", ""},
    {"reg", "delete", K::Registry, {12}, kRegistry, registry, "", ""},
    {"reg", "query", K::Registry, {13}, kRegistry, registry, "", ""},
    {"reg", "setvalue", K::Registry, {14}, kRegistry, registry, "", ""},
    {"reg", "delvalue", K::Registry, {15}, kRegistry, registry, "", ""},
    {"reg", "queryvalue", K::Registry, {16}, kRegistry, registry, "", ""},
    {"reg", "enumkey", K::Registry, {17}, kRegistry, registry, "", ""},
    {"reg", "enumvaluekey", K::Registry, {18}, kRegistry, registry, "", ""},
    {"reg", "querymulvalue", K::Registry, {19}, kRegistry, registry, "", ""},
    {"reg", "setinfo", K::Registry, {20}, kRegistry, registry, "", ""},
    {"reg", "flush", K::Registry, {21}, kRegistry, registry, "", ""},
    {"reg", "kcbcreate", K::Registry, {22}, kRegistry, registry, "", ""},
    {"reg", "kcbdelete", K::Registry, {23}, kRegistry, registry, "", ""},
    {"reg", "virtualize", K::Registry, {26}, kRegistry, registry, "", ""},
    {"reg", "close", K::Registry, {27}, kRegistry, registry, "", ""},
    {"reg", "setsecurity", K::Registry, {28}, kRegistry, registry, "", ""},
    {"reg", "querysecurity", K::Registry, {29}, kRegistry, registry, "", ""},
};

} // namespace

std::span<const KernelProbe> reg_family() {
    return kRows;
}

} // namespace dtrace::etw::plugin::kernel
