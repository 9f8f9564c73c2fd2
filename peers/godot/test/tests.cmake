# Godot's own tests, included by tests/peers/CMakeLists.txt for this native client folder
# (peers/engines.json): the engine code as a library (test_godot.cpp), the client's help, a bad
# command line (exit 2), its --check with Godot present and missing, and the shared Node
# conformance suite on both backends (godot.test.mjs).
# Without godot3-server nothing is built and these tests are not registered (one status line).
# Appends the client to _native_clients, the caller's list.
if(NOT TARGET slidecheck_godot_exec)
  message(STATUS "godot3-server not found: the Godot peer tests (peers.godot*) are skipped")
else()
  set(_here ${PROJECT_SOURCE_DIR}/peers/godot/test)
  add_executable(test_peers_godot ${_here}/test_godot.cpp)
  target_link_libraries(test_peers_godot PRIVATE slidecheck_test_main slidecheck_godot_exec nlohmann_json::nlohmann_json)
  target_compile_definitions(test_peers_godot PRIVATE SLIDECHECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                             SLIDECHECK_GODOT_PROGRAM="${SLIDECHECK_GODOT_PROGRAM}")
  add_test(NAME peers.godot COMMAND test_peers_godot --log_level=message --report_level=short)
  set_tests_properties(peers.godot PROPERTIES LABELS "unit;peers;peer" TIMEOUT 300)

  set(tool $<TARGET_FILE:slidecheck_godot>)
  list(APPEND _native_clients ${tool})
  add_test(NAME peers.godot_help COMMAND ${CMAKE_COMMAND} -DCMD=${tool} "-DARGS=--help"
           -DEXPECT_EXIT=0 "-DEXPECT_REGEX=slidecheck-exec 1.*Exit codes: 0.*--physics" -P ${run_cli})
  add_test(NAME peers.godot_bad_physics COMMAND ${CMAKE_COMMAND} -DCMD=${tool} "-DARGS=--physics|jolt"
           -DEXPECT_EXIT=2 "-DEXPECT_REGEX=error: --physics must be bullet or godotphysics, not 'jolt'" -P ${run_cli})
  # --check: whether Godot can be run here (slidecheck version and peer:godot ask it first).
  add_test(NAME peers.godot_check COMMAND ${tool} --physics bullet --check)
  add_test(NAME peers.godot_check_missing COMMAND ${CMAKE_COMMAND} -DCMD=${tool}
           "-DARGS=--physics|bullet|--godot|/nonexistent/godot3-server|--check" -DEXPECT_EXIT=1
           "-DEXPECT_REGEX=cannot run /nonexistent/godot3-server: no such file .install godot3-server" -P ${run_cli})
  set_tests_properties(peers.godot_help peers.godot_bad_physics peers.godot_check peers.godot_check_missing
                       PROPERTIES LABELS "unit;peers;peer;cli" TIMEOUT 120)
  if(SLIDECHECK_NODE)
    add_test(NAME peers.godot_conformance
             COMMAND ${SLIDECHECK_NODE} --test ${_here}/godot.test.mjs WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(peers.godot_conformance PROPERTIES LABELS "unit;peers;peer" TIMEOUT 300
                         ENVIRONMENT "SLIDECHECK_GODOT_CLIENT=${tool}")
  endif()
endif()
