// tex/expander.hpp: the macro expander (TeXbook chapters 20 and 24, LaTeX's \newcommand,
// pgffor's \foreach). Works on tokens; definitions live in scoped environments.
// Internal to the tex/ stage.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tex/reader.hpp"
#include "tex/tex.hpp"

namespace tikzlint::tex {

struct BundledFile;  // tex/bundled.hpp

// The meaning of a control sequence defined by the document, a class or a package.
// Token-list helpers shared by the expander and \foreach.
TokenList trim_tokens(TokenList t);   // without leading and trailing spaces and \par
TokenList strip_braces(TokenList t);  // `{...}` as a whole loses one pair of braces

struct Meaning {
  enum class Kind { macro, dimen, count, alias };
  Kind kind = Kind::macro;
  // macro: parameter text and body; a parameter reference is a Cat::param token with
  // marker_id = n (1..9); a literal `#` (from `##`) is a Cat::param token with marker_id 0.
  TokenList params;
  TokenList body;
  int arity = 0;
  std::optional<TokenList> optional_default;  // \newcommand's [default] first argument
  double dimen_pt = 0;  // dimen register value
  long count = 0;       // count register value
  Token alias;          // \let target when it is not a macro
};
using MeaningPtr = std::shared_ptr<const Meaning>;

// Definitions scoped by groups, with TeX's save stack: a local assignment saves the old
// meaning once per group; \global assignments overwrite the saved ones.
// The outermost level may be a shared, immutable base table (a cached class's definitions),
// under this document's own: restoring a class then copies a pointer, not every definition.
class Environment {
 public:
  const Meaning* find(const std::string& name) const;
  void set(const std::string& name, MeaningPtr m, bool global);
  void push();
  void pop();
  std::size_t depth() const { return saves_.size(); }
  // Every definition in force (base and own), e.g. for a class snapshot.
  std::unordered_map<std::string, MeaningPtr> table() const;
  // Start over from `t` as the base (nothing of this document's own).
  void replace_table(std::shared_ptr<const std::unordered_map<std::string, MeaningPtr>> t);

 private:
  const MeaningPtr* lookup(const std::string& name) const;
  std::shared_ptr<const std::unordered_map<std::string, MeaningPtr>> base_;
  std::unordered_map<std::string, MeaningPtr> table_;
  std::vector<std::vector<std::pair<std::string, MeaningPtr>>> saves_;
};

// A set of names over a shared, immutable base (a cached class's), like Environment's table.
class LayeredNames {
 public:
  using Set = std::unordered_set<std::string>;
  bool contains(const std::string& name) const { return own_.count(name) || (base_ && base_->count(name)); }
  bool insert(const std::string& name) { return !contains(name) && own_.insert(name).second; }
  bool empty() const { return own_.empty() && (!base_ || base_->empty()); }
  std::shared_ptr<const Set> all() const {  // base and own together
    auto out = std::make_shared<Set>(base_ ? *base_ : Set{});
    out->insert(own_.begin(), own_.end());
    return out;
  }
  void replace(std::shared_ptr<const Set> base) {
    base_ = std::move(base);
    own_.clear();
  }

 private:
  std::shared_ptr<const Set> base_;
  Set own_;
};

// One macro call in a chain of calls (tokens point at their innermost call).
struct MacroFrameNode {
  std::string macro;
  SourceRange call_site;
  std::uint32_t parent = 0;
  std::size_t depth = 0;
};
// The macro call frames of a document: those of a cached class, shared by every document that
// restores it (never copied), then the document's own. Frame 0 is "no call".
class FrameTable {
 public:
  using Frames = std::vector<MacroFrameNode>;
  FrameTable() : own_(1) {}
  const MacroFrameNode& operator[](std::uint32_t i) const {
    return i < base_size_ ? (*base_)[i] : own_[i - base_size_];
  }
  std::uint32_t size() const { return static_cast<std::uint32_t>(base_size_ + own_.size()); }
  // Adds a frame; returns its index.
  std::uint32_t push_back(MacroFrameNode n) {
    own_.push_back(std::move(n));
    return size() - 1;
  }
  // All the frames as one shared list (for a class snapshot).
  std::shared_ptr<const Frames> all() const {
    if (own_.empty() && base_) return base_;
    auto out = std::make_shared<Frames>();
    out->reserve(size());
    if (base_) out->insert(out->end(), base_->begin(), base_->end());
    out->insert(out->end(), own_.begin(), own_.end());
    return out;
  }
  // Start from `frames` (a snapshot's), shared.
  void replace(std::shared_ptr<const Frames> frames) {
    base_ = std::move(frames);
    base_size_ = base_->size();
    own_.clear();
  }

