file(REMOVE_RECURSE
  "CMakeFiles/test_sym.dir/test_sym.c.o"
  "CMakeFiles/test_sym.dir/test_sym.c.o.d"
  "test_sym"
  "test_sym.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sym.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
