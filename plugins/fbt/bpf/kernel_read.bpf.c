/*
 * kernel_read.bpf.c: reads kernel memory for D's pointer walks at fbt
 * probes (args[0]->f_path.dentry->d_name.name), run on demand through
 * BPF_PROG_TEST_RUN (a BPF_PROG_TYPE_SYSCALL program): the request is the
 * context, the bytes land in fbt_read_buffer. User space cannot read the
 * kernel's memory itself; bpf_probe_read_kernel can, and fails cleanly on
 * an address that is not mapped.
 */
#include <linux/bpf.h>

#include <bpf/bpf_helpers.h>

#include "fbt_record.h"

char LICENSE[] SEC("license") = "GPL";

struct read_buffer {
    __u8 bytes[FBT_READ_MAX];
};

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct read_buffer);
} fbt_read_buffer SEC(".maps");

SEC("syscall")
int fbt_read_kernel(struct fbt_read_request *request) {
    __u32 zero = 0;
    struct read_buffer *buffer = bpf_map_lookup_elem(&fbt_read_buffer, &zero);
    if (!buffer)
        return 0;
    __u32 length = request->length;
    if (length == 0 || length > FBT_READ_MAX) {
        request->result = -22; /* EINVAL */
        return 0;
    }
    request->result = bpf_probe_read_kernel(buffer->bytes, length, (const void *)request->address);
    return 0;
}
