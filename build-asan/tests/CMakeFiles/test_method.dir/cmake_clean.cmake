file(REMOVE_RECURSE
  "CMakeFiles/test_method.dir/test_method.c.o"
  "CMakeFiles/test_method.dir/test_method.c.o.d"
  "test_method"
  "test_method.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_method.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
