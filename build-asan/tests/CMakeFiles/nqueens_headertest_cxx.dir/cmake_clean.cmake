file(REMOVE_RECURSE
  "CMakeFiles/nqueens_headertest_cxx.dir/headertest.cpp.o"
  "CMakeFiles/nqueens_headertest_cxx.dir/headertest.cpp.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/nqueens_headertest_cxx.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
