# embed_bpf.cmake: writes a BPF object file's bytes as a C array, so that a
# plugin carries its BPF programs inside itself (no file to find at run
# time). Run as: cmake -DINPUT=x.bpf.o -DOUTPUT=x.bpf.c -DSYMBOL=name -P embed_bpf.cmake
file(READ "${INPUT}" bytes HEX)
string(LENGTH "${bytes}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${bytes}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT} by embed_bpf.cmake: do not edit. */\n"
  "#include <stddef.h>\n"
  "const unsigned char ${SYMBOL}[${size}] = {\n${bytes}};\n"
  "const size_t ${SYMBOL}_size = ${size};\n")
