# Empty dependencies file for test_sym.
# This may be replaced when dependencies are built.
