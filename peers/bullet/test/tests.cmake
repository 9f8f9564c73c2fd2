# Bullet's own tests, included by tests/peers/CMakeLists.txt for this native client folder
# (peers/engines.json): the engine code as a library (test_bullet.cpp), its capsule sweeps through
# level B's sweep judge (test_bullet_capsule_sweeps.cpp), each built client's help,
# a bad command line (exit 2), requests piped through it, and the shared Node conformance suite.
# Appends the clients it found to _native_clients, the caller's list.
set(_here ${PROJECT_SOURCE_DIR}/peers/bullet/test)
foreach(precision float double)
  if(NOT TARGET slidecheck_bullet_exec_${precision})
    continue()
  endif()
  set(exe test_peers_bullet_${precision})
  add_executable(${exe} ${_here}/test_bullet.cpp)
  target_link_libraries(${exe} PRIVATE slidecheck_test_main slidecheck_bullet_exec_${precision} nlohmann_json::nlohmann_json)
  target_compile_definitions(${exe} PRIVATE SLIDECHECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME peers.bullet_${precision} COMMAND ${exe} --log_level=message --report_level=short)
  set_tests_properties(peers.bullet_${precision} PROPERTIES LABELS "unit;peers;peer" TIMEOUT 300)
  # Its capsule sweeps through level B's sweep judge (the verifier's own code).
  set(judged test_peers_bullet_capsule_sweeps_${precision})
  add_executable(${judged} ${_here}/test_bullet_capsule_sweeps.cpp)
  target_link_libraries(${judged} PRIVATE slidecheck_test_main slidecheck_bullet_exec_${precision} slidecheck_verify nlohmann_json::nlohmann_json)
  target_compile_definitions(${judged} PRIVATE SLIDECHECK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME peers.bullet_${precision}_capsule_sweeps COMMAND ${judged} --log_level=message --report_level=short)
  set_tests_properties(peers.bullet_${precision}_capsule_sweeps PROPERTIES LABELS "unit;peers;peer" TIMEOUT 300)

  set(tool $<TARGET_FILE:slidecheck_bullet_${precision}>)
  list(APPEND _native_clients ${tool})
  add_test(NAME peers.bullet_${precision}_help COMMAND ${CMAKE_COMMAND} -DCMD=${tool} "-DARGS=--help"
           -DEXPECT_EXIT=0 "-DEXPECT_REGEX=slidecheck-exec 1.*Exit codes: 0.*--mode" -P ${run_cli})
  add_test(NAME peers.bullet_${precision}_bad_mode COMMAND ${CMAKE_COMMAND} -DCMD=${tool} "-DARGS=--mode|walk"
           -DEXPECT_EXIT=2 "-DEXPECT_REGEX=error: --mode must be sweep or kcc, not 'walk'" -P ${run_cli})
  add_test(NAME peers.bullet_${precision}_pipe COMMAND ${CMAKE_COMMAND} -DCMD=${tool} -DPRECISION=${precision}
           -DSCENE=${PROJECT_SOURCE_DIR}/peers/node-common/test/data/floor.scene -DDIR=${CMAKE_CURRENT_BINARY_DIR}
           -P ${_here}/exec_pipe.cmake)
  set_tests_properties(peers.bullet_${precision}_help peers.bullet_${precision}_bad_mode peers.bullet_${precision}_pipe
                       PROPERTIES LABELS "unit;peers;peer;cli" TIMEOUT 120)
  if(SLIDECHECK_NODE)
    add_test(NAME peers.bullet_${precision}_conformance
             COMMAND ${SLIDECHECK_NODE} --test ${_here}/bullet.test.mjs WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(peers.bullet_${precision}_conformance PROPERTIES LABELS "unit;peers;peer" TIMEOUT 300
                         ENVIRONMENT "SLIDECHECK_BULLET_CLIENTS=${tool}")
  endif()
endforeach()
