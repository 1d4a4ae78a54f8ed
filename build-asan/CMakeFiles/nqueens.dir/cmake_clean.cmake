file(REMOVE_RECURSE
  "libnqueens.pdb"
  "libnqueens.so"
  "libnqueens.so.1"
  "libnqueens.so.1.0.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/nqueens.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
