# Empty dependencies file for test_verify.
# This may be replaced when dependencies are built.
