// `slidecheck corpus list|build`: the canonical scenes, listed or written as .scene files.
#include "commands.hpp"

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/verify/errors.hpp>
#include <slidecheck/verify/scene.hpp>
#include <slidecheck/verify/scene_io.hpp>

#include <fmt/core.h>

#include <filesystem>
#include <iostream>

namespace slidecheck::cli {
namespace {

struct CorpusBuildArgs {
  std::string out;
  std::string precision = "float";
  std::vector<std::string> shapes;
};

/// "1e-2", "1", "1e6": the file-name form of a scale or offset.
std::string short_number(double x) { return x == 0 ? "0" : fmt::format("{:g}", x); }

int build(const CorpusBuildArgs& args) {
  const verify::Precision precision = verify::parse_precision(args.precision);
  std::vector<const corpora::CanonicalShape*> shapes;
  if (args.shapes.empty())
    for (const auto& s : corpora::canonical_shapes()) shapes.push_back(&s);
  else
    for (const auto& name : args.shapes) {
      try {
        shapes.push_back(&corpora::canonical_shape(name));
      } catch (const std::invalid_argument& e) {
        throw verify::InputError("--shape", 0, e.what());
      }
    }
  std::filesystem::create_directories(args.out);
  std::size_t written = 0, with_degenerate = 0;
  for (const corpora::CanonicalShape* shape : shapes) {
    for (double scale : corpora::canonical_scales())
      for (double offset : corpora::canonical_offsets()) {
        verify::Scene scene;
        scene.name = fmt::format("{} scale {} offset {}", shape->name, short_number(scale), short_number(offset));
        scene.units = "meter";
        scene.source = "slidecheck canonical scene '" + shape->name + "': " + shape->purpose;
        scene.licence = "CC0-1.0";
        scene.precision = precision;
        scene.mesh = corpora::place_canonical(*shape, scale, offset, precision);
        // Rounding far from the origin can collapse triangles: say so in the file.
        for (std::size_t i = 0; i < scene.mesh.triangle_count(); ++i)
          if (verify::is_degenerate_exact(scene.mesh.triangle(i))) scene.degenerate_allowed = true;
        with_degenerate += scene.degenerate_allowed;
        const std::string file = fmt::format("{}/{}_s{}_o{}_{}.scene", args.out, shape->name, short_number(scale),
                                             short_number(offset), args.precision);
        verify::write_scene_file(file, scene);
        ++written;
      }
    std::cerr << "corpus build: " << shape->name << " done\n";
  }
  std::cout << "wrote " << written << " scenes to " << args.out << " (" << with_degenerate
            << " with triangles collapsed by rounding, marked `degenerate allowed`)\n";
  return verify::exit_ok;
}

}  // namespace

void register_corpus(CLI::App& app, CommandAction& action) {
  auto* corpus = app.add_subcommand("corpus", "The canonical scenes: list them, or write them as .scene files");
  corpus->require_subcommand(1);
  auto* list = corpus->add_subcommand("list", "List the canonical shapes and what each tests");
  list->callback([&action] {
    action = [] {
      for (const auto& s : corpora::canonical_shapes())
        std::cout << s.name << ": " << s.purpose << " (" << s.unit_mesh.triangle_count() << " triangles)\n";
      return int(verify::exit_ok);
    };
  });
  auto args = std::make_shared<CorpusBuildArgs>();
  auto* b = corpus->add_subcommand(
      "build", "Write every canonical shape at every scale (1e-2..1e2) and offset (0..1e6) as .scene files");
  b->add_option("--out", args->out, "Directory to write into (created)")->required();
  b->add_option("--precision", args->precision, "Precision the placed coordinates are rounded to, once")
      ->check(CLI::IsMember({"float", "double"}))
      ->capture_default_str();
  b->add_option("--shape", args->shapes, "Only these shapes (repeatable; default all)");
  b->callback([&action, args] { action = [args] { return build(*args); }; });
}

}  // namespace slidecheck::cli
