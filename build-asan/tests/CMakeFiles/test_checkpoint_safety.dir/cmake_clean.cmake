file(REMOVE_RECURSE
  "CMakeFiles/test_checkpoint_safety.dir/test_checkpoint_safety.c.o"
  "CMakeFiles/test_checkpoint_safety.dir/test_checkpoint_safety.c.o.d"
  "test_checkpoint_safety"
  "test_checkpoint_safety.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_checkpoint_safety.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
