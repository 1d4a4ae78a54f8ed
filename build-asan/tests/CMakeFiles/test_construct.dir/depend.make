# Empty dependencies file for test_construct.
# This may be replaced when dependencies are built.
