file(REMOVE_RECURSE
  "CMakeFiles/test_count_long.dir/test_count_long.c.o"
  "CMakeFiles/test_count_long.dir/test_count_long.c.o.d"
  "test_count_long"
  "test_count_long.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_count_long.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
