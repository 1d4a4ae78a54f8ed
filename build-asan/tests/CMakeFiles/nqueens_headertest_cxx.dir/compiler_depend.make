# Empty compiler generated dependencies file for nqueens_headertest_cxx.
# This may be replaced when dependencies are built.
