// The single Boost.Test entry point, linked into every test executable (shared Boost.Test).
#define BOOST_TEST_MODULE slidecheck
#include <boost/test/unit_test.hpp>
