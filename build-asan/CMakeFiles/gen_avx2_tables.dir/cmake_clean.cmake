file(REMOVE_RECURSE
  "CMakeFiles/gen_avx2_tables.dir/tools/gen_avx2_tables.c.o"
  "CMakeFiles/gen_avx2_tables.dir/tools/gen_avx2_tables.c.o.d"
  "tools/gen_avx2_tables"
  "tools/gen_avx2_tables.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/gen_avx2_tables.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
