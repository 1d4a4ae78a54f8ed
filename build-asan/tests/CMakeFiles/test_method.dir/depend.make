# Empty dependencies file for test_method.
# This may be replaced when dependencies are built.
