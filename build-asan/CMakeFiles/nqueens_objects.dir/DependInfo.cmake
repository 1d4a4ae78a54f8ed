
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-trust/src/checkpoint.c" "CMakeFiles/nqueens_objects.dir/src/checkpoint.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/checkpoint.c.o.d"
  "/work/wt-trust/src/checkpoint_file.c" "CMakeFiles/nqueens_objects.dir/src/checkpoint_file.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/checkpoint_file.c.o.d"
  "/work/wt-trust/src/construct.c" "CMakeFiles/nqueens_objects.dir/src/construct.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/construct.c.o.d"
  "/work/wt-trust/src/cpu.c" "CMakeFiles/nqueens_objects.dir/src/cpu.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/cpu.c.o.d"
  "/work/wt-trust/src/engine.c" "CMakeFiles/nqueens_objects.dir/src/engine.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/engine.c.o.d"
  "/work/wt-trust/src/estimate.c" "CMakeFiles/nqueens_objects.dir/src/estimate.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/estimate.c.o.d"
  "/work/wt-trust/src/join.c" "CMakeFiles/nqueens_objects.dir/src/join.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/join.c.o.d"
  "/work/wt-trust/src/join_match.c" "CMakeFiles/nqueens_objects.dir/src/join_match.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/join_match.c.o.d"
  "/work/wt-trust/src/join_quarter.c" "CMakeFiles/nqueens_objects.dir/src/join_quarter.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/join_quarter.c.o.d"
  "/work/wt-trust/src/known.c" "CMakeFiles/nqueens_objects.dir/src/known.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/known.c.o.d"
  "/work/wt-trust/src/list.c" "CMakeFiles/nqueens_objects.dir/src/list.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/list.c.o.d"
  "/work/wt-trust/src/merge.c" "CMakeFiles/nqueens_objects.dir/src/merge.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/merge.c.o.d"
  "/work/wt-trust/src/method.c" "CMakeFiles/nqueens_objects.dir/src/method.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/method.c.o.d"
  "/work/wt-trust/src/parse.c" "CMakeFiles/nqueens_objects.dir/src/parse.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/parse.c.o.d"
  "/work/wt-trust/src/part.c" "CMakeFiles/nqueens_objects.dir/src/part.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/part.c.o.d"
  "/work/wt-trust/src/plain.c" "CMakeFiles/nqueens_objects.dir/src/plain.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/plain.c.o.d"
  "/work/wt-trust/src/random.c" "CMakeFiles/nqueens_objects.dir/src/random.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/random.c.o.d"
  "/work/wt-trust/src/status.c" "CMakeFiles/nqueens_objects.dir/src/status.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/status.c.o.d"
  "/work/wt-trust/src/sym.c" "CMakeFiles/nqueens_objects.dir/src/sym.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/sym.c.o.d"
  "/work/wt-trust/src/sym_avx2.c" "CMakeFiles/nqueens_objects.dir/src/sym_avx2.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/sym_avx2.c.o.d"
  "/work/wt-trust/src/sym_avx512.c" "CMakeFiles/nqueens_objects.dir/src/sym_avx512.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/sym_avx512.c.o.d"
  "/work/wt-trust/src/sym_kernel.c" "CMakeFiles/nqueens_objects.dir/src/sym_kernel.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/sym_kernel.c.o.d"
  "/work/wt-trust/src/sym_scalar.c" "CMakeFiles/nqueens_objects.dir/src/sym_scalar.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/sym_scalar.c.o.d"
  "/work/wt-trust/src/verify.c" "CMakeFiles/nqueens_objects.dir/src/verify.c.o" "gcc" "CMakeFiles/nqueens_objects.dir/src/verify.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
