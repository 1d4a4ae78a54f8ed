# Empty compiler generated dependencies file for test_list.
# This may be replaced when dependencies are built.
