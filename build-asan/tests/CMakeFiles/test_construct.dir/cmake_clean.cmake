file(REMOVE_RECURSE
  "CMakeFiles/test_construct.dir/test_construct.c.o"
  "CMakeFiles/test_construct.dir/test_construct.c.o.d"
  "test_construct"
  "test_construct.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_construct.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
