# Empty dependencies file for test_merge.
# This may be replaced when dependencies are built.
