file(REMOVE_RECURSE
  "CMakeFiles/nqueens_cli.dir/src/cli/args.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/args.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/cli.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/cli.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/count.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/count.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/estimate.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/estimate.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/help.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/help.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/merge.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/merge.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/optable.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/optable.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/output.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/output.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/progress.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/progress.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/signals.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/signals.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/sizes.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/sizes.c.o.d"
  "CMakeFiles/nqueens_cli.dir/src/cli/solutions.c.o"
  "CMakeFiles/nqueens_cli.dir/src/cli/solutions.c.o.d"
  "libnqueens_cli.a"
  "libnqueens_cli.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens_cli.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
