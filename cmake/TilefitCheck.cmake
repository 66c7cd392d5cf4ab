# TilefitCheck: refuse, at configure time, tile configs that cannot fit.
#
#   include(TilefitCheck)   # after find_package(tilefit CONFIG REQUIRED)
#   tilefit_check_configs(FILES kernels/moe_tiles.json [more.json ...] [ARCH sm_120 | DEVICE 0])
#
# runs `tilefit check` on the files (relative paths are relative to the calling CMakeLists.txt)
# while CMake configures: with ARCH, the built-in table of that architecture (several:
# "sm_90,sm_120"); with DEVICE, GPU N; otherwise each config's own arch (--builtin). When every
# config fits it prints one status line; when one does not (or is invalid), configuration fails
# and names each such config with its bytes, the limit and by how much it is over:
#
#   CMake Error at .../TilefitCheck.cmake:67 (message):
#     tilefit: 1 of 6 configs in moe_finalize.json cannot run:
#       finalize_128x256x128 (sm_120): 102400 B > 101376 B, over by 1024 B: the builder picks 3 ...
#
# The files are configure dependencies: editing one makes the next `cmake --build` configure
# again, and so check again. A file with no configs at all ({"configs": []}) is an error
# ("no configs in FILE"): a check of nothing is no check.
#
# Inside a project that builds tilefit itself (add_subdirectory, FetchContent) the tool does not
# exist yet while CMake configures: the same check then runs at build time, as a custom command
# of the target tilefit_check_<n> (part of `all`) that depends on the tool and on the files — it
# runs again whenever one of them changes — and fails the build instead.

function(_tilefit_check_report rc out err what files names)
  if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
    message(FATAL_ERROR "tilefit check failed (exit ${rc}) on ${what}:\n${err}")
  endif()
  string(JSON n LENGTH "${out}" results)
  # Every file must hold at least one config (results name their file as given: absolute).
  set(seen "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON f GET "${out}" results ${i} file)
      list(APPEND seen "${f}")
    endforeach()
  endif()
  set(empty "")
  foreach(f name IN ZIP_LISTS files names)
    list(FIND seen "${f}" at)
    if(at EQUAL -1)
      list(APPEND empty "${name}")
    endif()
  endforeach()
  if(empty)
    string(REPLACE ";" ", " empty "${empty}")
    message(FATAL_ERROR "tilefit: no configs in ${empty} (a config file must list at least one)")
  endif()
  if(rc EQUAL 0)
    message(STATUS "tilefit: all ${n} configs fit (${what})")
    return()
  endif()
  set(lines "")
  set(bad 0)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON status GET "${out}" results ${i} status)
    if(status STREQUAL "fits")
      continue()
    endif()
    math(EXPR bad "${bad} + 1")
    string(JSON name GET "${out}" results ${i} name)
    string(JSON arch GET "${out}" results ${i} arch)
    string(JSON limit GET "${out}" results ${i} limit_bytes)
    string(JSON smem TYPE "${out}" results ${i} smem_bytes)
    if(smem STREQUAL "NULL")
      set(head "${status}")
    else()
      string(JSON smem GET "${out}" results ${i} smem_bytes)
      if(smem GREATER limit)
        math(EXPR over "${smem} - ${limit}")
        set(head "${smem} B > ${limit} B, over by ${over} B")
      else()
        set(head "${status} (${smem} B, limit ${limit} B)")
      endif()
    endif()
    set(why "")
    string(JSON nd LENGTH "${out}" results ${i} diagnostics)
    if(nd GREATER 0)
      math(EXPR dl "${nd} - 1")
      foreach(d RANGE ${dl})
        string(JSON sev GET "${out}" results ${i} diagnostics ${d} severity)
        if(sev STREQUAL "error")
          string(JSON why GET "${out}" results ${i} diagnostics ${d} message)
          break()
        endif()
      endforeach()
    endif()
    string(APPEND lines "  ${name} (${arch}): ${head}: ${why}\n")
  endforeach()
  message(FATAL_ERROR "tilefit: ${bad} of ${n} configs in ${what} cannot run:\n${lines}")
endfunction()

