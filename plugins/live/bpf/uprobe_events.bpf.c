/*
 * uprobe_events.bpf.c: the one BPF program of user-space probes (the pid
 * provider, USDT), attached to uprobes by uprobe_attach.h. The attach cookie
 * names the probe slot (and, for a return instruction, its offset in the
 * function: see uprobe_record.h). The program reads the registers of the
 * probed instruction, applies the slot's pre-filter, copies argument memory
 * (a string as the call saw it) and, when the slot asks for it, the user
 * stack from rsp, and writes [live_record][captures][uprobe_tail][stack] to
 * the ring; or, for a slot whose clauses dtrace compiled to BPF, runs that
 * program by a tail call instead (uprobe_fastpath), which can send an event
 * it declines back (uprobe_declined_event).
 *
 * Two copies of the same code (and of its way back): uprobe_event for uprobes made one at a time
 * (the uprobe PMU), uprobe_multi_event for uprobe_multi links, which the
 * kernel wants loaded with that attach type (set by user space before load).
 */
#include <asm/ptrace.h>

#include "live_context.bpf.h"
#include "live_fetch.bpf.h"
#include "live_stacks.bpf.h"
#include "uprobe_record.h"

char LICENSE[] SEC("license") = "GPL";

#define SIGNAL_STOP 19 /* SIGSTOP */

/* A probe slot's configuration index (uprobe_record.h). */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, UPROBE_MAX_SLOTS);
    __type(key, __u32);
    __type(value, __u32);
} uprobe_slots SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, LIVE_MAX_PROBES);
    __type(key, __u32);
    __type(value, struct uprobe_probe_config);
} uprobe_probes SEC(".maps");

/* Programs dtrace generated from a probe's clauses (core/fastpath), by
 * probe slot: a slot with one runs it by a tail call, and its events never
 * reach the ring (the syscall plugin's live_fastpath holds LIVE_MAX_PROBES,
 * far fewer than the slots). */
struct {
    __uint(type, BPF_MAP_TYPE_PROG_ARRAY);
    __uint(max_entries, UPROBE_MAX_SLOTS);
    __type(key, __u32);
    __type(value, __u32);
} uprobe_fastpath SEC(".maps");

#define CAPTURE_SPACE (LIVE_MAX_CAPTURES * LIVE_CAPTURE_MAX)

struct uprobe_scratch {
    struct live_record record;
    char data[CAPTURE_SPACE + sizeof(struct uprobe_tail) + UPROBE_FETCH_DATA + UPROBE_STACK_MAX];
};

/* Records are built here, then copied to the ring at their real size. */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct uprobe_scratch);
} uprobe_scratch SEC(".maps");

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

/* Runs the probe's fetch steps into `fetched` (UPROBE_FETCH_DATA bytes after
 * the tail): the process's memory its clauses will read, as the call saw it. */
static __always_inline void fetch_user_memory(const struct uprobe_probe_config *ucfg, const __u64 *args,
                                              struct uprobe_tail *tail, char *fetched) {
    const struct live_fetch_where where = {UPROBE_MAX_FETCHES, UPROBE_FETCH_MAX_LENGTH, UPROBE_FETCH_DATA, 0};
    tail->fetch_bytes = live_run_fetch_steps(where, ucfg->fetches, ucfg->nfetches, args, tail->fetched, (__u8 *)fetched,
                                             &tail->nfetched);
}

