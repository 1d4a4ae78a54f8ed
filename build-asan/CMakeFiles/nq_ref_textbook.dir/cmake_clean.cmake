file(REMOVE_RECURSE
  "CMakeFiles/nq_ref_textbook.dir/bench/ref_textbook.c.o"
  "CMakeFiles/nq_ref_textbook.dir/bench/ref_textbook.c.o.d"
  "nq_ref_textbook"
  "nq_ref_textbook.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nq_ref_textbook.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
