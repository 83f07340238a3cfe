dtrace -s /nonexistent/script.d