static __always_inline void copy_regs(__u64 *regs, const struct pt_regs *ctx) {
    regs[UPROBE_REG_R15] = ctx->r15;
    regs[UPROBE_REG_R14] = ctx->r14;
    regs[UPROBE_REG_R13] = ctx->r13;
    regs[UPROBE_REG_R12] = ctx->r12;
    regs[UPROBE_REG_RBP] = ctx->rbp;
    regs[UPROBE_REG_RBX] = ctx->rbx;
    regs[UPROBE_REG_R11] = ctx->r11;
    regs[UPROBE_REG_R10] = ctx->r10;
    regs[UPROBE_REG_R9] = ctx->r9;
    regs[UPROBE_REG_R8] = ctx->r8;
    regs[UPROBE_REG_RAX] = ctx->rax;
    regs[UPROBE_REG_RCX] = ctx->rcx;
    regs[UPROBE_REG_RDX] = ctx->rdx;
    regs[UPROBE_REG_RSI] = ctx->rsi;
    regs[UPROBE_REG_RDI] = ctx->rdi;
    regs[UPROBE_REG_ORIG_RAX] = ctx->orig_rax;
    regs[UPROBE_REG_RIP] = ctx->rip;
    regs[UPROBE_REG_CS] = ctx->cs;
    regs[UPROBE_REG_EFLAGS] = ctx->eflags;
    regs[UPROBE_REG_RSP] = ctx->rsp;
    regs[UPROBE_REG_SS] = ctx->ss;
}

/* A register of the probed instruction by its uprobe_reg number (the
 * order of struct pt_regs): read from the context at its offset, as a
 * computed offset into the context itself is refused by the verifier. */
static __always_inline __u64 usdt_register(const struct pt_regs *ctx, __u8 reg) {
    __u64 value = 0;
    if (reg < UPROBE_NREGS)
        bpf_probe_read_kernel(&value, sizeof value, (const char *)ctx + reg * sizeof(__u64));
    return value;
}

/* A USDT site's arguments where its note puts them, at their size and signedness. */
static __always_inline void usdt_arguments(const struct pt_regs *ctx, const struct uprobe_probe_config *ucfg,
                                           __u64 *args) {
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++) {
        const struct uprobe_usdt_arg *a = &ucfg->usdt_args[i];
        __u64 value = 0;
        __u32 size = a->size;
        if (size == 0 || size > 8)
            size = 8;
        if (a->kind == UPROBE_USDT_CONST)
            value = a->value;
        else if (a->kind == UPROBE_USDT_REG)
            value = usdt_register(ctx, a->reg);
        else if (a->kind == UPROBE_USDT_MEMORY)
            bpf_probe_read_user(&value, size, (const void *)(usdt_register(ctx, a->reg) + a->value));
        if (size < 8) {
            __u32 shift = 64 - 8 * size;
            value = a->is_signed ? (__u64)((__s64)(value << shift) >> shift) : (value << shift) >> shift;
        }
        args[i] = value;
    }
}

/* `fastpath`: run the slot's program of dtrace's if it has one (0: the
 * event is one that program declined, delivered as without it). */
