dtrace -ln "etw:::"
