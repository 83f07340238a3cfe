/*
 * sdt_raw.h: what the sdt plugin's BPF programs and its C++ side share
 * beyond live_record.h: where a tracepoint's copied record is served, and
 * the slots of the sched_switch program.
 */
#ifndef DTRACE_SDT_RAW_H
#define DTRACE_SDT_RAW_H

/* The address a firing's copy of the tracepoint record is read at: in the
 * kernel half, which no traced process's memory occupies, and clear of the
 * live library's psinfo records. */
#define SDT_RAW_ADDRESS 0xfffffe0000000000ull

/* The address of the process arguments captured at exec (capture 1). */
#define SDT_PSARGS_ADDRESS 0xfffffe4000000000ull
/* captures[1].mode of a probe whose program captures them. */
#define SDT_CAPTURE_PSARGS 3
/* captures[0].mode of lock:contention_begin for lockstat: the program keeps
 * the time and the record's flags (its u32 at byte captures[0].arg) per
 * thread and writes no record (unless captures[0].length_arg is 1: another
 * probe on the tracepoint wants every event). */
#define SDT_CAPTURE_LOCK_BEGIN 5
/* captures[0].mode of lock:contention_end for lockstat: the program writes
 * a record only after a kept begin, with args[3] = the ns since it and
 * args[4] = its flags. */
#define SDT_CAPTURE_LOCK_END 6
/* Bytes of arguments captured (more than psinfo's 80). */
#define SDT_PSARGS_MAX 256

/* The sched_switch program's records, by the probe they fire. */
#define SDT_SWITCH_OFF_CPU 0 /* the thread leaving */
#define SDT_SWITCH_ON_CPU 1  /* the thread coming on */
#define SDT_SWITCH_SLEEP 2   /* the thread leaving, to wait */
#define SDT_SWITCH_PREEMPT 3 /* the thread leaving, still runnable */
#define SDT_SWITCH_SLOTS 4

#endif /* DTRACE_SDT_RAW_H */
