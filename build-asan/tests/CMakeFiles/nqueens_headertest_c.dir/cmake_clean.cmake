file(REMOVE_RECURSE
  "CMakeFiles/nqueens_headertest_c.dir/headertest.c.o"
  "CMakeFiles/nqueens_headertest_c.dir/headertest.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens_headertest_c.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
