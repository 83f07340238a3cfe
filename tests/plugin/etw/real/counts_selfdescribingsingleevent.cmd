sh -c 'dtrace -qE "$ETW_DATA/SelfDescribingSingleEvent.etl" -s counts.d'
