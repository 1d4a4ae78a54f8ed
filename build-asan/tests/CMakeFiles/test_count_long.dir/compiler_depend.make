# Empty compiler generated dependencies file for test_count_long.
# This may be replaced when dependencies are built.
