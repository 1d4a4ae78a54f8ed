# Empty compiler generated dependencies file for nqueens_exe.
# This may be replaced when dependencies are built.
