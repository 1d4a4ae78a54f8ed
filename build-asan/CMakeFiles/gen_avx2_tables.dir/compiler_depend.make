# Empty compiler generated dependencies file for gen_avx2_tables.
# This may be replaced when dependencies are built.
