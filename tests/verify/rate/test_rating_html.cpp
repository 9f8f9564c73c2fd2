// The rating's pages (rate/rating_html.hpp): the envelope heat map has one cell per scale x
// offset of the grid with its state, colour and counts; heat maps of several ratings share one
// grid; everything from a rating is escaped; and the same ratings give the same bytes.
#include <slidecheck/verify/rate/rating_html.hpp>

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace slidecheck::verify::rate;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Scale 1 safe at offset 0 and failing at 1e4; scale 0.01 safe at 0 only.
Rating rating(const std::string& implementation) {
  Rating r;
  r.suite = {.version = 1, .variant = "nomaps", .hash = std::string(64, 'b'), .shape = "capsule",
             .precision = "float", .slice = "1/1", .queries = 40, .level_c_queries = 4};
  r.implementation = implementation;
  r.tool_version = "test";
  r.queries = 40;
  r.checked = 38;
  r.invalid_starts = 2;
  r.failing = 3;
  r.classes = {{.name = "penetration", .level = "A", .judged = 38, .failing = 3, .has_depth = true,
                .worst_depth = 0.25, .worst_depth_over_radius = 0.5, .first_query = "q<1>",
                .minimal_case = "cases/pen etration.case"},
               {.name = "jitter", .level = "C", .judged = 0, .first_query = "", .minimal_case = ""}};
  EnvelopeCell a{.scale = 1, .offset = 0, .judged = 20, .failing = 0, .classes = {}};
  EnvelopeCell b{.scale = 1, .offset = 1e4, .judged = 10, .failing = 3, .classes = {{"penetration", 3}}};
  EnvelopeCell c{.scale = 0.01, .offset = 0, .judged = 8, .failing = 0, .classes = {}};
  r.envelope = {c, a, b};
  r.parts = {{.name = "canonical", .queries = 40, .checked = 38, .failing = 3}};
  r.speed = {.queries = 40, .seconds = 2, .machine = "test <machine>", .threads = 2};
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(heat_map_has_a_cell_per_scale_and_offset_with_its_state) {
  const Rating r = rating("robust");
  const EnvelopeGrid grid = envelope_grid({&r});
  BOOST_TEST(grid.scales == (std::vector<double>{0.01, 1}));
  BOOST_TEST(grid.offsets == (std::vector<double>{0, 1e4}));
  const std::string svg = envelope_svg(r, grid, "e");
  BOOST_TEST(count(svg, "<rect ") == 4u);
  BOOST_TEST(count(svg, "data-state=\"safe\"") == 2u);
  BOOST_TEST(count(svg, "data-state=\"failing\"") == 1u);
  BOOST_TEST(count(svg, "data-state=\"none\"") == 1u);  // scale 0.01, offset 1e4: no query
  BOOST_TEST(svg.find("data-scale=\"1\" data-offset=\"10000\" data-state=\"failing\"") != std::string::npos);
  BOOST_TEST(svg.find("scale 1, offset 1e4: 3 of 10 queries failing (penetration 3)") != std::string::npos);
  BOOST_TEST(svg.find(">3/10</text>") != std::string::npos);
  BOOST_TEST(svg.find(">ok 20</text>") != std::string::npos);
  BOOST_TEST(svg.find("scale 0.01, offset 1e4: no query of the suite here") != std::string::npos);
  // Safe cells are green, failing ones not.
  BOOST_TEST(count(svg, "fill=\"#2f9e55\"") == 2u);
}

BOOST_AUTO_TEST_CASE(rating_page_escapes_and_links_the_minimal_case) {
  const std::string html = rating_html(rating("exec:python3 <mine>.py"));
  BOOST_TEST(html.find("<mine>") == std::string::npos);
  BOOST_TEST(html.find("exec:python3 &lt;mine&gt;.py") != std::string::npos);
  BOOST_TEST(html.find("<code>q&lt;1&gt;</code>") != std::string::npos);
  BOOST_TEST(html.find("href=\"cases/pen%20etration.case\"") != std::string::npos);
  BOOST_TEST(html.find("test &lt;machine&gt;") != std::string::npos);
  BOOST_TEST(html.find("<strong>3 of 38 checked queries fail.</strong>") != std::string::npos);
  BOOST_TEST(count(html, "<svg ") == 1u);
  BOOST_TEST(html.find("<script") == std::string::npos);
  BOOST_TEST(html.find("</html>\n") == html.size() - 8);
  BOOST_TEST(rating_html(rating("robust")) == rating_html(rating("robust")));
}

BOOST_AUTO_TEST_CASE(comparison_draws_every_rating_on_one_grid) {
  Rating a = rating("robust");
  Rating b = rating("peer:jolt");
  b.envelope.push_back({.scale = 100, .offset = 1e6, .judged = 5, .failing = 5, .classes = {{"tunnelling", 5}}});
  const std::string html = comparison_html({{"a.json", a}, {"b.json", b}});
  BOOST_TEST(count(html, "<svg ") == 2u);
  // Both heat maps on the union grid: 3 scales x 3 offsets each.
  BOOST_TEST(count(html, "<rect ") == 18u);
  BOOST_TEST(html.find("id=\"envelope-0\"") != std::string::npos);
  BOOST_TEST(html.find("id=\"envelope-1\"") != std::string::npos);
  BOOST_TEST(count(html, "data-scale=\"100\" data-offset=\"1e+06\" data-state=\"failing\"") == 1u);
  BOOST_TEST(count(html, "data-scale=\"100\" data-offset=\"1e+06\" data-state=\"none\"") == 1u);
  BOOST_TEST(html.find("<code>b.json</code>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(comparison_image_is_one_svg_of_every_envelope) {
  Rating a = rating("robust");
  Rating b = rating("peer:jolt");
  Rating c = rating("fauerby");
  b.envelope.push_back({.scale = 100, .offset = 1e6, .judged = 5, .failing = 5, .classes = {{"tunnelling", 5}}});
  const std::string svg = comparison_svg({{"a.json", a}, {"b.json", b}, {"c.json", c}}, 2);
  BOOST_TEST(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=", 0) == 0u);  // standalone
  BOOST_TEST(count(svg, "<svg ") == 4u);  // the image and three heat maps
  BOOST_TEST(count(svg, "data-state=") == 27u);  // each on the union grid, 3 x 3
  BOOST_TEST(svg.find(">peer:jolt</text>") != std::string::npos);
  // Two to a row: the third heat map starts the second row.
  BOOST_TEST(svg.find("<g transform=\"translate(0 ") != std::string::npos);
  BOOST_TEST(count(svg, "<g transform=\"translate(0 ") == 2u);
  BOOST_TEST(svg.find("no query") != std::string::npos);  // the key
  BOOST_TEST(comparison_svg({{"a.json", a}, {"b.json", b}, {"c.json", c}}, 2) == svg);
}
