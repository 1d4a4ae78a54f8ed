# Empty compiler generated dependencies file for nqueens.
# This may be replaced when dependencies are built.
