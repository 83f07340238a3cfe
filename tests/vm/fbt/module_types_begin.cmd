dtrace -x plugins=fbt -q -n 'BEGIN { printf("struct p9_fid from the BTF of 9p, named before any probe of 9p: %d bytes, fid at %d\n", sizeof (struct p9_fid), offsetof(struct p9_fid, fid)); exit(0); }'
