/*
 * uprobe_record.h: what the uprobe program (uprobe_events.bpf.c) and its
 * user-space side (uprobe_attach.h, the pid and USDT plugins) share beyond
 * live_record.h: the per-probe uprobe settings and the tail that follows a
 * uprobe event's live_record and captures in the ring:
 *
 *   [live_record][capture bytes][uprobe_tail][fetched bytes][stack bytes]
 *
 * live_record.size covers the first two parts (what LiveFiring reads); the
 * tail, present only when the probe's configuration asks for it
 * (UPROBE_FLAG_TAIL: a bare record is a third of the size), holds the user registers of the probed instruction
 * (uregs[], the unwinder's starting point), arguments past the sixth read from the stack, what the probe's fetch steps
 * read of the process's memory (dtrace's fetch plan: copyin() and copyinstr() of addresses computed from the arguments,
 * tail.fetch_bytes bytes), and tail.stack_size bytes of the user stack from
 * rsp, for ustack().
 */
#ifndef DTRACE_UPROBE_RECORD_H
#define DTRACE_UPROBE_RECORD_H

#include <linux/types.h>

#include "live_fetch.h"
#include "live_record.h"

/* The attach cookie of a uprobe: the probe slot in its low half; the
 * probed instruction's offset in its function in the high half (a return
 * probe's arg0). */
#define UPROBE_COOKIE_SLOT(cookie) ((__u32)(cookie))
#define UPROBE_COOKIE_OFFSET(cookie) ((__u32)((cookie) >> 32))

#define UPROBE_STACK_ARGS 4   /* arg6..arg9: the words above the return address at entry */
#define UPROBE_STACK_MAX 8192 /* the most user stack bytes copied for ustack() */

/* The registers of the probed instruction, in the order of the kernel's
 * x86-64 struct pt_regs (uapi asm/ptrace.h). */
enum uprobe_reg {
    UPROBE_REG_R15 = 0,
    UPROBE_REG_R14,
    UPROBE_REG_R13,
    UPROBE_REG_R12,
    UPROBE_REG_RBP,
    UPROBE_REG_RBX,
    UPROBE_REG_R11,
    UPROBE_REG_R10,
    UPROBE_REG_R9,
    UPROBE_REG_R8,
    UPROBE_REG_RAX,
    UPROBE_REG_RCX,
    UPROBE_REG_RDX,
    UPROBE_REG_RSI,
    UPROBE_REG_RDI,
    UPROBE_REG_ORIG_RAX,
    UPROBE_REG_RIP,
    UPROBE_REG_CS,
    UPROBE_REG_EFLAGS,
    UPROBE_REG_RSP,
    UPROBE_REG_SS,
    UPROBE_NREGS
};

/* Probe slots of the uprobe program: far more than LIVE_MAX_PROBES (a
 * description can name every function of libc), so a slot's configuration
 * is an index into live_probes (and uprobe_probes), shared by the slots
 * configured alike; 0 is the disarmed configuration. */
#define UPROBE_MAX_SLOTS (1 << 18)

/* Where a USDT probe site's argument is (its note's "-4@8(%rsp)"). */
enum uprobe_usdt_arg_kind {
    UPROBE_USDT_NONE = 0,  /* no such argument (or one the note spells in a form not read): 0 */
    UPROBE_USDT_CONST = 1, /* value */
    UPROBE_USDT_REG = 2,   /* the register */
    UPROBE_USDT_MEMORY = 3 /* memory at the register plus value */
};

struct uprobe_usdt_arg {
    __s64 value; /* the constant, or the memory operand's displacement */
    __u8 kind;   /* enum uprobe_usdt_arg_kind */
    __u8 reg;    /* enum uprobe_reg */
    __u8 size;   /* bytes: 1, 2, 4 or 8 */
    __u8 is_signed;
    __u32 pad;
};

/* Memory of the process read at the event (with UPROBE_FLAG_TAIL): at most
 * UPROBE_MAX_FETCHES steps (live_fetch.h), every one a read of user memory,
 * of at most UPROBE_FETCH_MAX_LENGTH bytes each, UPROBE_FETCH_DATA bytes in
 * all. */
#define UPROBE_MAX_FETCHES 8
#define UPROBE_FETCH_MAX_LENGTH 1024
#define UPROBE_FETCH_DATA 2048

/* Per configuration index, beside its live_probe_config. */
struct uprobe_probe_config {
    __u32 stack_bytes; /* user stack copied at the event (0: none), <= UPROBE_STACK_MAX */
    __u32 flags;       /* UPROBE_FLAG_* */
    /* LIVE_KIND_USDT: where args[0..LIVE_MAX_ARGS) are (the rest are read
     * from the tail's registers by user space). */
    struct uprobe_usdt_arg usdt_args[LIVE_MAX_ARGS];
    __u32 nfetches; /* fetches[0 .. nfetches) run at the event */
    __u32 pad;
    struct live_fetch_step fetches[UPROBE_MAX_FETCHES];
};

/* The event stops the process (SIGSTOP) and wakes the consumer at once: user
 * space reads what it must while the process cannot change (its mappings
 * after the dynamic linker loaded a library), then sends SIGCONT. */
#define UPROBE_FLAG_STOP 0x1
/* The event carries the uprobe_tail (registers, stack arguments) and the
 * stack bytes after its live_record and captures. */
#define UPROBE_FLAG_TAIL 0x2

struct uprobe_tail {
    __u64 regs[UPROBE_NREGS];
    __u64 stack_args[UPROBE_STACK_ARGS];
    __u32 stack_size; /* bytes of user stack that follow the fetched bytes, from regs[UPROBE_REG_RSP] */
    __u32 pad;
    __u32 nfetched;    /* fetched[0 .. nfetched): the steps run */
    __u32 fetch_bytes; /* bytes fetched, which follow the tail */
    struct live_fetched fetched[UPROBE_MAX_FETCHES];
};

#endif /* DTRACE_UPROBE_RECORD_H */
