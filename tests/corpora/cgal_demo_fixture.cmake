# Included from tests/CMakeLists.txt. CGAL's demo OFF meshes (Debian libcgal-demo) are fetched
# into the build tree by a fixture, like the OpenArena maps; without network the fixture fails
# with the script's message and corpora.cgal_demo does not run.
set(SLIDECHECK_CGAL_DEMO_CACHE ${CMAKE_BINARY_DIR}/corpora-cache/cgal-demo)
add_test(NAME corpora.fetch_cgal_demo
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/fetch-cgal-demo-meshes.sh ${SLIDECHECK_CGAL_DEMO_CACHE})
set_tests_properties(corpora.fetch_cgal_demo PROPERTIES
  FIXTURES_SETUP cgal_demo_meshes LABELS "corpora;network" TIMEOUT 600)
if(TEST corpora.cgal_demo)
  set_tests_properties(corpora.cgal_demo PROPERTIES
    FIXTURES_REQUIRED cgal_demo_meshes LABELS "corpora;network"
    ENVIRONMENT "SLIDECHECK_CGAL_DEMO_DIR=${SLIDECHECK_CGAL_DEMO_CACHE}")
endif()
add_test(NAME corpora.fetch_cgal_demo_usage COMMAND ${PROJECT_SOURCE_DIR}/scripts/fetch-cgal-demo-meshes.sh)
set_tests_properties(corpora.fetch_cgal_demo_usage PROPERTIES
  LABELS "unit;corpora" PASS_REGULAR_EXPRESSION "usage: .*fetch-cgal-demo-meshes.sh DEST")
