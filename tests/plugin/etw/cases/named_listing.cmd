sh -c 'dtrace -lv -E "$ETW_FIXTURES/named.etl" -x etwmanifest="$ETW_FIXTURES/named.man" -n "etw:Fixture-Named::Start*"'
