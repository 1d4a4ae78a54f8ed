# Empty compiler generated dependencies file for nq_ref_textbook.
# This may be replaced when dependencies are built.
