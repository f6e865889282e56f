#include "catalogd/hms/hms_filter.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "common/hive/names.h"

namespace ics::catalog::hms {

namespace {

enum class Op { kEq, kNe, kLt, kLe, kGt, kGe, kLike };

// One element of a compiled LIKE pattern: a character (or any character),
// optionally repeated zero or more times.
struct PatternItem {
  bool any = false;
  char ch = 0;
  bool star = false;
};

Result<std::vector<PatternItem>> CompilePattern(std::string_view p, size_t base_pos) {
  std::vector<PatternItem> out;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    const std::string where = " at position " + std::to_string(base_pos + i);
    if (c == '*') {
      if (out.empty() || out.back().star) {
        return Status::InvalidArgument("filter: '*' must follow a character or '.' in a LIKE pattern" + where);
      }
      out.back().star = true;
      continue;
    }
    PatternItem item;
    if (c == '\\') {
      if (i + 1 >= p.size()) {
        return Status::InvalidArgument("filter: LIKE pattern ends with a lone '\\'" + where);
      }
      item.ch = p[++i];
    } else if (c == '.') {
      item.any = true;
    } else if (std::string_view("[](){}+?|^$").find(c) != std::string_view::npos) {
      return Status::InvalidArgument(std::string("filter: regular-expression operator '") + c +
                                     "' is not supported in LIKE patterns (supported: '.', '*', "
                                     "'\\')" + where);
    } else {
      item.ch = c;
    }
    out.push_back(item);
  }
  return out;
}

// Dynamic programming over (pattern position, value position): no backtracking.
bool MatchPattern(const std::vector<PatternItem>& pat, std::string_view v) {
  // reach[j]: the first i items can match the first j bytes of v.
  std::vector<char> reach(v.size() + 1, 0), next(v.size() + 1, 0);
  reach[0] = 1;
  for (const PatternItem& item : pat) {
    std::fill(next.begin(), next.end(), 0);
    for (size_t j = 0; j <= v.size(); ++j) {
      if (item.star) {
        // zero repetitions, or one more repetition after a match at j-1
        if (reach[j] || (j > 0 && next[j - 1] && (item.any || v[j - 1] == item.ch))) next[j] = 1;
      } else if (j > 0 && reach[j - 1] && (item.any || v[j - 1] == item.ch)) {
        next[j] = 1;
      }
    }
    reach.swap(next);
  }
  return reach[v.size()] != 0;
}

bool IsIntegerType(const std::string& hive_type) {
  const std::string t = AsciiLower(hive_type);
  return t == "tinyint" || t == "smallint" || t == "int" || t == "integer" || t == "bigint";
}

bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  std::string str(s);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(str.c_str(), &end, 10);
  if (errno != 0 || end != str.c_str() + str.size()) return false;
  // strtoll accepts leading blanks and '+'; partition values must be plain digits.
  if (!(std::isdigit(static_cast<unsigned char>(str[0])) || str[0] == '-')) return false;
  *out = v;
  return true;
}

}  // namespace

struct HmsPartitionFilter::Node {
  enum class Kind { kAnd, kOr, kCompare } kind = Kind::kCompare;
  std::vector<std::unique_ptr<Node>> children;
  size_t key = 0;
  Op op = Op::kEq;
  std::string text;        // the literal's text
  bool numeric = false;    // integer key compared with an integer literal
  int64_t number = 0;
  std::vector<PatternItem> pattern;  // kLike

  bool Eval(const std::vector<std::string>& values) const {
    switch (kind) {
      case Kind::kAnd:
        for (const auto& c : children) {
          if (!c->Eval(values)) return false;
        }
        return true;
      case Kind::kOr:
        for (const auto& c : children) {
          if (c->Eval(values)) return true;
        }
        return false;
      case Kind::kCompare:
        break;
    }
    const std::string& v = values[key];
    if (op == Op::kLike) return MatchPattern(pattern, v);
    int cmp;
    if (numeric) {
      int64_t x;
      if (!ParseInt64(v, &x)) return false;
      cmp = x < number ? -1 : (x > number ? 1 : 0);
    } else {
      int c = v.compare(text);
      cmp = c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    switch (op) {
      case Op::kEq: return cmp == 0;
      case Op::kNe: return cmp != 0;
      case Op::kLt: return cmp < 0;
      case Op::kLe: return cmp <= 0;
      case Op::kGt: return cmp > 0;
      case Op::kGe: return cmp >= 0;
      case Op::kLike: break;
    }
    return false;
  }
};

namespace {

using Node = HmsPartitionFilter::Node;

enum class Tok { kEnd, kIdent, kString, kInt, kLParen, kRParen, kOp, kAnd, kOr, kLike };

struct Token {
  Tok type = Tok::kEnd;
  std::string text;  // identifier (as written), string contents, integer digits, operator
  size_t pos = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::vector<hive::FieldSchema>& keys)
      : text_(text), keys_(keys) {}

