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
# The variants of one program share its options, so they share one
# precompiled <torch/torch.h>, as `torch-tidy verify` builds them: the
# headers are parsed once per program, not once per variant.
option(TORCH_TIDY_BUNDLE_PCH "Precompile <torch/torch.h> once per program" ON)
# The probe (LibTorch only). It sets the C++ standard (C++20 for LibTorch
# 2.x, C++17 for 1.x) unless a program's options name one.
add_subdirectory(probe)
message(STATUS "torch-tidy bundle: LibTorch ${Torch_VERSION} from ${Torch_DIR}")

# torch_tidy_variant(NAME SOURCE PROGRAM): the program NAME, built from
# SOURCE (relative to the bundle) with PROGRAM's options and include
# folders, the probe's header included first and its library linked, at -O0
# (quick to compile; the graph is the same at any level), with the
# program's precompiled <torch/torch.h> (see TORCH_TIDY_BUNDLE_PCH).
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
  if(NOT TORCH_TIDY_BUNDLE_PCH)
    target_compile_options(${name} PRIVATE ${${program}_options}
      "SHELL:-include torch_tidy/probe.h" -O0 -w)
    return()
  endif()
  # The precompiled headers are included first, in this order: LibTorch's,
  # then the probe's, as `torch-tidy verify` includes them.
  target_compile_options(${name} PRIVATE ${${program}_options} -O0 -w)
  get_property(owner GLOBAL PROPERTY torch_tidy_pch_${program})
  if(owner)
    target_precompile_headers(${name} REUSE_FROM ${owner})
  else()
    set(headers ${CMAKE_CURRENT_SOURCE_DIR}/probe/include/torch_tidy)
    target_precompile_headers(${name} PRIVATE
      ${headers}/torch_pch.h ${headers}/probe.h)
    set_property(GLOBAL PROPERTY torch_tidy_pch_${program} ${name})
  endif()
endfunction()
