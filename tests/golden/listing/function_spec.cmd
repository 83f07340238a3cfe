dtrace -l -f ':BEGIN'
