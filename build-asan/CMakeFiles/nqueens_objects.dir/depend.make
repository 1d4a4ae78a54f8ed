# Empty dependencies file for nqueens_objects.
# This may be replaced when dependencies are built.
