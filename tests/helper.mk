# Tests of the verification helper itself (issue 6): cudawiz-verify run
# directly against test-built fake vendor libraries and this machine's
# real CUDA toolkit and cuDNN.
