/*
 * user_stack_marks.h: what user_stack_marks.bpf.c and its user-space side
 * (fastpath_user_stack_marks.h) share: the gate, and the walk's mapping
 * entry as the BPF side sees it (the SDK's dtrace_fastpath_user_mapping,
 * which the user-space side checks field by field; BPF C does not include
 * the SDK's header, whose <stdint.h> is the host's).
 */
#ifndef DTRACE_USER_STACK_MARKS_H
#define DTRACE_USER_STACK_MARKS_H

#include <linux/types.h>

#define USER_STACK_MAPPINGS_MAX 64u /* DTRACE_UNWIND_MAPPINGS_MAX */

struct user_stack_mapping {
    __u64 start, end;
    __u64 bias;
    __u32 first_row;
    __u32 nrows; /* 0: every walk through the mapping sends its event to user space */
    __u32 first_block;
    __u32 reserved;
};

/* The sequence's low bit: ustack_publish is setting nrows. */
#define USER_STACK_PUBLISHING 1ull
/* The sequence's step at each mapping call's entry and exit. */
#define USER_STACK_MARK_STEP 2ull

struct user_stack_gate {
    __u64 sequence; /* USER_STACK_MARK_STEP per mapping call begun or ended, | USER_STACK_PUBLISHING */
    __u64 marks;    /* times the table was zeroed */
    __u32 tgid;     /* the table's process (0: none) */
    __u32 unused;
};

#endif
