
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-trust/src/cli/args.c" "CMakeFiles/nqueens_cli.dir/src/cli/args.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/args.c.o.d"
  "/work/wt-trust/src/cli/cli.c" "CMakeFiles/nqueens_cli.dir/src/cli/cli.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/cli.c.o.d"
  "/work/wt-trust/src/cli/count.c" "CMakeFiles/nqueens_cli.dir/src/cli/count.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/count.c.o.d"
  "/work/wt-trust/src/cli/estimate.c" "CMakeFiles/nqueens_cli.dir/src/cli/estimate.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/estimate.c.o.d"
  "/work/wt-trust/src/cli/help.c" "CMakeFiles/nqueens_cli.dir/src/cli/help.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/help.c.o.d"
  "/work/wt-trust/src/cli/merge.c" "CMakeFiles/nqueens_cli.dir/src/cli/merge.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/merge.c.o.d"
  "/work/wt-trust/src/cli/optable.c" "CMakeFiles/nqueens_cli.dir/src/cli/optable.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/optable.c.o.d"
  "/work/wt-trust/src/cli/output.c" "CMakeFiles/nqueens_cli.dir/src/cli/output.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/output.c.o.d"
  "/work/wt-trust/src/cli/progress.c" "CMakeFiles/nqueens_cli.dir/src/cli/progress.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/progress.c.o.d"
  "/work/wt-trust/src/cli/signals.c" "CMakeFiles/nqueens_cli.dir/src/cli/signals.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/signals.c.o.d"
  "/work/wt-trust/src/cli/sizes.c" "CMakeFiles/nqueens_cli.dir/src/cli/sizes.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/sizes.c.o.d"
  "/work/wt-trust/src/cli/solutions.c" "CMakeFiles/nqueens_cli.dir/src/cli/solutions.c.o" "gcc" "CMakeFiles/nqueens_cli.dir/src/cli/solutions.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-trust/build-asan/CMakeFiles/nqueens.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