function(_tilefit_check_run exe files names target_args what)
  execute_process(COMMAND ${exe} check ${files} ${target_args} --format json
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  _tilefit_check_report("${rc}" "${out}" "${err}" "${what}" "${files}" "${names}")
endfunction()

# Script mode: the build-time check (cmake -DTILEFIT_EXECUTABLE=... -DFILES=... -DNAMES=...
# -DTARGET_ARGS=... -DSTAMP=... -P); STAMP is touched when every config fits.
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED FILES)
  # Lists travel '|'-separated: a custom command's arguments cannot hold a ';'.
  string(REPLACE "|" ";" FILES "${FILES}")
  string(REPLACE "|" ";" NAMES "${NAMES}")
  string(REPLACE "|" ";" TARGET_ARGS "${TARGET_ARGS}")
  _tilefit_check_run("${TILEFIT_EXECUTABLE}" "${FILES}" "${NAMES}" "${TARGET_ARGS}" "${WHAT}")
  if(STAMP)
    file(TOUCH "${STAMP}")
  endif()
  return()
endif()

function(tilefit_check_configs)
  cmake_parse_arguments(PARSE_ARGV 0 TFC "" "ARCH;DEVICE" "FILES")
  if(NOT TFC_FILES)
    message(FATAL_ERROR "tilefit_check_configs: FILES is required (config files to check)")
  endif()
  if(TFC_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilefit_check_configs: unknown arguments ${TFC_UNPARSED_ARGUMENTS}; "
                        "allowed: FILES ... [ARCH sm_NN | DEVICE N]")
  endif()
  if(DEFINED TFC_ARCH AND DEFINED TFC_DEVICE)
    message(FATAL_ERROR "tilefit_check_configs: give ARCH or DEVICE, not both")
  endif()
  if(DEFINED TFC_ARCH)
    set(target_args --arch ${TFC_ARCH})
  elseif(DEFINED TFC_DEVICE)
    set(target_args --device ${TFC_DEVICE})
  else()
    set(target_args --builtin)
  endif()
  set(files "")
  foreach(f IN LISTS TFC_FILES)
    get_filename_component(abs "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND files "${abs}")
  endforeach()
  string(REPLACE ";" ", " what "${TFC_FILES}")

  if(TILEFIT_EXECUTABLE AND EXISTS "${TILEFIT_EXECUTABLE}")
    # Edit a file and the next build configures, and checks, again.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${files})
    _tilefit_check_run("${TILEFIT_EXECUTABLE}" "${files}" "${TFC_FILES}" "${target_args}" "${what}")
  elseif(TILEFIT_TOOL_TARGET AND TARGET ${TILEFIT_TOOL_TARGET})
    get_property(n GLOBAL PROPERTY TILEFIT_CHECK_COUNT)
    if(NOT n)
      set(n 0)
    endif()
    math(EXPR n "${n} + 1")
    set_property(GLOBAL PROPERTY TILEFIT_CHECK_COUNT ${n})
    # A stamp that the check touches when every config fits: the command runs again when the
    # tool or one of the files changes (and after a failure, which leaves no stamp).
    set(stamp "${CMAKE_CURRENT_BINARY_DIR}/tilefit_check_${n}.stamp")
    string(REPLACE ";" "|" files_arg "${files}")
    string(REPLACE ";" "|" names_arg "${TFC_FILES}")
    string(REPLACE ";" "|" target_arg "${target_args}")
    add_custom_command(OUTPUT "${stamp}"
      COMMAND ${CMAKE_COMMAND} -E rm -f "${stamp}"
      COMMAND ${CMAKE_COMMAND} -DTILEFIT_EXECUTABLE=$<TARGET_FILE:${TILEFIT_TOOL_TARGET}>
              "-DFILES=${files_arg}" "-DNAMES=${names_arg}" "-DTARGET_ARGS=${target_arg}"
              "-DWHAT=${what}" "-DSTAMP=${stamp}"
              -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
      DEPENDS ${TILEFIT_TOOL_TARGET} ${files} ${CMAKE_CURRENT_FUNCTION_LIST_FILE}
      COMMENT "tilefit check ${what}"
      VERBATIM)
    add_custom_target(tilefit_check_${n} ALL DEPENDS "${stamp}")
    message(STATUS "tilefit: ${what} will be checked when this project builds (target tilefit_check_${n}): "
                   "the tool is built by this project")
  else()
    message(FATAL_ERROR "tilefit_check_configs: no tilefit tool: find_package(tilefit) sets "
                        "TILEFIT_EXECUTABLE; or set it to the path of the tilefit binary")
  endif()
endfunction()
