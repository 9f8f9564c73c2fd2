#pragma once
// A RapidCheck property run inside a Boost.Test case with its own number of cases (so that
// the suite stays well under a minute): a failure is a Boost.Test error with RapidCheck's
// counterexample and the RC_PARAMS line that reproduces it.
#include <boost/test/unit_test.hpp>
#include <rapidcheck.h>

#include <sstream>
#include <utility>

namespace slidecheck::test {

template <class Testable>
void check_with(int runs, Testable&& testable) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = runs;
  rc::detail::TestMetadata metadata;
  metadata.id = boost::unit_test::framework::current_test_case().full_name();
  metadata.description = boost::unit_test::framework::current_test_case().p_name;
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  std::ostringstream ss;
  rc::detail::printResultMessage(result, ss);
  const bool ok = result.template is<rc::detail::SuccessResult>();
  BOOST_TEST(ok, ss.str());
  if (ok) BOOST_TEST_MESSAGE(metadata.id << ": " << ss.str());
}

}  // namespace slidecheck::test
