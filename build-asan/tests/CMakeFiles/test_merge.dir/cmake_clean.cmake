file(REMOVE_RECURSE
  "CMakeFiles/test_merge.dir/test_merge.c.o"
  "CMakeFiles/test_merge.dir/test_merge.c.o.d"
  "test_merge"
  "test_merge.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_merge.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
