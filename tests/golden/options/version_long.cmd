dtrace --version
