# CMAKE generated file: DO NOT EDIT!
# Timestamp file for compiler generated dependencies management for nq_ref_textbook.
