#----------------------------------------------------------------
# Generated CMake target import file for configuration "Debug".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "nqueens::nqueens" for configuration "Debug"
set_property(TARGET nqueens::nqueens APPEND PROPERTY IMPORTED_CONFIGURATIONS DEBUG)
set_target_properties(nqueens::nqueens PROPERTIES
  IMPORTED_LOCATION_DEBUG "${_IMPORT_PREFIX}/lib/libnqueens.so.1.0.0"
  IMPORTED_SONAME_DEBUG "libnqueens.so.1"
  )

list(APPEND _cmake_import_check_targets nqueens::nqueens )
list(APPEND _cmake_import_check_files_for_nqueens::nqueens "${_IMPORT_PREFIX}/lib/libnqueens.so.1.0.0" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