  Result<std::unique_ptr<Node>> Run() {
    ICS_RETURN_IF_ERROR(Advance());
    if (tok_.type == Tok::kEnd) return std::unique_ptr<Node>();
    ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> root, ParseOr(0));
    if (tok_.type != Tok::kEnd) return Error("expected AND, OR or the end of the filter");
    return root;
  }

 private:
  Status Error(const std::string& what) const {
    std::string found = tok_.type == Tok::kEnd ? "the end" : "'" + tok_.text + "'";
    if (tok_.type == Tok::kString) found = "\"" + tok_.text + "\"";
    return Status::InvalidArgument("filter: " + what + " at position " + std::to_string(tok_.pos) +
                                   ", found " + found);
  }

  Status Advance() {
    size_t i = pos_;
    while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
    tok_ = Token();
    tok_.pos = i;
    if (i >= text_.size()) {
      pos_ = i;
      return Status::OK();
    }
    const char c = text_[i];
    if (c == '(' || c == ')') {
      tok_.type = c == '(' ? Tok::kLParen : Tok::kRParen;
      tok_.text = std::string(1, c);
      pos_ = i + 1;
      return Status::OK();
    }
    if (c == '"' || c == '\'') {
      std::string s;
      size_t j = i + 1;
      for (; j < text_.size() && text_[j] != c; ++j) {
        if (text_[j] == '\\' && j + 1 < text_.size()) ++j;
        s.push_back(text_[j]);
      }
      if (j >= text_.size()) {
        return Status::InvalidArgument("filter: unterminated string starting at position " +
                                       std::to_string(i));
      }
      tok_.type = Tok::kString;
      tok_.text = std::move(s);
      pos_ = j + 1;
      return Status::OK();
    }
    if (c == '=' || c == '!' || c == '<' || c == '>') {
      std::string op(1, c);
      if (i + 1 < text_.size()) {
        const char d = text_[i + 1];
        if ((c == '!' && d == '=') || (c == '<' && (d == '=' || d == '>')) ||
            (c == '>' && d == '=')) {
          op.push_back(d);
        }
      }
      if (op == "!") {
        return Status::InvalidArgument("filter: expected '!=' at position " + std::to_string(i));
      }
      tok_.type = Tok::kOp;
      tok_.text = op;
      pos_ = i + op.size();
      return Status::OK();
    }
    const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
    if (digit || (c == '-' && i + 1 < text_.size() &&
                  std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
      size_t j = i + 1;
      while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
      // A word that starts with digits ("2020abc") is an identifier.
      if (j >= text_.size() || !(std::isalpha(static_cast<unsigned char>(text_[j])) || text_[j] == '_')) {
        tok_.type = Tok::kInt;
        tok_.text = std::string(text_.substr(i, j - i));
        pos_ = j;
        return Status::OK();
      }
      if (c == '-') {
        return Status::InvalidArgument("filter: malformed number at position " + std::to_string(i));
      }
    }
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_')) {
        ++j;
      }
      tok_.text = std::string(text_.substr(i, j - i));
      const std::string lower = AsciiLower(tok_.text);
      tok_.type = lower == "and" ? Tok::kAnd
                  : lower == "or" ? Tok::kOr
                  : lower == "like" ? Tok::kLike
                                    : Tok::kIdent;
      pos_ = j;
      return Status::OK();
    }
    return Status::InvalidArgument(std::string("filter: unexpected character '") + c +
                                   "' at position " + std::to_string(i));
  }

  Result<std::unique_ptr<Node>> ParseOr(int depth) {
    if (depth > kMaxHmsFilterDepth) {
      return Status::InvalidArgument("filter: nested deeper than " +
                                     std::to_string(kMaxHmsFilterDepth) + " levels at position " +
                                     std::to_string(tok_.pos));
    }
    ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> first, ParseAnd(depth));
    if (tok_.type != Tok::kOr) return first;
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kOr;
    node->children.push_back(std::move(first));
    while (tok_.type == Tok::kOr) {
      ICS_RETURN_IF_ERROR(Advance());
      ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> next, ParseAnd(depth));
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<Node>> ParseAnd(int depth) {
    ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> first, ParseAtom(depth));
    if (tok_.type != Tok::kAnd) return first;
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kAnd;
    node->children.push_back(std::move(first));
    while (tok_.type == Tok::kAnd) {
      ICS_RETURN_IF_ERROR(Advance());
      ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> next, ParseAtom(depth));
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<Node>> ParseAtom(int depth) {
    if (tok_.type == Tok::kLParen) {
      ICS_RETURN_IF_ERROR(Advance());
      ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> inner, ParseOr(depth + 1));
      if (tok_.type != Tok::kRParen) return Error("expected ')'");
      ICS_RETURN_IF_ERROR(Advance());
      return inner;
    }
    const bool key_first = tok_.type == Tok::kIdent;
    if (!key_first && tok_.type != Tok::kString && tok_.type != Tok::kInt) {
      return Error("expected a partition key, a literal or '('");
    }
    Token lhs = tok_;
    ICS_RETURN_IF_ERROR(Advance());
    if (tok_.type != Tok::kOp && tok_.type != Tok::kLike) {
      return Error("expected a comparison operator (=, !=, <>, <, <=, >, >=, LIKE)");
    }
    Token op_tok = tok_;
    ICS_RETURN_IF_ERROR(Advance());
    Token rhs = tok_;
    const Token& key_tok = key_first ? lhs : rhs;
    const Token& lit_tok = key_first ? rhs : lhs;
    if (key_first) {
      if (rhs.type != Tok::kString && rhs.type != Tok::kInt) {
        return Error("expected a string or integer literal");
      }
    } else if (rhs.type != Tok::kIdent) {
      return Error("expected a partition key");
    }
    ICS_RETURN_IF_ERROR(Advance());

    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::kCompare;
    ICS_ASSIGN_OR_RETURN(node->key, ResolveKey(key_tok));
    node->text = lit_tok.text;
    if (op_tok.type == Tok::kLike) {
      if (!key_first) {
        return Status::InvalidArgument("filter: LIKE needs the partition key on its left at position " +
                                       std::to_string(op_tok.pos));
      }
      if (lit_tok.type != Tok::kString) {
        return Status::InvalidArgument("filter: LIKE needs a string pattern at position " +
                                       std::to_string(lit_tok.pos));
      }
      node->op = Op::kLike;
      // +1: the pattern starts after its opening quote.
      ICS_ASSIGN_OR_RETURN(node->pattern, CompilePattern(lit_tok.text, lit_tok.pos + 1));
      return node;
    }
    ICS_ASSIGN_OR_RETURN(Op op, ParseOp(op_tok));
    node->op = key_first ? op : Flip(op);
    if (lit_tok.type == Tok::kInt && IsIntegerType(keys_[node->key].type)) {
      if (!ParseInt64(lit_tok.text, &node->number)) {
        return Status::InvalidArgument("filter: integer " + lit_tok.text +
                                       " out of range at position " + std::to_string(lit_tok.pos));
      }
      node->numeric = true;
    }
    return node;
  }

  Result<size_t> ResolveKey(const Token& t) const {
    const std::string name = AsciiLower(t.text);
    std::string all;
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (AsciiLower(keys_[i].name) == name) return i;
      all += (i ? ", " : "") + keys_[i].name;
    }
    return Status::InvalidArgument("filter: unknown partition key '" + t.text + "' at position " +
                                   std::to_string(t.pos) + " (keys: " + all + ")");
  }

  static Result<Op> ParseOp(const Token& t) {
    if (t.text == "=") return Op::kEq;
    if (t.text == "!=" || t.text == "<>") return Op::kNe;
    if (t.text == "<") return Op::kLt;
    if (t.text == "<=") return Op::kLe;
    if (t.text == ">") return Op::kGt;
    if (t.text == ">=") return Op::kGe;
    return Status::InvalidArgument("filter: unknown operator '" + t.text + "' at position " +
                                   std::to_string(t.pos));
  }

  static Op Flip(Op op) {
    switch (op) {
      case Op::kLt: return Op::kGt;
      case Op::kLe: return Op::kGe;
      case Op::kGt: return Op::kLt;
      case Op::kGe: return Op::kLe;
      default: return op;
    }
  }

  std::string_view text_;
  const std::vector<hive::FieldSchema>& keys_;
  size_t pos_ = 0;
  Token tok_;
};

}  // namespace

