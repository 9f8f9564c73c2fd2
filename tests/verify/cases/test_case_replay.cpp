// replay's text (verify/cases/case_replay.hpp): the level C part names every decision the ideal
// run left unproven, where in the algorithm it was taken and why no stage settled it.
#include <slidecheck/verify/cases/case_replay.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

using namespace slidecheck;
using namespace slidecheck::verify;

BOOST_AUTO_TEST_CASE(replay_lists_each_unproven_decision_with_its_place_and_reason) {
  CaseFile c;
  c.query.id = "q";
  CaseReplay replay;
  IdealSummary s;
  s.unproven = 2;
  replay.record.ideal = s;
  for (const char* where : {"after edge_root (pass -1, iteration -1, triangle 3)", "after stop (pass 0, iteration 2, triangle -1)"}) {
    certified::Decision d;
    d.method = certified::Method::undecided;
    d.where = where;
    d.reason = "CORE exceeded its time budget of 2 s";
    d.sqrt_nodes = 16;
    d.dag_nodes = 605;
    replay.unproven.push_back(d);
  }
  const std::string text = replay_text(replay, c, "x.case", false);
  BOOST_TEST(text.find("NOT fully proven, 2 unproven decisions") != std::string::npos, text);
  BOOST_TEST(text.find("  unproven, taken as a tie: after edge_root (pass -1, iteration -1, triangle 3) (16 square "
                       "roots, 605 DAG nodes): CORE exceeded its time budget of 2 s\n") != std::string::npos,
             text);
  BOOST_TEST(text.find("  unproven, taken as a tie: after stop (pass 0, iteration 2, triangle -1)") != std::string::npos);
  // Without level C, nothing of it.
  replay.record.ideal.reset();
  BOOST_TEST(replay_text(replay, c, "x.case", false).find("unproven") == std::string::npos);
}
