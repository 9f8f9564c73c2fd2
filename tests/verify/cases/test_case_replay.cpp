// replay's text (verify/cases/case_replay.hpp): the level C part names every decision the ideal
// run left unproven, where in the algorithm it was taken and why no stage settled it. A case that
// cannot be replayed here (another program's positions, an unregistered algorithm) is refused.
#include <slidecheck/formats/errors.hpp>
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

BOOST_AUTO_TEST_CASE(a_case_that_cannot_be_replayed_here_is_refused_with_what_to_run_instead) {
  CaseFile c;
  c.query.id = "q";
  c.algorithm = Algorithm("fauerby");
  BOOST_CHECK_NO_THROW(require_replayable(c, "x.case"));
  // Another program's reported positions, even under a built-in's name (judge of verify's paths).
  c.positions = {{0, 0, 1}, {0, 0, 0.5}};
  try {
    require_replayable(c, "x.case");
    BOOST_ERROR("another program's case was taken for replay");
  } catch (const InputError& e) {
    const std::string m = e.what();
    BOOST_TEST(m.find("another program") != std::string::npos, m);
    BOOST_TEST(m.find("slidecheck view x.case") != std::string::npos, m);
  }
  // An algorithm this program does not register (another program's run_cli).
  c.positions.clear();
  c.algorithm = Algorithm("mine");
  BOOST_CHECK_THROW(require_replayable(c, "x.case"), InputError);
}
