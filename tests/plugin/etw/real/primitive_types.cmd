sh -c 'dtrace -qE "$ETW_DATA/primitive-types.etl.zip" -n "solar_system:::events { printf(\"id %d opcode %d %d bytes, first %d\\n\", arg0, arg1, arg3, *(uint8_t *)copyin(arg2, 1)); }"'
