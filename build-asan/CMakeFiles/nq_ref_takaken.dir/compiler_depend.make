# Empty compiler generated dependencies file for nq_ref_takaken.
# This may be replaced when dependencies are built.
