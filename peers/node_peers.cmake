# Build step of the Node engine peers (the entries of peers/engines.json whose client is node:
# an engine module peers/<folder>/peer.mjs run by the shared slidecheck-exec client,
# peers/node-common/client.mjs): copies each engine's module with client.mjs, peers/node-common beside them,
# into DIR/<engine>/ and installs its locked npm package there with `npm ci`, which checks every
# package against the sha512 in package-lock.json. A failure (no node or npm, no network) is not
# fatal to the build: it is written to DIR/<engine>/status and whoever starts the client reports it.
# Usage: cmake -DSRC=peers -DDIR=build/peers/node -DNPM=npm [-DNODE=node] [-DENGINES=a;b] -P node_peers.cmake
# (ENGINES: some of the list's Node engines; all of them unless given). peers/CMakeLists.txt runs
# it as a build step. Then: node DIR/<engine>/client.mjs.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/engines.cmake)
slidecheck_read_engines(${SRC}/engines.json)
if(NOT ENGINES)
  set(ENGINES ${SLIDECHECK_NODE_ENGINES})
endif()

# Shared modules, imported by relative path (../node-common/...): copied once, all of them.
file(GLOB _common RELATIVE ${SRC}/node-common ${SRC}/node-common/*.mjs)
file(MAKE_DIRECTORY ${DIR}/node-common)
foreach(f ${_common})
  configure_file(${SRC}/node-common/${f} ${DIR}/node-common/${f} COPYONLY)
endforeach()
# The request limits, from the one place they are set (formats::max_frames), as limits.json for
# limits.mjs.
set(_limits_header ${SRC}/../formats/include/slidecheck/formats/query_io.hpp)
file(READ ${_limits_header} _text)
if(NOT _text MATCHES "inline constexpr int max_frames = ([0-9]+);")
  message(FATAL_ERROR "${_limits_header}: no 'inline constexpr int max_frames = N;' (peers/node-common/limits.mjs reads it)")
endif()
file(CONFIGURE OUTPUT ${DIR}/node-common/limits.json CONTENT "{\"max_frames\": ${CMAKE_MATCH_1}}\n")

# Node itself: the clients use ES modules, top-level await and node:test (Node 18 or newer).
set(_node_problem "")
if(NODE)
  execute_process(COMMAND ${NODE} --version OUTPUT_VARIABLE _node_version RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    set(_node_problem "node (${NODE}) does not run")
  else()
    string(REGEX REPLACE "^v([0-9]+).*" "\\1" _node_major "${_node_version}")
    if(_node_major LESS 18)
      set(_node_problem "node ${_node_version} is too old (the peers need Node 18 or newer)")
    endif()
  endif()
endif()

foreach(engine ${ENGINES})
  if(NOT engine IN_LIST SLIDECHECK_NODE_ENGINES)
    message(FATAL_ERROR "${engine} is not a Node engine of ${SRC}/engines.json (${SLIDECHECK_NODE_ENGINES})")
  endif()
  set(folder ${SLIDECHECK_ENGINE_${engine}_FOLDER})
  set(dir ${DIR}/${engine})
  file(MAKE_DIRECTORY ${dir})
  # The engine's own module and package, and the one entry point, which runs the peer.mjs beside it.
  foreach(f package.json package-lock.json peer.mjs)
    configure_file(${SRC}/${folder}/${f} ${dir}/${f} COPYONLY)
  endforeach()
  configure_file(${SRC}/node-common/client.mjs ${dir}/client.mjs COPYONLY)
  set(status "ok")
  if(NOT NPM)
    set(status "npm was not found when slidecheck was built (install Node.js and npm, then rebuild)")
  elseif(_node_problem)
    set(status "${_node_problem}")
  else()
    execute_process(COMMAND ${NPM} ci --no-audit --no-fund --ignore-scripts --loglevel=error
                    WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      string(REGEX REPLACE "\n" " " err "${err}")
      set(status "npm ci failed when slidecheck was built (is registry.npmjs.org reachable?): ${err}")
    endif()
  endif()
  if(NOT status STREQUAL "ok")
    message(WARNING "slidecheck ${engine} peer: ${status}")
  endif()
  file(WRITE ${dir}/status "${status}")
endforeach()
