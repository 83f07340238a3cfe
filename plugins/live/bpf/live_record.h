/*
 * live_record.h: what the live plugins' BPF programs and their user-space
 * side share: the record a program writes to the BPF ring buffer for one
 * event, the per-probe configuration it reads from a map, and the in-kernel
 * pre-filter of a probe (the disjunction of its clauses' hoistable
 * predicates). Plain C with fixed-width types, included by BPF C (built with
 * clang -target bpf) and by C++; every size and offset is the same on both
 * sides because every field is naturally aligned.
 */
#ifndef DTRACE_LIVE_RECORD_H
#define DTRACE_LIVE_RECORD_H

#include <linux/types.h>

#define LIVE_COMM_LEN 16     /* TASK_COMM_LEN: execname with its NUL */
#define LIVE_MAX_ARGS 6      /* a system call's arguments */
#define LIVE_MAX_CAPTURES 2  /* argument memory copied at the event */
#define LIVE_CAPTURE_MAX 2048 /* the most bytes one capture holds */
#define LIVE_MAX_CLAUSES 4   /* filter: conjunctions in the disjunction */
#define LIVE_MAX_TERMS 4     /* filter: terms in one conjunction */
#define LIVE_MAX_PROBES 2048 /* probe slots of one BPF object */
#define LIVE_MAX_SYSCALLS 1024 /* system call numbers a raw_syscalls program knows */

/* A record's kind of probe: how the program reads the tracepoint. */
enum live_probe_kind {
    LIVE_KIND_SYSCALL_ENTRY = 0, /* args[0..nargs) at offset 16 */
    LIVE_KIND_SYSCALL_RETURN = 1, /* long ret at offset 16 */
    /* uprobes (uprobe_record.h): registers of the probed instruction */
    LIVE_KIND_UPROBE_ENTRY = 2,  /* args[] from the SysV argument registers */
    LIVE_KIND_UPROBE_RETURN = 3, /* at a return instruction: arg0 = its offset, arg1 = rax */
    LIVE_KIND_UPROBE_OFFSET = 4, /* any instruction: args[] as at entry */
    LIVE_KIND_USDT = 5           /* a USDT probe site: args[] where its note says (uprobe_usdt_arg) */
};

/* How an argument's memory is captured at the event. */
enum live_capture_mode {
    LIVE_CAPTURE_NONE = 0,
    LIVE_CAPTURE_STRING = 1, /* a NUL-terminated string, up to the limit */
    LIVE_CAPTURE_BYTES = 2   /* length_arg's value bytes, up to the limit */
};

struct live_capture_spec {
    __u8 arg;        /* which argument holds the address */
    __u8 mode;       /* enum live_capture_mode */
    __u8 length_arg; /* LIVE_CAPTURE_BYTES: which argument holds the length */
    __u8 pad;
};

/* Filter terms: a field of the event compared with a constant. */
enum live_filter_field {
    LIVE_FIELD_PID = 0,
    LIVE_FIELD_TID = 1,
    LIVE_FIELD_UID = 2,
    LIVE_FIELD_GID = 3,
    LIVE_FIELD_EXECNAME = 4, /* EQ and NE only, against `string` */
    LIVE_FIELD_ARG = 5       /* argument `arg`, as a signed 64-bit value */
};

enum live_filter_op {
    LIVE_OP_EQ = 0,
    LIVE_OP_NE = 1,
    LIVE_OP_LT = 2,
    LIVE_OP_LE = 3,
    LIVE_OP_GT = 4,
    LIVE_OP_GE = 5
};

struct live_filter_term {
    __u8 field; /* enum live_filter_field */
    __u8 op;    /* enum live_filter_op */
    __u8 arg;
    __u8 pad[5];
    __s64 value;
    char string[LIVE_COMM_LEN]; /* zero-padded, as the kernel's comm */
};

struct live_filter_conjunction {
    __u32 nterms;
    __u32 pad;
    struct live_filter_term terms[LIVE_MAX_TERMS];
};

/* nclauses == 0: every event passes. Otherwise an event passes when every
 * term of at least one conjunction holds. */
struct live_filter {
    __u32 nclauses;
    __u32 pad;
    struct live_filter_conjunction clauses[LIVE_MAX_CLAUSES];
};

/* The configuration of one probe slot (the BPF attach cookie). */
struct live_probe_config {
    __u32 armed; /* 0: the program returns at once */
    __u32 kind;  /* enum live_probe_kind */
    __u32 nargs;
    __u32 capture_limit; /* bytes per capture, <= LIVE_CAPTURE_MAX */
    struct live_capture_spec captures[LIVE_MAX_CAPTURES];
    struct live_filter filter;
    /* LIVE_STACK_*: the stacks a tracepoint program appends to the record
     * after its captures (live_stack_tail.h); 0 for the uprobe program,
     * which has its own (uprobe_record.h). */
    __u32 stacks;
    __u32 user_stack_bytes; /* LIVE_STACK_USER: stack bytes to copy, <= LIVE_USER_STACK_MAX */
};

#define LIVE_STACK_KERNEL 0x1u /* stack(), stackdepth, caller */
#define LIVE_STACK_USER 0x2u   /* ustack(), ustackdepth, ucaller */

/* Settings fixed when the object is loaded (its .rodata). */
struct live_settings {
    __u64 wakeup_watermark; /* wake the consumer once this many bytes wait */
};

/* One event, as the ring buffer holds it; capture bytes follow the record
 * (capture 0 first), so a record is size bytes long. */
struct live_record {
    __u64 timestamp;  /* CLOCK_MONOTONIC ns */
    __u64 vtimestamp; /* the thread's on-CPU ns (sum_exec_runtime) */
    __u64 task;       /* the task_struct's address: curthread */
    __u32 pid;
    __u32 tid;
    __u32 ppid;
    __u32 uid;
    __u32 gid;
    __u32 cpu;
    __u32 slot; /* the probe slot */
    __u32 size;
    __s32 error;      /* return: errno (0 on success) */
    __s32 syscall_nr; /* the system call the thread is in (-1: none) */
    char comm[LIVE_COMM_LEN];
    __u64 args[LIVE_MAX_ARGS];
    __u16 capture_length[LIVE_MAX_CAPTURES];
    __u8 capture_arg[LIVE_MAX_CAPTURES];
    __u8 capture_mode[LIVE_MAX_CAPTURES];
};

#endif /* DTRACE_LIVE_RECORD_H */
