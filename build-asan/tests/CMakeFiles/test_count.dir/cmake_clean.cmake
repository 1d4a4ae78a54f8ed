file(REMOVE_RECURSE
  "CMakeFiles/test_count.dir/test_count.c.o"
  "CMakeFiles/test_count.dir/test_count.c.o.d"
  "test_count"
  "test_count.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_count.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
