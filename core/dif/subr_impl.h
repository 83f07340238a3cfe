// subr_impl.h: the subroutine implementations, one family per file
// (subr_string, subr_path, subr_convert, subr_net, subr_memory, subr_json,
// subr_process); the table in
// subroutines.cpp binds them to names and arities. Arguments arrive already
// counted against the table's arity.
#pragma once

#include "dif/subroutines.h"

namespace dtrace::dif::subr {

using Args = std::span<const uint64_t>;

// subr_string.cpp
uint64_t strlen(SubrContext &ctx, Args args);
uint64_t strjoin(SubrContext &ctx, Args args);
uint64_t substr(SubrContext &ctx, Args args);
uint64_t index(SubrContext &ctx, Args args);
uint64_t rindex(SubrContext &ctx, Args args);
uint64_t strstr(SubrContext &ctx, Args args);
uint64_t strchr(SubrContext &ctx, Args args);
uint64_t strrchr(SubrContext &ctx, Args args);
uint64_t strtok(SubrContext &ctx, Args args);
uint64_t toupper(SubrContext &ctx, Args args);
uint64_t wstringof(SubrContext &ctx, Args args);
uint64_t tolower(SubrContext &ctx, Args args);

// subr_path.cpp
uint64_t basename(SubrContext &ctx, Args args);
uint64_t dirname(SubrContext &ctx, Args args);
uint64_t cleanpath(SubrContext &ctx, Args args);
uint64_t memref(SubrContext &ctx, Args args);
uint64_t memstr(SubrContext &ctx, Args args);

// subr_convert.cpp
uint64_t lltostr(SubrContext &ctx, Args args);
uint64_t strtoll(SubrContext &ctx, Args args);
uint64_t htons(SubrContext &ctx, Args args);
uint64_t htonl(SubrContext &ctx, Args args);
uint64_t htonll(SubrContext &ctx, Args args);
uint64_t rand(SubrContext &ctx, Args args);

// subr_net.cpp
uint64_t inet_ntoa(SubrContext &ctx, Args args);
uint64_t inet_ntoa6(SubrContext &ctx, Args args);
uint64_t inet_ntop(SubrContext &ctx, Args args);

// subr_memory.cpp
uint64_t copyin(SubrContext &ctx, Args args);
uint64_t copyinstr(SubrContext &ctx, Args args);
uint64_t copyinto(SubrContext &ctx, Args args);
uint64_t allocate(SubrContext &ctx, Args args); // alloca() (a libc macro name)
uint64_t bcopy(SubrContext &ctx, Args args);

// subr_json.cpp, subr_process.cpp
uint64_t json(SubrContext &ctx, Args args);
uint64_t progenyof(SubrContext &ctx, Args args);

// subr_stack.cpp
uint64_t stack(SubrContext &ctx, Args args);
uint64_t ustack(SubrContext &ctx, Args args);
uint64_t usymaddr(SubrContext &ctx, Args args);

// subroutines.cpp
uint64_t speculation(SubrContext &ctx, Args args);
uint64_t write_target(SubrContext &ctx, Args args);

} // namespace dtrace::dif::subr
