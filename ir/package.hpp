// ir/package.hpp: the interface a TeX package or TikZ library model implements (packages/), and the
// registry of them that the lowering's caller hands to ir::lower, as LLVM hands passes to a pass
// manager. ir/ never includes packages/ and never calls a package by name: the lowering offers
// each picture, statement, coordinate system and shape to the packages it was given.
//
// A package model expands into what the plain-TikZ lowering already knows, through LibraryHost
// (ir/library.hpp), the way the package itself expands into \node / \draw / scope code.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/library.hpp"
#include "ir/nodes.hpp"
#include "ir/transform.hpp"

namespace tikzlint::ir {

// A statement as the lowering offers it: its text, its leading control sequence ("\\graph",
// "\\begin", "" when it starts with none) and whether it is a path statement (\draw, \node,
// \matrix... ending in ';') or another command (\calendar, \pgfpathmoveto, \begin{axis}...).
struct PackageStatement {
  const tex::Statement& st;
  std::string_view command;
  bool path = false;
};

// A `to[options] target` operation of a path, offered to the handlers before TikZ's own keys are
// applied to its options: a package whose keys make the `to` draw something else (circuitikz's
// `to[R=$R_1$]`: the wires, the resistor at the middle, its label) rewrites it. Points are in the
// picture's local frame (what "(x pt, y pt)" in the rewritten path means) and on the canvas.
struct ToOperation {
  std::string_view options;  // as written, without the brackets
  Point start_local, target_local, start_canvas, target_canvas;
  Transform ctm;  // the path's transformation: canvas = ctm.apply(local)
  std::string target_text;  // the target as \tikztotarget would be: a node's name, or "xpt,ypt"
  std::uint32_t b = 0, e = 0;  // the operation's span in the statement text (for problems)
};
struct ToRewrite {
  std::string options;  // the option text TikZ still applies to the `to` (line colour, ...)
  std::string path;     // the path text that replaces the operation, as a `to path` would
};

// What a handler did with a statement it was offered.
enum class Offer {
  pass,      // not the package's: the next handler, then the plain lowering, sees it
  lowered,   // lowered (what it draws emitted, what it cannot model reported through the host)
  declined,  // the package's command, but not in a form it models: no other handler sees it, and
             // the plain lowering treats it as it treats any statement it does not know
};

// A package's per-picture handler: state that lives as long as one picture (an open pgfplots
// axis, its data frame). Handlers are offered each statement in registry order.
class PackagePicture {
 public:
  virtual ~PackagePicture() = default;

  virtual Offer lower_statement(const PackageStatement& s, LibraryHost& host) { return Offer::pass; }

  // A coordinate system the package defines (`axis cs:`): `args` is the text after "cs:".
  // Unhandled (the default) leaves it to the next handler and the lowering; `eval` reads one
  // expression as the path would (reporting math errors there).
  struct Coordinate {
    bool handled = false;
    std::optional<Point> local;  // in the picture's local frame; nullopt: an error was reported
  };
  using Eval = std::function<std::optional<MathValue>(const std::string& expr)>;
  virtual Coordinate coordinate(std::string_view system, std::string_view args, const Settings& s,
                                const Eval& eval) {
    return {};
  }

  // A `to` operation whose options are the package's (ToOperation): claims_to says so from the
  // option text (before anything is resolved); the first handler that claims it rewrites it.
  virtual bool claims_to(std::string_view options) const { return false; }
  // claims_to said yes: the rewrite, or nullopt when the package reported (through `host`) why it
  // cannot draw it (the operation then draws nothing).
  virtual std::optional<ToRewrite> lower_to(const ToOperation& op, LibraryHost& host) { return std::nullopt; }

  // True when a problem of this code is covered by a diagnostic of the handler's own (an
  // unlowered pgfplots axis stands for everything inside it): the lowering then drops it.
  virtual bool covers_problem(std::string_view code) const { return false; }

  // The picture's statements are all lowered (before the picture's bounding box is final).
  virtual void end_picture(LibraryHost& host) {}
};

class Package {
 public:
  virtual ~Package() = default;

  // The package or library as \usepackage / \usetikzlibrary names it ("pgfplots", "graphs").
  virtual std::string_view name() const = 0;

  // A handler for `pic`, or null when the package has nothing to do in it.
  virtual std::unique_ptr<PackagePicture> begin_picture(const tex::Picture& pic) const { return nullptr; }
  // The same, knowing the document (the packages it loads): the lowering calls this one.
  virtual std::unique_ptr<PackagePicture> begin_document_picture(const tex::Picture& pic,
                                                                 const tex::ExpandedDocument& doc) const {
    return begin_picture(pic);
  }

  // Picture and scope options as written (before they are applied): a package may keep keys the
  // key applier does not model in the current style scope (trees: level distance, grow...).
  virtual void remember_options(tex::StyleTable& styles, const std::string& options) const {}

  // The outline of a library shape (`in.shape_name`), or null when it is not one of the package's.
  virtual std::shared_ptr<const ShapeOutline> shape(const NodeShapeInput& in) const { return nullptr; }
  // Whether `name` is one of the package's shapes in `doc` (which must load the package), so
  // that a key of that name selects it.
  virtual bool names_shape(std::string_view name, const tex::ExpandedDocument& doc) const { return false; }
};

// The packages a lowering knows, in the order they are offered a statement. Built by the
// driver from packages/registry.cpp; an empty registry lowers plain TikZ only.
class PackageRegistry final : public ShapeLibrary {
 public:
  PackageRegistry() = default;
  PackageRegistry(PackageRegistry&&) = default;
  PackageRegistry& operator=(PackageRegistry&&) = default;

  void add(std::unique_ptr<Package> p) { packages_.push_back(std::move(p)); }
  const std::vector<std::unique_ptr<Package>>& packages() const { return packages_; }
  const Package* find(std::string_view name) const {
    for (const auto& p : packages_)
      if (p->name() == name) return p.get();
    return nullptr;
  }

  std::shared_ptr<const ShapeOutline> outline(const NodeShapeInput& in) const override {
    for (const auto& p : packages_)
      if (auto o = p->shape(in)) return o;
    return nullptr;
  }
  bool names_shape(std::string_view name, const tex::ExpandedDocument& doc) const override {
    for (const auto& p : packages_)
      if (p->names_shape(name, doc)) return true;
    return false;
  }

 private:
  std::vector<std::unique_ptr<Package>> packages_;
};

}  // namespace tikzlint::ir
