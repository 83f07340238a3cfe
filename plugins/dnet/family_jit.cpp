// family_jit.cpp: dnet::jit, the JIT compiler's events (DotNETRuntime, JIT
// keyword 0x10; inlining and tail calls need JitTracing 0x1000).
//
// method-jit-begin MethodJittingStarted (145); method-load MethodLoad and
// MethodLoadVerbose (141, 143); method-unload MethodUnload and
// MethodUnloadVerbose (142, 144): netmethod_t (the names come with the
// verbose events and MethodJittingStarted, "" otherwise). static-method-load
// and static-method-unload are the rundown's MethodDCStart(Verbose) and
// MethodDCEnd(Verbose) (Rundown 141/143, 142/144): the methods that were
// already there when the session started or still are at its end.
// inline-success, inline-fail MethodJitInlining* (185, 186): netinline_t;
// tailcall-success, tailcall-fail MethodJitTailCall* (188, 189): nettailcall_t.
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kMethod[] = {
    {"clr_methid", "uint64_t", "MethodID"},
    {"clr_modid", "uint64_t", "ModuleID"},
    {"clr_methstart", "uint64_t", "MethodStartAddress"},
    {"clr_methsize", "uint32_t", "MethodSize"},
    {"clr_methtoken", "uint32_t", "MethodToken"},
    {"clr_methflags", "uint32_t", "MethodFlags"},
    {"clr_methilsize", "uint32_t", "MethodILSize"},
    {"clr_methnamespace", "string", "MethodNamespace"},
    {"clr_methname", "string", "MethodName"},
    {"clr_methsig", "string", "MethodSignature"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
    {"clr_rejitid", "uint64_t", "ReJITID"},
};
constexpr DnetType kNetMethod = {"netmethod", kMethod};

// The method being compiled, then the two methods of the inlining or call.
constexpr DnetMember kInline[] = {
    {"clr_compiled_ns", "string", "MethodBeingCompiledNamespace"},
    {"clr_compiled_name", "string", "MethodBeingCompiledName"},
    {"clr_compiled_sig", "string", "MethodBeingCompiledNameSignature"},
    {"clr_inliner_ns", "string", "InlinerNamespace"},
    {"clr_inliner_name", "string", "InlinerName"},
    {"clr_inliner_sig", "string", "InlinerNameSignature"},
    {"clr_inlinee_ns", "string", "InlineeNamespace"},
    {"clr_inlinee_name", "string", "InlineeName"},
    {"clr_inlinee_sig", "string", "InlineeNameSignature"},
    {"clr_failalways", "uint32_t", "FailAlways"},
    {"clr_failreason", "string", "FailReason"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetInline = {"netinline", kInline};

constexpr DnetMember kTailCall[] = {
    {"clr_compiled_ns", "string", "MethodBeingCompiledNamespace"},
    {"clr_compiled_name", "string", "MethodBeingCompiledName"},
    {"clr_compiled_sig", "string", "MethodBeingCompiledNameSignature"},
    {"clr_caller_ns", "string", "CallerNamespace"},
    {"clr_caller_name", "string", "CallerName"},
    {"clr_caller_sig", "string", "CallerNameSignature"},
    {"clr_callee_ns", "string", "CalleeNamespace"},
    {"clr_callee_name", "string", "CalleeName"},
    {"clr_callee_sig", "string", "CalleeNameSignature"},
    {"clr_tailprefix", "uint32_t", "TailPrefix"},
    {"clr_tailcalltype", "uint32_t", "TailCallType"},
    {"clr_failreason", "string", "FailReason"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetTailCall = {"nettailcall", kTailCall};

constexpr ClrProvider kRuntime = ClrProvider::Runtime;
constexpr ClrProvider kRundown = ClrProvider::Rundown;

constexpr DnetProbe kRows[] = {
    {"jit", "method-jit-begin", kRuntime, {145}, &kNetMethod},
    {"jit", "method-load", kRuntime, {141, 143}, &kNetMethod},
    {"jit", "method-unload", kRuntime, {142, 144}, &kNetMethod},
    {"jit", "static-method-load", kRundown, {141, 143}, &kNetMethod},
    {"jit", "static-method-unload", kRundown, {142, 144}, &kNetMethod},
    {"jit", "inline-success", kRuntime, {185}, &kNetInline},
    {"jit", "inline-fail", kRuntime, {186}, &kNetInline},
    {"jit", "tailcall-success", kRuntime, {188}, &kNetTailCall},
    {"jit", "tailcall-fail", kRuntime, {189}, &kNetTailCall},
};

} // namespace

std::span<const DnetProbe> jit_family() {
    return kRows;
}

} // namespace dtrace::dnet
