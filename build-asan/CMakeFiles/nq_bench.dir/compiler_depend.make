# Empty compiler generated dependencies file for nq_bench.
# This may be replaced when dependencies are built.