 private:
  std::shared_ptr<const Frames> base_;
  std::size_t base_size_ = 0;
  Frames own_;
};

// The bindings of one \foreach iteration (tokens of its body point at it).
struct LoopNode {
  std::vector<LoopBinding> bindings;
  std::uint32_t parent = 0;
};

// The expander state right after a \\documentclass was read (see ExpansionCache in tex.hpp).
struct ClassSnapshot {
  struct File {
    FileId id;
    SourceFile file;  // shares text and line table with every diagram that restores it
  };
  FileId input = 0;
  std::vector<File> files;
  std::shared_ptr<const std::unordered_map<std::string, MeaningPtr>> table;
  std::shared_ptr<const LayeredNames::Set> user_macros, loaded_files, missing_notes;
  std::unordered_map<std::string, TokenList> key_code;
  std::string document_class;
  std::vector<std::string> class_options;
  double base_font_size_pt = 10;
  std::vector<std::string> tikz_libraries;
  std::vector<ExpandedDocument::LoadedPackage> packages;
  std::vector<Statement> preamble_styles;
  std::shared_ptr<const StyleTable> preamble_table;  // after running preamble_styles
  std::vector<Diagnostic> diagnostics;
  std::shared_ptr<const FrameTable::Frames> frames;
  std::vector<LoopNode> loop_nodes;
  std::size_t steps = 0;
};

class Expander {
 public:
  Expander(SourceManager& sm, FileId input, const FrontendOptions& opts, ExpandedDocument& doc);
  ~Expander();

  // Start reading a file (the input, or a class/package loaded by it).
  void push_file(FileId id, bool at_letter);

  // The next unexpandable token, after expanding macros and executing assignments;
  // false at the end of input or after a fatal budget error. The token is read into `out`
  // itself, so after false `out` holds whatever was read last (a macro it expanded, say), not
  // the token it held before.
  bool next(Token& out);
  // Where the next token would be read straight from a file: the next plain token there
  // (Reader::next_plain), with the state next() keeps for each token it returns. False, reading
  // nothing, when the input is a token list or the next token is not plain. Plain tokens are not
  // expandable, so reading one here is reading it with next(); only for callers that serialise
  // what they read (a run stands for several character tokens).
  bool next_plain(Token& out);
  // The next token without expansion.
  bool next_raw(Token& out);
  void push_back(Token t);
  void push_back(TokenList tokens);

  bool stopped() const { return stopped_; }
  std::shared_ptr<ExpansionCache> cache;
  bool at_end();

  // Groups: {...}, \begingroup, environments, \foreach iterations.
  bool begin_group(const Token& at);
  void end_group();
  std::size_t group_depth() const { return env_.depth(); }
  // \foreach loops being unrolled (the tokens read now belong to an iteration when it grew).
  std::size_t loop_depth() const { return loops_.size(); }
  // The font commands in force in the document body (\Huge, \sffamily...: the front end's
  // PictureReader sets them as it reads the body), local to the TeX group they are given in.
  std::string body_font() const;
  void set_body_font(const std::string& commands);
  // The picture's layers in painting order (pgfcorelayers.code.tex: \pgfsetlayers, "main" by
  // default; the backgrounds library sets "background,main" when it is loaded), comma separated,
  // local to the TeX group it is set in, as \pgfsetlayers' \let is.
  std::string layers() const;
  void set_layers(const std::string& list);
  // a text kept per TeX group under `name` (body_font, layers): its value or `fallback`
  std::string group_text(const std::string& name, const std::string& fallback) const;
  void set_group_text(const std::string& name, const std::string& text);

  // Argument readers on raw tokens; false (with an `unterminated` error) at end of input.
  bool read_group_raw(TokenList& out, const Token& owner);         // {...} or one token
  bool read_optional_raw(TokenList& out, const Token& owner, bool& present);  // [...]
  TokenList expand_fully(TokenList tokens);                        // \edef semantics
  TokenList expand_style(TokenList tokens);                        // user macros only, keep #

  // Diagnostics.
  void diagnose(const char* code, Severity sev, std::string message, const Token& at,
                nlohmann::json evidence = nlohmann::json::object());
  void fatal(const char* code, std::string message, const Token& at,
             nlohmann::json evidence = nlohmann::json::object());
  SourceRange range_of(const Token& t) const;

  Provenance provenance(const Token& first, const Token& last) const;
  bool is_user_macro(const std::string& name) const { return user_macros_.contains(name); }

  // Called with each \tikzset / \tikzstyle, normalised to a tikzset body.
  std::function<void(Statement)> on_style;

  const Limits& limits() const { return limits_; }

  // Whether the tokens read now are a picture's statements (the front end's PictureReader says so).
  bool in_picture() const { return in_picture_; }
  void set_in_picture(bool in) { in_picture_ = in; }

