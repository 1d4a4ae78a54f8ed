# Empty compiler generated dependencies file for nqueens_cli.
# This may be replaced when dependencies are built.
