# Empty dependencies file for nqueens_mpi.
# This may be replaced when dependencies are built.