 private:
  struct Input;
  struct Loop {
    std::vector<std::string> vars;
    std::vector<std::vector<TokenList>> items;  // per iteration, one value per variable
    TokenList body;
    std::size_t body_statements = 0;  // ';' at the body's own level: the work of one iteration
    Token site;
    std::size_t index = 0;
    std::size_t base_depth = 0;
    std::uint32_t marker = 0;
    std::string count_var;
    long count_from = 1;
    struct Evaluate {
      std::string var, as;
      TokenList expr;
    };
    std::vector<Evaluate> evaluates;
    std::string remember_var, remember_as;
    TokenList remembered;
    bool has_remember = false;
  };
  using FrameNode = MacroFrameNode;
  using Primitive = void (Expander::*)(const Token&);

  // expander.cpp
  bool expand_macro(const Token& t, const Meaning& m);
  bool match_arguments(const Token& t, const Meaning& m, std::vector<TokenList>& args);
  TokenList instantiate(const Token& call, const Meaning& m, const std::vector<TokenList>& args,
                        bool new_frame);
  bool handle_register(const Token& t, const Meaning& m);
  bool read_balanced(TokenList& out, const Token& owner);  // after the opening brace
  static bool m_value_needs_star(const Token& prev) {  // asked for every token: inline
    return prev.cat != Cat::control && prev.cat != Cat::marker && prev.text.size() == 1 &&
           ((prev.text[0] >= '0' && prev.text[0] <= '9') || prev.text[0] == '.');
  }
  bool loop_marker(std::uint32_t id) const;
  void output_value(const Token& at, std::string value);
  void define(const std::string& name, MeaningPtr m, bool global);
  bool read_cs_name(const Token& owner, std::string& name, Token& name_token);
  bool parse_parameter_text(const Token& owner, TokenList& params, int& arity);
  static TokenList parse_body(const TokenList& raw, int arity);
  void skip_spaces();
  bool peek_char(char c);
  TokenList string_tokens(const std::string& s, const Token& at) const;
  std::optional<double> scan_dimen(const Token& owner);
  std::optional<long> scan_int(const Token& owner);
  // `result_text`: where given, \pgfmathresult's text for the value (pgfmath::result_text).
  std::optional<double> evaluate(const TokenList& expr, const Token& at, bool& is_length,
                                 std::string* result_text = nullptr);
  void skip_conditional(bool to_else);
  // How load_file treats the file it finds: read it (once: not again if read before), or only
  // tell whether it exists (\IfFileExists); `quiet` gives no missing-file note (\InputIfFileExists
  // has its own branch for that).
  enum class Load { always, once, probe };
  bool load_file(const Token& at, const std::string& name, const char* ext, bool once);
  bool load_file(const Token& at, const std::string& name, const char* ext, Load mode, bool quiet);
  bool load_bundled(const Token& at, const BundledFile& b, Load mode);
  bool files_nested_too_deep(const Token& at);
  void refuse_read(const Token& at, const std::string& name, ReadRefusal why);
  void p_if_file_exists(const Token& t);
  void record_class_options(const TokenList& opts);
  void emit_style(const Token& at, TokenList body);
  void take_snapshot();
  void skip_date_option();
  bool restore_snapshot(const ClassSnapshot& s, const Token& at);
  void run_key_code(const TokenList& code, const TokenList& value, const Token& at);

  void p_def(const Token&);
  void p_gdef(const Token&);
  void p_edef(const Token&);
  void p_xdef(const Token&);
  void p_long(const Token&);
  void p_global(const Token&);
  void p_let(const Token&);
  void p_newcommand(const Token&);
  void p_renewcommand(const Token&);
  void p_providecommand(const Token&);
  void p_newdocumentcommand(const Token&);
  void p_newdimen(const Token&);
  void p_newcount(const Token&);
  void p_setlength(const Token&);
  void p_addtolength(const Token&);
  void p_the(const Token&);
  void p_relax(const Token&);
  void p_makeatletter(const Token&);
  void p_makeatother(const Token&);
  void p_begingroup(const Token&);
  void p_endgroup(const Token&);
  void p_csname(const Token&);
  void p_expandafter(const Token&);
  void p_noexpand(const Token&);
  void p_pgfmathsetmacro(const Token&);
  void p_pgfmathtruncatemacro(const Token&);
  void p_pgfmathsetlengthmacro(const Token&);
  void p_pgfmathparse(const Token&);
  void p_pgfmathfunction(const Token&);
  void p_tikzmath(const Token&);
  void p_tkzget(const Token&);
  void p_ifthenelse(const Token&);
  void undecided_comparison(const Token&);
  void p_ifnum(const Token&);
  void p_ifdim(const Token&);
  void p_ifx(const Token&);
  void p_iftrue(const Token&);
  void p_iffalse(const Token&);
  void p_else(const Token&);
  void p_fi(const Token&);
  void p_documentclass(const Token&);
  void p_loadclass(const Token&);
  void p_usepackage(const Token&);
  void p_input(const Token&);
  void p_endinput(const Token&);
  void p_skip_args(const Token&);
  void p_tikzset(const Token&);
  void p_tikzdatavisualizationset(const Token&);
  void p_tikzcdset(const Token&);
  void tikzcd_styles(const Token& at);
  void tkzeuclide_styles(const Token& at);
  void circuitikz_styles(const Token& at, std::string_view package_options);
  void emit_package_styles(const std::string& defs, const Token& at);
  void p_pgfplotsset(const Token&);
  void tikzset_rewritten(const Token& t, const std::function<TokenList(TokenList item)>& rewrite);
  Token group_token(const Token& at, bool open) const;
  TokenList item_value(const std::vector<TokenList>& kv, const Token& at) const;
  void p_tikzstyle(const Token&);
  void p_foreach(const Token&);  // foreach.cpp

