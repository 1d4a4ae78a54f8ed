file(REMOVE_RECURSE
  "CMakeFiles/nq_ref_takaken.dir/bench/ref_takaken.c.o"
  "CMakeFiles/nq_ref_takaken.dir/bench/ref_takaken.c.o.d"
  "nq_ref_takaken"
  "nq_ref_takaken.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nq_ref_takaken.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
