set(CMAKE_CXX_COMPILER "/usr/bin/c++")

