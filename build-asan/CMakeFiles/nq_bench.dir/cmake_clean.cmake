file(REMOVE_RECURSE
  "CMakeFiles/nq_bench.dir/bench/nq_bench.c.o"
  "CMakeFiles/nq_bench.dir/bench/nq_bench.c.o.d"
  "nq_bench"
  "nq_bench.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nq_bench.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
