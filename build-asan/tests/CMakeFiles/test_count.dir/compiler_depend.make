# Empty compiler generated dependencies file for test_count.
# This may be replaced when dependencies are built.