static __always_inline int handle(struct pt_regs *ctx, int fastpath) {
    __u64 cookie = bpf_get_attach_cookie(ctx);
    __u32 slot = UPROBE_COOKIE_SLOT(cookie);
    if (fastpath)
        bpf_tail_call(ctx, &uprobe_fastpath, slot);
    const __u32 *index = bpf_map_lookup_elem(&uprobe_slots, &slot);
    if (!index || *index == 0)
        return 0;
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, index);
    const struct uprobe_probe_config *ucfg = bpf_map_lookup_elem(&uprobe_probes, index);
    if (!cfg || !ucfg || !cfg->armed)
        return 0;
    __u64 args[LIVE_MAX_ARGS] = {ctx->rdi, ctx->rsi, ctx->rdx, ctx->rcx, ctx->r8, ctx->r9};
    if (cfg->kind == LIVE_KIND_UPROBE_RETURN) {
        args[0] = UPROBE_COOKIE_OFFSET(cookie);
        args[1] = ctx->rax;
    }
    if (cfg->kind == LIVE_KIND_USDT)
        usdt_arguments(ctx, ucfg, args);
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++) {
        if (i >= cfg->nargs)
            args[i] = 0;
    }
    if (!live_filter_passes(&cfg->filter, args))
        return 0;

    /* The common case, counting calls: a bare record, reserved in the ring. */
    if (!(ucfg->flags & (UPROBE_FLAG_TAIL | UPROBE_FLAG_STOP)) && cfg->captures[0].mode == LIVE_CAPTURE_NONE) {
        struct live_record *bare = bpf_ringbuf_reserve(&live_events, sizeof *bare, 0);
        if (!bare) {
            live_count_drop();
            return 0;
        }
        bare->timestamp = bpf_ktime_get_ns();
        live_fill_context(bare, slot);
#pragma unroll
        for (int i = 0; i < LIVE_MAX_ARGS; i++)
            bare->args[i] = args[i];
        bare->size = sizeof *bare;
        bare->error = 0;
        bare->syscall_nr = -1;
#pragma unroll
        for (int i = 0; i < LIVE_MAX_CAPTURES; i++) {
            bare->capture_length[i] = 0;
            bare->capture_arg[i] = 0;
            bare->capture_mode[i] = LIVE_CAPTURE_NONE;
        }
        bpf_ringbuf_submit(bare, live_submit_flags());
        return 0;
    }

    __u32 zero = 0;
    struct uprobe_scratch *s = bpf_map_lookup_elem(&uprobe_scratch, &zero);
    if (!s)
        return 0;
    struct live_record *r = &s->record;
    live_fill_context(r, slot);
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        r->args[i] = args[i];
    r->error = 0;
    r->syscall_nr = -1;

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
    if (used > CAPTURE_SPACE)
        return 0;
    r->size = sizeof *r + used;

    struct uprobe_tail *tail = (struct uprobe_tail *)(s->data + used);
    copy_regs(tail->regs, ctx);
#pragma unroll
    for (int i = 0; i < UPROBE_STACK_ARGS; i++)
        tail->stack_args[i] = 0;
    if (cfg->kind == LIVE_KIND_UPROBE_ENTRY && cfg->nargs > LIVE_MAX_ARGS)
        bpf_probe_read_user(tail->stack_args, sizeof tail->stack_args, (const void *)(ctx->rsp + 8));
    fetch_user_memory(ucfg, args, tail, s->data + used + sizeof *tail);
    __u64 fetched = tail->fetch_bytes;
    asm volatile("%0 &= %1" : "+r"(fetched) : "i"(2 * UPROBE_FETCH_DATA - 1));
    if (fetched > UPROBE_FETCH_DATA)
        return 0;
    __u32 stack = 0;
    if (ucfg->stack_bytes)
        stack = live_copy_user_stack(s->data + used + sizeof *tail + fetched, ctx->rsp,
                                     live_user_stack_wanted(ctx->rsp, ucfg->stack_bytes));
    tail->stack_size = stack;
    tail->pad = 0;

    __u64 size = sizeof *r + used + sizeof *tail + fetched + stack;
    if (size > sizeof *s)
        return 0;
    r->timestamp = bpf_ktime_get_ns();
    __u64 flags = live_submit_flags();
    if (ucfg->flags & UPROBE_FLAG_STOP) {
        bpf_send_signal(SIGNAL_STOP);
        flags = BPF_RB_FORCE_WAKEUP;
    }
    if (bpf_ringbuf_output(&live_events, s, size, flags) != 0)
        live_count_drop();
    return 0;
}

SEC("uprobe")
int uprobe_event(struct pt_regs *ctx) {
    return handle(ctx, 1);
}

SEC("uprobe")
int uprobe_multi_event(struct pt_regs *ctx) {
    return handle(ctx, 1);
}

/* The way back (dtrace_fastpath_ops.fill_way_back): a program of dtrace's
 * tail-calls these for an event it declines before any of its clauses
 * acted (a user stack its walk cannot finish), and the event goes to the
 * ring as it would without it. */
SEC("uprobe")
int uprobe_declined_event(struct pt_regs *ctx) {
    return handle(ctx, 0);
}

SEC("uprobe")
int uprobe_multi_declined_event(struct pt_regs *ctx) {
    return handle(ctx, 0);
}
