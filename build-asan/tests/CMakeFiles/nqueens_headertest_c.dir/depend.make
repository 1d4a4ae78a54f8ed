# Empty dependencies file for nqueens_headertest_c.
# This may be replaced when dependencies are built.
