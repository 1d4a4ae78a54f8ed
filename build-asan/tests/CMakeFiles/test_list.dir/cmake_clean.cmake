file(REMOVE_RECURSE
  "CMakeFiles/test_list.dir/test_list.c.o"
  "CMakeFiles/test_list.dir/test_list.c.o.d"
  "test_list"
  "test_list.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_list.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
