/*
 * syscall_emit.bpf.h: what the syscall provider's programs do with one
 * system call entry or return once they know its probe slot: read the
 * slot's configuration, apply the pre-filter, copy argument memory, and
 * write a live_record to the ring. Shared by the per-call tracepoint
 * programs (syscall_events.bpf.c) and the raw_syscalls ones
 * (syscall_raw_events.bpf.c).
 */
#ifndef DTRACE_SYSCALL_EMIT_BPF_H
#define DTRACE_SYSCALL_EMIT_BPF_H

#include "live_context.bpf.h"
#include "live_stacks.bpf.h"

#define MAX_ERRNO 4095

/* The raw_syscalls programs' attach cookie: this bit, and the direction
 * (0 entry, 1 return) in bit 0; a per-call program's is its probe slot. */
#define SYSCALL_RAW_COOKIE (1ull << 32)

/* Index: number * 2 + (0 entry, 1 return); value: slot + 1 (0: none). The
 * raw_syscalls programs find a call's probe slot here. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, LIVE_MAX_SYSCALLS * 2);
    __type(key, __u32);
    __type(value, __u32);
} live_syscall_slots SEC(".maps");

static __always_inline int slot_of(__s64 nr, __u32 direction, __u32 *slot) {
    if (nr < 0 || nr >= LIVE_MAX_SYSCALLS)
        return 0;
    __u32 key = (__u32)nr * 2 + direction;
    __u32 *value = bpf_map_lookup_elem(&live_syscall_slots, &key);
    if (!value || *value == 0)
        return 0;
    *slot = *value - 1;
    return 1;
}

struct live_scratch {
    struct live_record record;
    char data[LIVE_MAX_CAPTURES * LIVE_CAPTURE_MAX + LIVE_STACK_TAIL_MAX];
};

/* Records with captured memory are built here, then copied to the ring at
 * their real size (a reservation's size must be a constant). */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct live_scratch);
} live_scratch SEC(".maps");

static __always_inline void copy_args(struct live_record *r, const __u64 *args) {
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        r->args[i] = args[i];
}

/* A record without captures, reserved in the ring directly. */
static __always_inline int emit_plain(__u32 slot, __s32 nr, const __u64 *args, __s32 error) {
    struct live_record *r = bpf_ringbuf_reserve(&live_events, sizeof *r, 0);
    if (!r) {
        live_count_drop();
        return 0;
    }
    r->timestamp = bpf_ktime_get_ns();
    live_fill_context(r, slot);
    copy_args(r, args);
    r->size = sizeof *r;
    r->error = error;
    r->syscall_nr = nr;
#pragma unroll
    for (int i = 0; i < LIVE_MAX_CAPTURES; i++) {
        r->capture_length[i] = 0;
        r->capture_arg[i] = 0;
        r->capture_mode[i] = LIVE_CAPTURE_NONE;
    }
    bpf_ringbuf_submit(r, live_submit_flags());
    return 0;
}

/* Copies one argument's memory to dst; returns the bytes copied. */
static __always_inline __u32 capture(char *dst, const struct live_capture_spec *spec, const __u64 *args, __u32 limit) {
    if (spec->arg >= LIVE_MAX_ARGS)
        return 0;
    const void *src = (const void *)args[spec->arg];
    if (spec->mode == LIVE_CAPTURE_STRING) {
        long n = bpf_probe_read_user_str(dst, limit, src);
        return n > 0 ? (__u32)n : 0;
    }
    if (spec->length_arg >= LIVE_MAX_ARGS)
        return 0;
    __u64 length = args[spec->length_arg];
    if (length > limit)
        length = limit;
    if (length == 0 || bpf_probe_read_user(dst, length, src) != 0)
        return 0;
    return (__u32)length;
}

/* A record built in the scratch: with the argument memory and the stacks
 * the probe's clauses read. */
static __always_inline int emit_with_captures(void *ctx, __u32 slot, __s32 nr, const struct live_probe_config *cfg,
                                              const __u64 *args, __s32 error) {
    __u32 zero = 0;
    struct live_scratch *s = bpf_map_lookup_elem(&live_scratch, &zero);
    if (!s)
        return 0;
    struct live_record *r = &s->record;
    live_fill_context(r, slot);
    copy_args(r, args);
    r->error = error;
    r->syscall_nr = nr;
    __u32 limit = cfg->capture_limit;
    if (limit > LIVE_CAPTURE_MAX)
        limit = LIVE_CAPTURE_MAX;
    __u32 used = 0;
#pragma unroll
    for (int i = 0; i < LIVE_MAX_CAPTURES; i++) {
        __u32 length = 0;
        if (cfg->captures[i].mode != LIVE_CAPTURE_NONE && used <= LIVE_CAPTURE_MAX * i)
            length = capture(s->data + used, &cfg->captures[i], args, limit);
        r->capture_length[i] = length;
        r->capture_arg[i] = cfg->captures[i].arg;
        r->capture_mode[i] = length ? cfg->captures[i].mode : LIVE_CAPTURE_NONE;
        used += length;
    }
    if (cfg->stacks && used <= LIVE_MAX_CAPTURES * LIVE_CAPTURE_MAX)
        used +=
            live_append_stacks(ctx, s->data + used, cfg->stacks, cfg->user_stack_bytes, bpf_get_current_task_btf(), 1);
    __u64 size = sizeof *r + used;
    if (size > sizeof *s)
        return 0;
    r->size = size;
    r->timestamp = bpf_ktime_get_ns();
    if (bpf_ringbuf_output(&live_events, s, size, live_submit_flags()) != 0)
        live_count_drop();
    return 0;
}

/* An entry with its arguments (zero beyond the call's own). */
static __always_inline int handle_entry(void *ctx, __u32 slot, __s32 nr, __u64 *args) {
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return 0;
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++) {
        if (i >= cfg->nargs)
            args[i] = 0;
    }
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    if (cfg->captures[0].mode == LIVE_CAPTURE_NONE && !cfg->stacks)
        return emit_plain(slot, nr, args, 0);
    return emit_with_captures(ctx, slot, nr, cfg, args, 0);
}

/* DTrace's return probes: arg0 and arg1 are the value the caller sees (-1
 * on failure) and errno says why it failed. */
static __always_inline int handle_return(void *ctx, __u32 slot, __s32 nr, __s64 ret) {
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return 0;
    __s32 error = 0;
    if (ret < 0 && ret >= -MAX_ERRNO) {
        error = (__s32)-ret;
        ret = -1;
    }
    __u64 args[LIVE_MAX_ARGS] = {(__u64)ret, (__u64)ret};
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    if (cfg->stacks)
        return emit_with_captures(ctx, slot, nr, cfg, args, error);
    return emit_plain(slot, nr, args, error);
}

#endif /* DTRACE_SYSCALL_EMIT_BPF_H */
