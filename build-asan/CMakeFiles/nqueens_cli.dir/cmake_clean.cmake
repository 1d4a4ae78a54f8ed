file(REMOVE_RECURSE
  "CMakeFiles/nqueens_cli.dir/src/cli/cli.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/cli.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/longrun.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/longrun.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/solutions.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/solutions.c.o.d"
  "libnqueens_cli.a"
  "libnqueens_cli.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
