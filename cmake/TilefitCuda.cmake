# Device query and probe: the only place CUDA appears.
#
# * With a CUDA toolkit (the runtime library and headers), src/device/cuda_*.cpp is built
#   against the static CUDA runtime and TILEFIT_HAVE_CUDA is defined; without one,
#   src/device/no_cuda_*.cpp reports that the tool was built without CUDA.
# * A CUDA compiler (nvcc) additionally builds the probe kernel (src/device/probe_kernel.cu)
#   behind `tilefit probe` and defines TILEFIT_HAVE_PROBE.
# * src/device/common_*.cpp is shared by both builds.
#
# Probe architectures: TILEFIT_CUDA_ARCHITECTURES (cache), default real code for every
# architecture nvcc 13 can target whose cubin another GPU cannot reuse (75 80 86 90 100 110
# 120; 8.7/8.9 run the 8.6 cubin, 10.3 the 10.0 one, 12.1 the 12.0 one) plus compute_120
# PTX for GPUs newer than the toolkit.
set(TILEFIT_HAVE_CUDA OFF)
set(TILEFIT_HAVE_CUDA_COMPILER OFF)
if(TILEFIT_WITH_CUDA)
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(TILEFIT_HAVE_CUDA ON)
    # check_language(CUDA) searches PATH and $CUDACXX only: point it at the toolkit's nvcc.
    if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND CUDAToolkit_NVCC_EXECUTABLE
       AND EXISTS "${CUDAToolkit_NVCC_EXECUTABLE}")
      set(CMAKE_CUDA_COMPILER "${CUDAToolkit_NVCC_EXECUTABLE}" CACHE FILEPATH "CUDA compiler")
    endif()
    include(CheckLanguage)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
      set(TILEFIT_HAVE_CUDA_COMPILER ON)
    endif()
  endif()
endif()

if(TILEFIT_HAVE_CUDA_COMPILER)
  set(TILEFIT_CUDA_ARCHITECTURES "75-real;80-real;86-real;90-real;100-real;110-real;120-real;120-virtual"
      CACHE STRING "CUDA architectures of the probe kernel (CMake CUDA_ARCHITECTURES syntax)")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${TILEFIT_CUDA_ARCHITECTURES})
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
endif()
message(STATUS "tilefit: CUDA runtime ${TILEFIT_HAVE_CUDA}, CUDA compiler ${TILEFIT_HAVE_CUDA_COMPILER}")

if(TILEFIT_HAVE_CUDA)
  file(GLOB TILEFIT_DEVICE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/device/cuda_*.cpp)
else()
  file(GLOB TILEFIT_DEVICE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/device/no_cuda_*.cpp)
endif()
file(GLOB TILEFIT_DEVICE_COMMON CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/device/common_*.cpp)
add_library(tilefit_device STATIC ${TILEFIT_DEVICE_SOURCES} ${TILEFIT_DEVICE_COMMON})
target_include_directories(tilefit_device PUBLIC ${TILEFIT_PUBLIC_INCLUDE} PRIVATE src)
target_link_libraries(tilefit_device PUBLIC tilefit_model)
if(TILEFIT_HAVE_CUDA)
  target_link_libraries(tilefit_device PRIVATE CUDA::cudart_static)
  target_compile_definitions(tilefit_device PUBLIC TILEFIT_HAVE_CUDA=1)
endif()
if(TILEFIT_HAVE_CUDA_COMPILER)
  target_sources(tilefit_device PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/device/probe_kernel.cu)
  # The kernel is C++17 (CMake 3.25 has no C++20 flag for nvcc and would otherwise take
  # CXX_STANDARD); the project's warning flags are for the host compiler only.
  get_target_property(_tilefit_device_opts tilefit_device COMPILE_OPTIONS)
  if(_tilefit_device_opts)
    set(_tilefit_cxx_only "")
    foreach(_o IN LISTS _tilefit_device_opts)
      list(APPEND _tilefit_cxx_only "$<$<COMPILE_LANGUAGE:CXX>:${_o}>")
    endforeach()
    set_property(TARGET tilefit_device PROPERTY COMPILE_OPTIONS ${_tilefit_cxx_only})
  endif()
  set_target_properties(tilefit_device PROPERTIES
    CUDA_STANDARD 17
    CUDA_STANDARD_REQUIRED ON
    CUDA_ARCHITECTURES "${TILEFIT_CUDA_ARCHITECTURES}"
    CUDA_RUNTIME_LIBRARY Static)
  target_compile_definitions(tilefit_device PUBLIC TILEFIT_HAVE_PROBE=1)
endif()
