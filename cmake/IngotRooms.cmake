# Rooms: every folder of services/, models/ and ui/ is a static library that names the rooms it may use.
# ingot_room() builds it and checks, at configure time, that the room links only those rooms, that its sources
# include headers only from itself, those rooms and the rooms they may use in turn (never from app/, which sits
# above every room), and that each room it declares is really used (a header of it included directly). A line's
# room is its folder; a dependency that is not declared here, or declared and unused, fails the configure step.
# ingot_check_includes() applies the include rule to a target that is not a room (the CLI library).
#
#   ingot_room(NAME <layer>_<room> DIR <folder> SOURCES ... [ROOMS <room targets>] [LIBS <external targets>])

set_property(GLOBAL PROPERTY INGOT_ROOMS "")

function(_ingot_room_closure out)
  set(_seen "")
  set(_todo ${ARGN})
  while(_todo)
    list(POP_FRONT _todo _r)
    if(NOT _r IN_LIST _seen)
      list(APPEND _seen ${_r})
      get_property(_deps GLOBAL PROPERTY INGOT_ROOM_DEPS_${_r})
      list(APPEND _todo ${_deps})
    endif()
  endwhile()
  set(${out} ${_seen} PARENT_SCOPE)
endfunction()

function(ingot_room)
  cmake_parse_arguments(R "" "NAME;DIR" "SOURCES;ROOMS;LIBS" ${ARGN})
  add_library(${R_NAME} STATIC ${R_SOURCES})
  target_include_directories(${R_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${R_NAME} PUBLIC ${R_ROOMS} ${R_LIBS})
  file(RELATIVE_PATH _rel ${PROJECT_SOURCE_DIR} ${R_DIR})
  set_property(GLOBAL PROPERTY INGOT_ROOM_DIR_${R_NAME} ${_rel})
  set_property(GLOBAL PROPERTY INGOT_ROOM_DEPS_${R_NAME} ${R_ROOMS})
  set_property(GLOBAL APPEND PROPERTY INGOT_ROOMS ${R_NAME})
  foreach(_r IN LISTS R_ROOMS)
    get_property(_known GLOBAL PROPERTY INGOT_ROOMS)
    if(NOT _r IN_LIST _known)
      message(FATAL_ERROR "room ${R_NAME} uses ${_r}, which is not a room declared before it")
    endif()
  endforeach()

  # Headers a source may include: its own folder and the folders of every room it may reach.
  _ingot_room_closure(_reach ${R_NAME})
  set(_allowed "")
  foreach(_r IN LISTS _reach)
    get_property(_d GLOBAL PROPERTY INGOT_ROOM_DIR_${_r})
    list(APPEND _allowed ${_d})
  endforeach()
  _ingot_check_sources("${R_NAME}" "${CMAKE_CURRENT_SOURCE_DIR}" "${_allowed}" _used ${R_SOURCES})
  foreach(_r IN LISTS R_ROOMS)
    get_property(_d GLOBAL PROPERTY INGOT_ROOM_DIR_${_r})
    if(NOT _d IN_LIST _used)
      message(FATAL_ERROR "room ${R_NAME} declares ${_r} (${_d}) but none of its sources includes a header from it.\n"
                          "  Remove it from its ROOMS (see cmake/IngotRooms.cmake).")
    endif()
  endforeach()
endfunction()

# Checks that every source of NAME includes headers (of services/, models/, ui/ and app/) only from the folders in
# ALLOWED (or below them); sets OUT_USED to the room folders it includes from.
function(_ingot_check_sources name base allowed out_used)
  set(_used "")
  foreach(_src IN LISTS ARGN)
    if(NOT _src MATCHES "\\.(h|cpp)$")
      continue()
    endif()
    get_filename_component(_abs ${_src} ABSOLUTE BASE_DIR ${base})
    file(STRINGS ${_abs} _incs REGEX "^[ \t]*#[ \t]*include[ \t]*\"(services|models|ui|app)/")
    foreach(_inc IN LISTS _incs)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)/[^/\"]+\".*" "\\1" _dir "${_inc}")
      set(_ok FALSE)
      foreach(_a IN LISTS allowed)
        if(_dir STREQUAL _a OR _dir MATCHES "^${_a}/")
          set(_ok TRUE)
          list(APPEND _used ${_a})
        endif()
      endforeach()
      if(NOT _ok)
        message(FATAL_ERROR "${_abs}: ${_inc}\n  ${name} may include only from: ${allowed}\n"
                            "  Declare the room in its ROOMS (see cmake/IngotRooms.cmake) if the dependency is right.")
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _used)
  set(${out_used} ${_used} PARENT_SCOPE)
endfunction()

# The include rule for a target that is not a room: its sources may include from its own folders (OWN, relative to
# the project) and from the ROOMS given and what they may use.
#   ingot_check_includes(TARGET <target> OWN <folders> ROOMS <room targets>)
function(ingot_check_includes)
  cmake_parse_arguments(C "" "TARGET" "OWN;ROOMS" ${ARGN})
  _ingot_room_closure(_reach ${C_ROOMS})
  set(_allowed ${C_OWN})
  foreach(_r IN LISTS _reach)
    get_property(_d GLOBAL PROPERTY INGOT_ROOM_DIR_${_r})
    list(APPEND _allowed ${_d})
  endforeach()
  get_target_property(_srcs ${C_TARGET} SOURCES)
  get_target_property(_dir ${C_TARGET} SOURCE_DIR)
  _ingot_check_sources("${C_TARGET}" "${_dir}" "${_allowed}" _unused ${_srcs})
endfunction()
