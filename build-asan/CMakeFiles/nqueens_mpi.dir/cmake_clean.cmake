file(REMOVE_RECURSE
  "CMakeFiles/nqueens_mpi.dir/src/mpi/coordinator.c.o"
  "CMakeFiles/nqueens_mpi.dir/src/mpi/coordinator.c.o.d"
  "CMakeFiles/nqueens_mpi.dir/src/mpi/main.c.o"
  "CMakeFiles/nqueens_mpi.dir/src/mpi/main.c.o.d"
  "CMakeFiles/nqueens_mpi.dir/src/mpi/worker.c.o"
  "CMakeFiles/nqueens_mpi.dir/src/mpi/worker.c.o.d"
  "nqueens-mpi"
  "nqueens-mpi.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens_mpi.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
