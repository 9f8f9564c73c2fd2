# Build step of `slidecheck view` (viewer/CMakeLists.txt): installs the locked npm packages
# (three.js, embedded in the slidecheck binary; playwright-core, for the browser tests) into
# DIR with `npm ci`, which checks every package against the sha512 in package-lock.json, then
# checks the one file we embed against a pinned SHA-256. A failure (no npm, no network) is not
# fatal to the build: it is written to DIR/status and `slidecheck view` reports it.
# Usage: cmake -DSRC=viewer -DDIR=build/viewer/npm -DNPM=npm -DTHREE_SHA256=... -P fetch_npm.cmake
file(MAKE_DIRECTORY ${DIR})
configure_file(${SRC}/package.json ${DIR}/package.json COPYONLY)
configure_file(${SRC}/package-lock.json ${DIR}/package-lock.json COPYONLY)
set(status "ok")
if(NOT NPM)
  set(status "npm was not found when slidecheck was built (install Node.js and npm, then rebuild)")
else()
  execute_process(COMMAND ${NPM} ci --no-audit --no-fund --ignore-scripts --loglevel=error
                  WORKING_DIRECTORY ${DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REGEX REPLACE "\n" " " err "${err}")
    set(status "npm ci failed when slidecheck was built (is registry.npmjs.org reachable?): ${err}")
  else()
    set(three ${DIR}/node_modules/three/build/three.module.min.js)
    file(SHA256 ${three} got)
    if(NOT got STREQUAL THREE_SHA256)
      set(status "three.module.min.js has SHA-256 ${got}, expected ${THREE_SHA256}")
    endif()
  endif()
endif()
if(NOT status STREQUAL "ok")
  message(WARNING "slidecheck view: ${status}")
endif()
file(WRITE ${DIR}/status "${status}")