HmsPartitionFilter::HmsPartitionFilter() = default;
HmsPartitionFilter::HmsPartitionFilter(HmsPartitionFilter&&) noexcept = default;
HmsPartitionFilter& HmsPartitionFilter::operator=(HmsPartitionFilter&&) noexcept = default;
HmsPartitionFilter::~HmsPartitionFilter() = default;

Result<HmsPartitionFilter> HmsPartitionFilter::Parse(std::string_view text,
                                                     const std::vector<hive::FieldSchema>& keys) {
  if (text.size() > kMaxHmsFilterBytes) {
    return Status::InvalidArgument("filter: longer than " + std::to_string(kMaxHmsFilterBytes) +
                                   " bytes");
  }
  HmsPartitionFilter f;
  f.num_keys_ = keys.size();
  Parser parser(text, keys);
  ICS_ASSIGN_OR_RETURN(f.root_, parser.Run());
  if (f.root_ != nullptr && keys.empty()) {
    return Status::InvalidArgument("filter: the table has no partition keys");
  }
  return f;
}

bool HmsPartitionFilter::Matches(const std::vector<std::string>& values) const {
  if (values.size() != num_keys_) return false;
  return root_ == nullptr || root_->Eval(values);
}

Result<bool> HmsLikeMatches(std::string_view pattern, std::string_view value) {
  ICS_ASSIGN_OR_RETURN(std::vector<PatternItem> pat, CompilePattern(pattern, 0));
  return MatchPattern(pat, value);
}

}  // namespace ics::catalog::hms
