// tex/tex.hpp: the public face of the TeX front end.
// Turns a file into expanded TikZ statements, each with its provenance. Reads class and
// package definitions (not their typesetting), expands user macros, unrolls \foreach.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostic.hpp"
#include "support/read_policy.hpp"
#include "support/source.hpp"

namespace tikzlint::tex {

// Every budget is named and configurable; exceeding one is a located error, never a hang.
struct Limits {
  std::size_t max_input_bytes = 8u << 20;        // one input file
  std::size_t max_expansion_steps = 2'000'000;   // macro expansions per file
  std::size_t max_macro_depth = 256;             // nested expansion (\def\a{\a}\a)
  std::size_t max_token_count = 4'000'000;       // tokens alive in the expander at once
  std::size_t max_loop_iterations = 100'000;     // one \foreach (refused up front for ranges)
  // The work \foreach bodies may cause in a file: iterations x statements of the body, summed
  // (a 1000x1000 nest of one \draw took 1.7 GB and 9 s; 30x30x30 of five statements fits). A
  // loop whose known range would take the file past it, counting the iterations still to come of
  // the loops around it, is refused before its first iteration.
  std::size_t max_loop_work = 200'000;
  std::size_t max_nesting_depth = 256;           // braces / groups / environments; the same
                                                 // as the statement parser's kMaxGroupNesting, so
                                                 // that deep nesting gives one error, not two
  std::size_t max_statement_bytes = 1u << 20;    // one expanded statement
  // The drawing one file may make (ir::lower): elements plus the points of their paths, summed
  // over its pictures, packages' constructs included (they are lowered as statements). 500,000
  // is five times the ~100,000 plot points at which pgfplots' manual says TeX runs out of memory
  // (pgfplots manual, "Memory limits"); 2,000 plots of 10,000 samples took 48 s and 1 GB. A
  // statement that would pass it is refused before its points are computed, and the rest of the
  // file's drawing is skipped.
  std::size_t max_drawing_work = 500'000;
};

// Definitions read from a class (and the packages it loads) for one set of class options,
// kept for the next file of a batch that loads the same class: reading Tikz-IM.sty again for
// every diagram would cost more than checking the diagram. Thread-safe; shared by the copies of
// one FrontendOptions. Tests and tools that want a cold read set `cache` to null.
class ExpansionCache;
std::shared_ptr<ExpansionCache> make_expansion_cache();
class StyleTable;  // tex/styles.hpp

struct FrontendOptions {
  std::vector<std::string> include_dirs;  // after the input file's own folder
  // --allow-read: more folders a document may read from (support/read_policy.hpp); nothing is
  // looked up there, but names that resolve into them are read.
  std::vector<std::string> allow_read;
  Limits limits;
  std::shared_ptr<ExpansionCache> cache = make_expansion_cache();
};

enum class StatementKind {
  Path,        // \draw \path \fill \filldraw \shade \shadedraw \clip \node \coordinate \pic \matrix ...
  ScopeBegin,  // \begin{scope}[opts]  (text holds the option text without brackets)
  ScopeEnd,    // \end{scope}
  StyleDef,    // \tikzset{...} or \tikzstyle{n}=[...], normalised to a tikzset body
  Other,       // anything else inside the picture the front end could not classify
};

// One expanded statement. `text` is what TeX would see after macro expansion, e.g.
// "\draw[thin] (0,0) -- (1,0);". `origin[i]` is the byte offset in the input file that
// byte i of `text` came from (for text produced by a macro body: the macro's call site).
struct Statement {
  StatementKind kind = StatementKind::Other;
  std::string text;
  std::vector<std::uint32_t> origin;
  Provenance prov;
  // Cut short by a budget error (expansion-limit, reported): `text` is what was read before the
  // stop. Not a statement to parse; what it would have drawn is missing from the picture.
  bool cut = false;
  // A ScopeBegin of the pgfonlayer environment (\begin{pgfonlayer}{name}, pgfcorelayers.code.tex):
  // the layer its statements are painted on, up to the matching ScopeEnd. It is a TeX group, not
  // a TikZ scope: `text` is empty.
  std::string layer;
  SourceRange range_of(std::uint32_t begin, std::uint32_t end) const;  // text range -> source range
};

struct Picture {
  SourceRange range;         // the whole environment / \tikz command
  std::string options;       // tikzpicture options, without the brackets
  // The environment that made it: "tikzpicture" (also for \tikz and bare snippets), "tikzcd",
  // "circuitikz" (circuitikz's environment: a tikzpicture with the package's defaults).
  std::string environment = "tikzpicture";
  std::vector<Statement> statements;
  bool is_axis = false;      // contains a pgfplots axis (not lowered by this front end)
  bool truncated = false;    // expansion stopped (a budget error) before the picture's end
  // Text of the document body shares the picture's paragraph (before or after it, no blank line
  // between): the picture is set inline, and a standalone page extends past it by that text.
  bool text_beside = false;
  // The font commands of the document body in force where the picture starts (\Huge,
  // \small\sffamily): the picture's font, hence its em and ex and its nodes' text.
  std::string body_font;
  // The layers TeX paints the picture in, in order (\pgfsetlayers in force where the picture
  // ends; pgfcorelayers.code.tex), "main" among them: what is on an earlier layer is under what
  // is on a later one, whatever the source order.
  std::vector<std::string> layers{"main"};
};

// A `% tikzlint: disable-next-line=rule -- reason` (or disable=, disable-file=) comment.
struct Directive {
  std::string kind;            // "disable-next-line", "disable", "disable-file"
  std::vector<std::string> rules;
  std::string reason;
  SourceRange range;
  std::uint32_t applies_to_line = 0;  // for disable-next-line
};

struct ExpandedDocument {
  FileId file = 0;
  std::string document_class;           // "IM", "standalone", "" for a bare snippet
  std::vector<std::string> class_options;
  double base_font_size_pt = 10.0;      // from the class and its options (12pt, ...)
  // The TikZ libraries \usetikzlibrary loaded in the class, its packages and the preamble, in
  // order, each once ("positioning"): some keys mean other things once a library is loaded
  // (positioning's `above=3pt`).
  std::vector<std::string> tikz_libraries;
  // The packages \usepackage / \RequirePackage loaded in the class and the document, in order, each
  // once, with the options written ("circuitikz", "american,RPvoltages"): what a package model
  // needs to know is loaded (circuitikz's `to[R]` is a key only once the package is).
  struct LoadedPackage {
    std::string name, options;
  };
  std::vector<LoadedPackage> packages;
  bool loads(std::string_view name) const {
    for (const auto& p : packages)
      if (p.name == name) return true;
    return false;
  }
  // StyleDef statements from classes, packages, preamble (before the first picture): those after
  // preamble_table's.
  std::vector<Statement> preamble_styles;
  // The style table of the class's StyleDef statements, when the class came from the expansion
  // cache: shared by every document of a batch that loads the same class, so its \tikzset bodies
  // are not run again per diagram, nor its statements copied into preamble_styles. Null: start
  // empty (preamble_styles then holds every statement).
  std::shared_ptr<const StyleTable> preamble_table;
  std::vector<Picture> pictures;
  // Setup commands of a package written outside any picture, in document order (tkz-euclide's
  // \tkzSetUpPoint[..] in the preamble, circuitikz's \ctikzset{..}: they hold for the pictures
  // after them; TeX groups outside pictures are not followed).
  // `pictures_before`: the number of pictures that precede it. Package models apply them.
  struct SetupCommand {
    std::size_t pictures_before = 0;
    Statement st;
  };
  std::vector<SetupCommand> setup_commands;
  // StyleDef statements written between pictures (a \tikzset or \tikzstyle after the first
  // picture ended), with the number of pictures before each: as in TeX, they hold from their place
  // on, for the pictures after them, not for those before (TeX groups outside pictures are not
  // followed). preamble_styles holds those before the first picture.
  std::vector<SetupCommand> later_styles;
  std::vector<Directive> directives;
  std::vector<Diagnostic> diagnostics;  // parse/expansion problems, notes on missing packages
  // The read policy of this document (its folder, include dirs, --allow-read): later stages
  // read data files (plot file) through it.
  std::shared_ptr<const ReadGate> read_gate;
  std::size_t unexpanded_user_macros = 0;  // user-defined macros left in statements (should be 0)
  std::vector<std::string> unexpanded_macro_names;  // their names ("\\foo"), each once
  std::size_t max_drawing_work = Limits{}.max_drawing_work;  // for ir::lower (Limits::max_drawing_work)
};

// A class or package (as "name.cls" / "name.sty") that tikzlint models or knows to be
// irrelevant to a picture's geometry (standalone, article, tikz, xcolor, amsmath...): when it is
// not found, no missing-file note is given (tex/known_files.cpp lists them with the reasons).
bool quiet_when_missing(std::string_view file);

// Read and expand `file` (already added to `sm`). Classes and packages it loads are added to `sm`.
ExpandedDocument expand_file(SourceManager& sm, FileId file, const FrontendOptions& opts);

}  // namespace tikzlint::tex
