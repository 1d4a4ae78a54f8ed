file(REMOVE_RECURSE
  "CMakeFiles/nqueens_exe.dir/src/cli/main.c.o"
  "CMakeFiles/nqueens_exe.dir/src/cli/main.c.o.d"
  "nqueens"
  "nqueens.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens_exe.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
