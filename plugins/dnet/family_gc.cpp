// family_gc.cpp: dnet::gc, the garbage collector's events (DotNETRuntime,
// GC keyword 0x1).
//
// gc-start GCStart (1), gc-end GCEnd (2), suspend-start GCSuspendEEBegin (9),
// suspend-end GCSuspendEEEnd (8), resume-begin GCRestartEEBegin (7),
// resume-end GCRestartEEEnd (3), finalizer-begin GCFinalizersBegin (14),
// finalizer-end GCFinalizersEnd (13), conc-thr-create and conc-thr-exit
// GCCreate/TerminateConcurrentThread (11, 12): netgc_t (what an event does
// not carry reads 0: gc_depth and gc_type come with GCStart and GCEnd,
// gc_reason with GCStart and GCSuspendEEBegin). heapstat GCHeapStats (4):
// netgcheapstat_t; seg-create, seg-free GCCreate/FreeSegment (5, 6):
// netgcseg_t; allocate-tick GCAllocationTick (10, about every 100 KB
// allocated): netgcalloctick_t, gc_amt the bytes since the last tick.
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kGc[] = {
    {"clr_instid", "uint16_t", "ClrInstanceID"}, {"gc_count", "uint32_t", "Count"}, {"gc_depth", "uint32_t", "Depth"},
    {"gc_reason", "uint32_t", "Reason"},         {"gc_type", "uint32_t", "Type"},
};
constexpr DnetType kNetGc = {"netgc", kGc};

constexpr DnetMember kGcSeg[] = {
    {"gc_addr", "uint64_t", "Address"},
    {"gc_size", "uint64_t", "Size"},
    {"gc_type", "uint32_t", "Type"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetGcSeg = {"netgcseg", kGcSeg};

constexpr DnetMember kGcAllocTick[] = {
    {"gc_amt", "uint32_t", "AllocationAmount"},  {"gc_kind", "uint32_t", "AllocationKind"},
    {"clr_instid", "uint16_t", "ClrInstanceID"}, {"gc_amt64", "uint64_t", "AllocationAmount64"},
    {"gc_typeid", "uint64_t", "TypeID"},         {"gc_typename", "string", "TypeName"},
    {"gc_heapindex", "uint32_t", "HeapIndex"},   {"gc_addr", "uint64_t", "Address"},
};
constexpr DnetType kNetGcAllocTick = {"netgcalloctick", kGcAllocTick};

constexpr DnetMember kGcHeapStat[] = {
    {"gc_gensz0", "uint64_t", "GenerationSize0"},
    {"gc_totpromsize0", "uint64_t", "TotalPromotedSize0"},
    {"gc_gensz1", "uint64_t", "GenerationSize1"},
    {"gc_totpromsize1", "uint64_t", "TotalPromotedSize1"},
    {"gc_gensz2", "uint64_t", "GenerationSize2"},
    {"gc_totpromsize2", "uint64_t", "TotalPromotedSize2"},
    {"gc_gensz3", "uint64_t", "GenerationSize3"},
    {"gc_totpromsize3", "uint64_t", "TotalPromotedSize3"},
    {"gc_finpromsz", "uint64_t", "FinalizationPromotedSize"},
    {"gc_finpromcount", "uint64_t", "FinalizationPromotedCount"},
    {"gc_pinnedobjco", "uint32_t", "PinnedObjectCount"},
    {"gc_sinkblkcount", "uint32_t", "SinkBlockCount"},
    {"gc_gchandcount", "uint32_t", "GCHandleCount"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
    {"gc_gensz4", "uint64_t", "GenerationSize4"},
    {"gc_totpromsize4", "uint64_t", "TotalPromotedSize4"},
};
constexpr DnetType kNetGcHeapStat = {"netgcheapstat", kGcHeapStat};

constexpr ClrProvider kRuntime = ClrProvider::Runtime;

constexpr DnetProbe kRows[] = {
    {"gc", "gc-start", kRuntime, {1}, &kNetGc},         {"gc", "gc-end", kRuntime, {2}, &kNetGc},
    {"gc", "heapstat", kRuntime, {4}, &kNetGcHeapStat}, {"gc", "allocate-tick", kRuntime, {10}, &kNetGcAllocTick},
    {"gc", "seg-create", kRuntime, {5}, &kNetGcSeg},    {"gc", "seg-free", kRuntime, {6}, &kNetGcSeg},
    {"gc", "suspend-start", kRuntime, {9}, &kNetGc},    {"gc", "suspend-end", kRuntime, {8}, &kNetGc},
    {"gc", "resume-begin", kRuntime, {7}, &kNetGc},     {"gc", "resume-end", kRuntime, {3}, &kNetGc},
    {"gc", "finalizer-begin", kRuntime, {14}, &kNetGc}, {"gc", "finalizer-end", kRuntime, {13}, &kNetGc},
    {"gc", "conc-thr-create", kRuntime, {11}, &kNetGc}, {"gc", "conc-thr-exit", kRuntime, {12}, &kNetGc},
};

} // namespace

std::span<const DnetProbe> gc_family() {
    return kRows;
}

} // namespace dtrace::dnet
