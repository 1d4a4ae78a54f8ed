file(REMOVE_RECURSE
  "libnqueens_internal.a"
  "libnqueens_internal.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens_internal.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
