# Included from tests/CMakeLists.txt (tests are directory-scoped, so their properties are set
# here, in the same directory). The OpenArena maps are fetched into the build tree by a fixture;
# without network the fixture fails with the script's message and the map tests do not run.
set(SLIDECHECK_CORPORA_CACHE ${CMAKE_BINARY_DIR}/corpora-cache)
add_test(NAME corpora.fetch_openarena
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/fetch-openarena-maps.sh ${SLIDECHECK_CORPORA_CACHE})
set_tests_properties(corpora.fetch_openarena PROPERTIES
  FIXTURES_SETUP openarena_maps LABELS "corpora;network" TIMEOUT 600)
if(TEST corpora.openarena)
  set_tests_properties(corpora.openarena PROPERTIES
    FIXTURES_REQUIRED openarena_maps LABELS "corpora;network"
    ENVIRONMENT "SLIDECHECK_OPENARENA_PK3=${SLIDECHECK_CORPORA_CACHE}/pak1-maps.pk3")
endif()
# The script's own usage error needs no network.
add_test(NAME corpora.fetch_openarena_usage COMMAND ${PROJECT_SOURCE_DIR}/scripts/fetch-openarena-maps.sh)
set_tests_properties(corpora.fetch_openarena_usage PROPERTIES
  LABELS "unit;corpora" PASS_REGULAR_EXPRESSION "usage: .*fetch-openarena-maps.sh DEST")
