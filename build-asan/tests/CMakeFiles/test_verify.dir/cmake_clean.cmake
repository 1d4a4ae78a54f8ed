file(REMOVE_RECURSE
  "CMakeFiles/test_verify.dir/test_verify.c.o"
  "CMakeFiles/test_verify.dir/test_verify.c.o.d"
  "test_verify"
  "test_verify.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_verify.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