  void pgfmath_define(const Token& t, int mode);
  void define_command(const Token& t, int mode);  // 0 new, 1 renew, 2 provide
  void def_common(const Token& t, bool global, bool expand);
  bool cond_eval_ifthenelse(const TokenList& cond, const Token& at);

  // foreach.cpp
  void start_iteration(std::size_t loop_index);
  void finish_iteration(std::uint32_t marker);
  friend struct ForeachParser;

  SourceManager& sm_;
  FileId input_;
  std::vector<std::string> include_dirs_;
  std::vector<std::string> allow_read_;
  std::shared_ptr<const ReadGate> gate_;  // also doc_.read_gate
  std::optional<Token> pending_out_;  // a primitive's output token (\noexpand, \the)
  Limits limits_;
  ExpandedDocument& doc_;
  Environment env_;
  friend struct ClassSnapshot;
  std::vector<std::unique_ptr<Input>> inputs_;
  std::vector<std::unique_ptr<Loop>> loops_;
  FrameTable frames_;
  std::vector<LoopNode> loop_nodes_{LoopNode{}};
  static const std::unordered_map<std::string, Primitive>& primitive_table();
  static const std::unordered_map<std::string, std::pair<int, int>>& skipped_table();
  const std::unordered_map<std::string, Primitive>& primitives_ = primitive_table();
  const std::unordered_map<std::string, std::pair<int, int>>& skipped_ = skipped_table();  // name -> (optional, mandatory)
  LayeredNames user_macros_;
  LayeredNames loaded_files_;
  LayeredNames missing_notes_;
  std::unordered_map<std::string, TokenList> key_code_;  // "/tikz/key/.code" bodies
  std::vector<int> conditionals_;  // open \if...: 1 in the true branch, 0 skipping done
  std::string snapshot_key_;        // class being read, to snapshot when its file ends
  std::size_t snapshot_depth_ = 0;  // input stack size while the class file is read
  std::size_t first_file_ = 0;      // first SourceManager id added by this expansion
  std::size_t snapshot_diags_ = 0, snapshot_styles_ = 0, snapshot_steps_ = 0;
  bool at_letter_ = false;
  bool stopped_ = false;
  // the control sequence without a meaning that ended the last scan_int/scan_dimen (empty: none)
  std::string scan_undefined_;
  bool tikzcd_styles_done_ = false;  // tikz-cd's styles emitted (tikzcd_styles)
  std::unordered_set<std::string> tikzmath_integers_;  // variables \tikzmath declared integer
  bool circuitikz_styles_done_ = false;  // circuitikz's `ground` style emitted (circuitikz_styles)
  bool tkzeuclide_styles_done_ = false;  // tkz-euclide's styles emitted (tkzeuclide_styles)
  bool in_picture_ = false;               // set_in_picture
  bool prefix_global_ = false;
  bool class_seen_ = false;
  std::size_t steps_ = 0;
  std::size_t live_tokens_ = 0;
  std::size_t loop_work_ = 0;  // statements run by \foreach bodies so far (max_loop_work)
  std::uint32_t next_marker_ = 1;
  int collecting_ = 0;  // inside expand_fully: braces do not open groups
  bool last_out_digit_ = false;  // m_value_needs_star of the last token returned by next()
};

// TeX's \the of a dimension (print_scaled, TeXbook §103): "117.43874pt".
std::string format_dimen(double pt);

// circuitikz's logic ports (pgfcirctripoles.tex): the family (american, european, ieee) its
// package options choose, and the styles that point the generic port names (`and port`...) at the
// shapes of a family, as \ctikzset{logic ports=<family>} defines them.
std::string circuitikz_ports_family(std::string_view package_options);
std::string circuitikz_port_styles(std::string_view family);

}  // namespace tikzlint::tex
