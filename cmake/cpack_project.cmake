# Read by cpack for each generator it runs (CPACK_PROJECT_CONFIG_FILE).
if(CPACK_GENERATOR STREQUAL "DEB")
  # Each package's description starts with its own synopsis
  # (CPACK_DEBIAN_<GROUP>_DESCRIPTION); CPack would put the project's
  # summary before it, and lintian calls that a duplicated synopsis.
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
endif()
