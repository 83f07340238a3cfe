// family_thread.cpp: dnet::thread, the thread pool (DotNETRuntime, Threading
// keyword 0x10000).
//
// thr-start, thr-stop, thr-retire, thr-unretire ThreadPoolWorkerThreadStart,
// Stop, RetirementStart, RetirementStop (50-53) and io-start, io-exit,
// io-retire, io-unretire IOThreadCreate, Terminate, Retire, Unretire
// (44-47): netthrinfo_t, the counts of active and retired threads after the
// event. adj, adj-adj, adj-stats ThreadPoolWorkerThreadAdjustmentSample,
// Adjustment, Stats (54-56), the hill-climbing's decisions: netthradj_t
// (the throughput figures are doubles: their bits, read with a cast).
#include "dnet_family.h"

namespace dtrace::dnet {

namespace {

constexpr DnetMember kThreadInfo[] = {
    {"clr_thrco", "uint64_t", "ActiveWorkerThreadCount"},
    {"clr_retireco", "uint64_t", "RetiredWorkerThreadCount"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetThreadInfo = {"netthrinfo", kThreadInfo};

// The same members over the I/O threads' events, which name their counts
// otherwise: one D type, two twins.
constexpr DnetMember kIoThreadInfo[] = {
    {"clr_thrco", "uint64_t", "IOThreadCount"},
    {"clr_retireco", "uint64_t", "RetiredIOThreads"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetIoThreadInfo = {"netthrinfo", kIoThreadInfo};

constexpr DnetMember kAdjust[] = {
    {"clr_throughput", "uint64_t", "Throughput"},
    {"clr_avgthroughput", "uint64_t", "AverageThroughput"},
    {"clr_newthrco", "uint32_t", "NewWorkerThreadCount"},
    {"clr_reason", "uint32_t", "Reason"},
    {"clr_duration", "uint64_t", "Duration"},
    {"clr_thrwave", "uint64_t", "ThreadWave"},
    {"clr_newctrlsetting", "uint64_t", "NewControlSetting"},
    {"clr_newthrwavemag", "uint16_t", "NewThreadWaveMagnitude"},
    {"clr_instid", "uint16_t", "ClrInstanceID"},
};
constexpr DnetType kNetAdjust = {"netthradj", kAdjust};

constexpr ClrProvider kRuntime = ClrProvider::Runtime;

constexpr DnetProbe kRows[] = {
    {"thread", "thr-start", kRuntime, {50}, &kNetThreadInfo},
    {"thread", "thr-stop", kRuntime, {51}, &kNetThreadInfo},
    {"thread", "thr-retire", kRuntime, {52}, &kNetThreadInfo},
    {"thread", "thr-unretire", kRuntime, {53}, &kNetThreadInfo},
    {"thread", "io-start", kRuntime, {44}, &kNetIoThreadInfo},
    {"thread", "io-exit", kRuntime, {45}, &kNetIoThreadInfo},
    {"thread", "io-retire", kRuntime, {46}, &kNetIoThreadInfo},
    {"thread", "io-unretire", kRuntime, {47}, &kNetIoThreadInfo},
    {"thread", "adj", kRuntime, {54}, &kNetAdjust},
    {"thread", "adj-adj", kRuntime, {55}, &kNetAdjust},
    {"thread", "adj-stats", kRuntime, {56}, &kNetAdjust},
};

} // namespace

std::span<const DnetProbe> thread_family() {
    return kRows;
}

} // namespace dtrace::dnet
