# The build of a torch-tidy verify bundle, included by its CMakeLists.txt:
# the probe library, and one program per variant of each finding, built
# against the LibTorch that find_package(Torch) finds on this machine.
#
# A program's options and include folders are two lists the bundle's
# CMakeLists.txt sets before naming its variants:
#   <program>_options   compiler options, as the user gave them (an option
#                       with a separate value is one "SHELL:" entry)
#   <program>_includes  KIND FOLDER pairs, in their order: KIND is QUOTE
#                       (-iquote), ANGLED (-I), SYSTEM (-isystem) or AFTER
#                       (-idirafter); FOLDER is relative to the bundle
find_package(Torch REQUIRED)
set(CMAKE_CXX_EXTENSIONS OFF)
# The probe (LibTorch only). It sets the C++ standard (C++20 for LibTorch
# 2.x, C++17 for 1.x) unless a program's options name one.
add_subdirectory(probe)
message(STATUS "torch-tidy bundle: LibTorch ${Torch_VERSION} from ${Torch_DIR}")

# torch_tidy_variant(NAME SOURCE PROGRAM): the program NAME, built from
# SOURCE (relative to the bundle) with PROGRAM's options and include
# folders, the probe's header included first and its library linked, at -O0
# (quick to compile; the graph is the same at any level).
function(torch_tidy_variant name source program)
  add_executable(${name} ${source})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/programs)
  target_link_libraries(${name} PRIVATE torch_tidy_probe)
  set(includes ${${program}_includes})
  while(includes)
    list(POP_FRONT includes kind folder)
    set(folder ${CMAKE_CURRENT_SOURCE_DIR}/${folder})
    if(kind STREQUAL "QUOTE")
      target_compile_options(${name} PRIVATE "-iquote${folder}")
    elseif(kind STREQUAL "AFTER")
      target_compile_options(${name} PRIVATE "-idirafter${folder}")
    elseif(kind STREQUAL "SYSTEM")
      target_include_directories(${name} SYSTEM PRIVATE ${folder})
    else()
      target_include_directories(${name} PRIVATE ${folder})
    endif()
  endwhile()
  target_compile_options(${name} PRIVATE ${${program}_options}
    "SHELL:-include torch_tidy/probe.h" -O0 -w)
endfunction()
