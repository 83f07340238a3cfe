// sdk_filter.h: the SDK's predicate filters (dtrace_filter, set_filters) as
// the live library's probe filter.
//
// The host hands a probe the disjunction of its clauses' hoistable
// predicates: nfilters conjunctions, or none when some clause wants every
// event. A term of a field or comparison this SDK version does not know is
// left out of its conjunction, which only widens it.
#pragma once

#include <cstdint>

#include <dtrace/provider.h>

#include "kernel_filter.h"

namespace dtrace::live {

ProbeFilter probe_filter_of(uint32_t nfilters, const dtrace_filter *filters);

} // namespace dtrace::live
