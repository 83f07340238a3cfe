// fault.cpp: DTrace's fault texts (libdtrace's fault-string table), by kind.
#include "dif/fault.h"

namespace dtrace::dif {

const char *fault_message(FaultKind kind) {
    switch (kind) {
    case FaultKind::None:
        return "no fault";
    case FaultKind::BadAddr:
        return "invalid address";
    case FaultKind::BadAlign:
        return "invalid alignment";
    case FaultKind::IllOp:
        return "illegal operation";
    case FaultKind::DivZero:
        return "divide-by-zero";
    case FaultKind::NoScratch:
        return "out of scratch space";
    case FaultKind::KPriv:
        return "invalid kernel access";
    case FaultKind::UPriv:
        return "invalid user access";
    case FaultKind::TupleOverflow:
        return "tuple stack overflow";
    case FaultKind::BadStack:
        return "bad stack";
    }
    return "unknown fault";
}

} // namespace dtrace::dif
