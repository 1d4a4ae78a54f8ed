# Empty dependencies file for test_join.
# This may be replaced when dependencies are built.
