
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/wt-trust/src/mpi/coordinator.c" "CMakeFiles/nqueens_mpi.dir/src/mpi/coordinator.c.o" "gcc" "CMakeFiles/nqueens_mpi.dir/src/mpi/coordinator.c.o.d"
  "/work/wt-trust/src/mpi/main.c" "CMakeFiles/nqueens_mpi.dir/src/mpi/main.c.o" "gcc" "CMakeFiles/nqueens_mpi.dir/src/mpi/main.c.o.d"
  "/work/wt-trust/src/mpi/worker.c" "CMakeFiles/nqueens_mpi.dir/src/mpi/worker.c.o" "gcc" "CMakeFiles/nqueens_mpi.dir/src/mpi/worker.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/wt-trust/build-asan/CMakeFiles/nqueens.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
