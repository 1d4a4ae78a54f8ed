# Empty compiler generated dependencies file for nqueens_internal.
# This may be replaced when dependencies are built.
