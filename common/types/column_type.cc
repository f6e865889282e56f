#include "common/types/column_type.h"
#include "common/util/ascii.h"

#include <cctype>
#include <set>
#include <utility>
#include <vector>

namespace ics {

namespace {

using impala::TColumnType;
using impala::TPrimitiveType;
using impala::TScalarType;
using impala::TStructField;
using impala::TTypeNode;
using impala::TTypeNodeType;

constexpr size_t kMaxEchoChars = 200;

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

TTypeNode ScalarNode(TPrimitiveType::type t, int len, int precision, int scale) {
  TScalarType st;
  st.type = t;
  if (t == TPrimitiveType::CHAR || t == TPrimitiveType::VARCHAR) st.__set_len(len);
  if (t == TPrimitiveType::DECIMAL) {
    st.__set_precision(precision);
    st.__set_scale(scale);
  }
  TTypeNode node;
  node.type = TTypeNodeType::SCALAR;
  node.__set_scalar_type(st);
  return node;
}

// Simple (parameterless) scalar names and aliases.
bool SimpleScalar(const std::string& word, TPrimitiveType::type* out) {
  static const std::pair<const char*, TPrimitiveType::type> kNames[] = {
      {"boolean", TPrimitiveType::BOOLEAN},     {"tinyint", TPrimitiveType::TINYINT},
      {"smallint", TPrimitiveType::SMALLINT},   {"int", TPrimitiveType::INT},
      {"integer", TPrimitiveType::INT},         {"bigint", TPrimitiveType::BIGINT},
      {"float", TPrimitiveType::FLOAT},         {"real", TPrimitiveType::FLOAT},
      {"double", TPrimitiveType::DOUBLE},       {"date", TPrimitiveType::DATE},
      {"timestamp", TPrimitiveType::TIMESTAMP}, {"string", TPrimitiveType::STRING},
      {"binary", TPrimitiveType::BINARY},
  };
  for (const auto& [name, type] : kNames) {
    if (word == name) {
      *out = type;
      return true;
    }
  }
  return false;
}

// Recursive-descent parser over the type grammar in column_type.h.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<TColumnType> Run() {
    TColumnType result;
    ICS_RETURN_IF_ERROR(ParseType(0));
    SkipSpace();
    if (pos_ != text_.size()) return Fail(pos_, "unexpected trailing text");
    result.types = std::move(nodes_);
    return result;
  }

 private:
  Status Fail(size_t pos, std::string_view msg) const {
    std::string echo(text_.substr(0, kMaxEchoChars));
    if (text_.size() > kMaxEchoChars) echo += "...";
    return Status::InvalidArgument("invalid type '" + echo + "': " + std::string(msg) +
                                   " at position " + std::to_string(pos));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // Reads [A-Za-z0-9_]* after whitespace; returns it lower-cased.
  std::string ReadWord() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
    return AsciiLower(text_.substr(start, pos_ - start));
  }

  // Consumes `c` (after whitespace) if present.
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Status Expect(char c) {
    if (Accept(c)) return Status::OK();
    if (pos_ >= text_.size()) {
      return Fail(pos_, std::string("expected '") + c + "' but the type ended");
    }
    return Fail(pos_, std::string("expected '") + c + "'");
  }

  // A non-negative decimal integer of at most 9 digits.
  Result<int> ReadInt(std::string_view what) {
    SkipSpace();
    const size_t start = pos_;
    int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (pos_ - start >= 9) return Fail(start, std::string(what) + " is too large");
      v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) return Fail(start, "expected " + std::string(what));
    return static_cast<int>(v);
  }

  Status ParseType(int depth) {
    SkipSpace();
    const size_t start = pos_;
    if (depth > kMaxTypeNestingDepth) {
      return Fail(start, "type nesting deeper than " + std::to_string(kMaxTypeNestingDepth));
    }
    const std::string word = ReadWord();
    if (word.empty()) {
      return Fail(start, pos_ >= text_.size() ? "expected a type name but the type ended"
                                              : "expected a type name");
    }
    TPrimitiveType::type simple;
    if (SimpleScalar(word, &simple)) {
      if (word == "double") {
        // Optional "precision" of "double precision".
        const size_t save = pos_;
        if (ReadWord() != "precision") pos_ = save;
      }
      nodes_.push_back(ScalarNode(simple, 0, 0, 0));
      return Status::OK();
    }
    if (word == "decimal" || word == "dec" || word == "numeric") return ParseDecimal();
    if (word == "char" || word == "varchar") return ParseCharLike(word == "char");
    if (word == "array") {
      TTypeNode node;
      node.type = TTypeNodeType::ARRAY;
      nodes_.push_back(std::move(node));
      ICS_RETURN_IF_ERROR(Expect('<'));
      ICS_RETURN_IF_ERROR(ParseType(depth + 1));
      return Expect('>');
    }
    if (word == "map") {
      TTypeNode node;
      node.type = TTypeNodeType::MAP;
      nodes_.push_back(std::move(node));
      ICS_RETURN_IF_ERROR(Expect('<'));
      SkipSpace();
      const size_t key_pos = pos_;
      const size_t key_index = nodes_.size();
      ICS_RETURN_IF_ERROR(ParseType(depth + 1));
      if (nodes_[key_index].type != TTypeNodeType::SCALAR) {
        return Fail(key_pos, "map key must be a scalar type");
      }
      ICS_RETURN_IF_ERROR(Expect(','));
      ICS_RETURN_IF_ERROR(ParseType(depth + 1));
      return Expect('>');
    }
    if (word == "struct") return ParseStruct(depth);
    return Fail(start, "unknown type '" + word + "'");
  }

  Status ParseDecimal() {
    int precision = kDefaultDecimalPrecision;
    int scale = 0;
    if (Accept('(')) {
      SkipSpace();
      const size_t p_pos = pos_;
      ICS_ASSIGN_OR_RETURN(precision, ReadInt("decimal precision"));
      if (precision < 1 || precision > kMaxDecimalPrecision) {
        return Fail(p_pos, "decimal precision " + std::to_string(precision) +
                               " out of range 1.." + std::to_string(kMaxDecimalPrecision));
      }
      if (Accept(',')) {
        SkipSpace();
        const size_t s_pos = pos_;
        ICS_ASSIGN_OR_RETURN(scale, ReadInt("decimal scale"));
        if (scale > precision) {
          return Fail(s_pos, "decimal scale " + std::to_string(scale) +
                                 " greater than precision " + std::to_string(precision));
        }
      }
      ICS_RETURN_IF_ERROR(Expect(')'));
    }
    nodes_.push_back(ScalarNode(TPrimitiveType::DECIMAL, 0, precision, scale));
    return Status::OK();
  }

  Status ParseCharLike(bool is_char) {
    const char* name = is_char ? "char" : "varchar";
    const int max_len = is_char ? kMaxCharLength : kMaxVarcharLength;
    SkipSpace();
    if (!Accept('(')) return Fail(pos_, std::string(name) + " requires a length, e.g. " + name + "(10)");
    SkipSpace();
    const size_t len_pos = pos_;
    ICS_ASSIGN_OR_RETURN(int len, ReadInt(std::string(name) + " length"));
    if (len < 1 || len > max_len) {
      return Fail(len_pos, std::string(name) + " length " + std::to_string(len) +
                               " out of range 1.." + std::to_string(max_len));
    }
    ICS_RETURN_IF_ERROR(Expect(')'));
    nodes_.push_back(ScalarNode(is_char ? TPrimitiveType::CHAR : TPrimitiveType::VARCHAR, len, 0, 0));
    return Status::OK();
  }

  // A field name: identifier or `back-quoted` (`` escapes a back-quote).
  Result<std::string> ReadFieldName() {
    SkipSpace();
    const size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '`') {
      std::string name;
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) return Fail(start, "unterminated `quoted` field name");
        if (text_[pos_] == '`') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '`') {
            name += '`';
            pos_ += 2;
            continue;
          }
          ++pos_;
          break;
        }
        name += text_[pos_++];
      }
      if (name.empty()) return Fail(start, "empty struct field name");
      return AsciiLower(name);
    }
    std::string name = ReadWord();
    if (name.empty()) return Fail(start, "expected a struct field name");
    return name;
  }

  // A 'single' or "double" quoted string with backslash escapes.
  Result<std::string> ReadQuoted() {
    SkipSpace();
    const size_t start = pos_;
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Fail(start, "expected a quoted comment");
    }
    const char quote = text_[pos_++];
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) return Fail(start, "unterminated comment string");
      const char c = text_[pos_++];
      if (c == quote) break;
      if (c == '\\' && pos_ < text_.size()) {
        out += text_[pos_++];
        continue;
      }
      out += c;
    }
    return out;
  }

  Status ParseStruct(int depth) {
    const size_t struct_index = nodes_.size();
    TTypeNode node;
    node.type = TTypeNodeType::STRUCT;
    nodes_.push_back(std::move(node));
    ICS_RETURN_IF_ERROR(Expect('<'));
    std::vector<TStructField> fields;
    std::set<std::string> seen;
    do {
      SkipSpace();
      const size_t name_pos = pos_;
      TStructField field;
      ICS_ASSIGN_OR_RETURN(field.name, ReadFieldName());
      if (!seen.insert(field.name).second) {
        return Fail(name_pos, "duplicate struct field name '" + field.name + "'");
      }
      ICS_RETURN_IF_ERROR(Expect(':'));
      ICS_RETURN_IF_ERROR(ParseType(depth + 1));
      const size_t save = pos_;
      if (ReadWord() == "comment") {
        ICS_ASSIGN_OR_RETURN(std::string comment, ReadQuoted());
        field.__set_comment(std::move(comment));
      } else {
        pos_ = save;
      }
      fields.push_back(std::move(field));
    } while (Accept(','));
    ICS_RETURN_IF_ERROR(Expect('>'));
    nodes_[struct_index].__set_struct_fields(std::move(fields));
    return Status::OK();
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<TTypeNode> nodes_;
};

// Prints (or, with out == nullptr, only checks) the subtree at *idx.
Status PrintNode(const TColumnType& type, size_t* idx, int depth, std::string* out) {
  const auto& nodes = type.types;
  if (*idx >= nodes.size()) return Status::InvalidArgument("type tree ends early");
  if (depth > kMaxTypeNestingDepth) return Status::InvalidArgument("type nesting too deep");
  const TTypeNode& node = nodes[(*idx)++];
  switch (node.type) {
    case TTypeNodeType::SCALAR: {
      if (!node.__isset.scalar_type) return Status::InvalidArgument("scalar node without scalar_type");
      const TScalarType& st = node.scalar_type;
      const std::string_view name = PrimitiveTypeName(st.type);
      if (name == "invalid") {
        return Status::InvalidArgument("primitive type " + std::to_string(st.type) +
                                       " has no Hive name");
      }
      if (out) *out += name;
      if (st.type == TPrimitiveType::DECIMAL) {
        if (st.precision < 1 || st.precision > kMaxDecimalPrecision || st.scale < 0 ||
            st.scale > st.precision) {
          return Status::InvalidArgument("bad decimal precision/scale");
        }
        if (out) *out += "(" + std::to_string(st.precision) + "," + std::to_string(st.scale) + ")";
      } else if (st.type == TPrimitiveType::CHAR || st.type == TPrimitiveType::VARCHAR) {
        const int max_len = st.type == TPrimitiveType::CHAR ? kMaxCharLength : kMaxVarcharLength;
        if (st.len < 1 || st.len > max_len) return Status::InvalidArgument("bad char/varchar length");
        if (out) *out += "(" + std::to_string(st.len) + ")";
      }
      return Status::OK();
    }
    case TTypeNodeType::ARRAY:
      if (out) *out += "array<";
      ICS_RETURN_IF_ERROR(PrintNode(type, idx, depth + 1, out));
      if (out) *out += ">";
      return Status::OK();
    case TTypeNodeType::MAP:
      if (out) *out += "map<";
      if (*idx < nodes.size() && nodes[*idx].type != TTypeNodeType::SCALAR) {
        return Status::InvalidArgument("map key is not scalar");
      }
      ICS_RETURN_IF_ERROR(PrintNode(type, idx, depth + 1, out));
      if (out) *out += ",";
      ICS_RETURN_IF_ERROR(PrintNode(type, idx, depth + 1, out));
      if (out) *out += ">";
      return Status::OK();
    case TTypeNodeType::STRUCT: {
      if (node.struct_fields.empty()) return Status::InvalidArgument("struct without fields");
      if (out) *out += "struct<";
      bool first = true;
      for (const TStructField& f : node.struct_fields) {
        if (f.name.empty()) return Status::InvalidArgument("struct field without a name");
        if (out) {
          if (!first) *out += ",";
          first = false;
          bool plain = true;
          for (char c : f.name) plain = plain && IsWordChar(c);
          if (plain) {
            *out += f.name;
          } else {
            *out += '`';
            for (char c : f.name) {
              if (c == '`') *out += '`';
              *out += c;
            }
            *out += '`';
          }
          *out += ":";
        }
        ICS_RETURN_IF_ERROR(PrintNode(type, idx, depth + 1, out));
        if (out && f.__isset.comment) {
          *out += " comment '";
          for (char c : f.comment) {
            if (c == '\'' || c == '\\') *out += '\\';
            *out += c;
          }
          *out += "'";
        }
      }
      if (out) *out += ">";
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown type node kind " + std::to_string(node.type));
}

}  // namespace

Result<impala::TColumnType> ParseHiveType(std::string_view text) { return Parser(text).Run(); }

std::string TypeToString(const impala::TColumnType& type) {
  std::string out;
  size_t idx = 0;
  Status s = PrintNode(type, &idx, 0, &out);
  if (!s.ok()) return out + "<invalid type>";
  if (idx != type.types.size()) return out + "<invalid type>";
  return out;
}

Status ValidateColumnType(const impala::TColumnType& type) {
  size_t idx = 0;
  ICS_RETURN_IF_ERROR(PrintNode(type, &idx, 0, nullptr));
  if (idx != type.types.size()) {
    return Status::InvalidArgument("type tree has " + std::to_string(type.types.size() - idx) +
                                   " extra node(s)");
  }
  return Status::OK();
}

impala::TColumnType MakeScalarType(impala::TPrimitiveType::type primitive, int len, int precision,
                                   int scale) {
  TColumnType t;
  t.types.push_back(ScalarNode(primitive, len, precision, scale));
  return t;
}

bool IsScalar(const impala::TColumnType& type) {
  return type.types.size() == 1 && type.types[0].type == TTypeNodeType::SCALAR;
}

impala::TPrimitiveType::type PrimitiveOf(const impala::TColumnType& type) {
  if (!IsScalar(type) || !type.types[0].__isset.scalar_type) return TPrimitiveType::INVALID_TYPE;
  return type.types[0].scalar_type.type;
}

std::string_view PrimitiveTypeName(impala::TPrimitiveType::type primitive) {
  switch (primitive) {
    case TPrimitiveType::BOOLEAN: return "boolean";
    case TPrimitiveType::TINYINT: return "tinyint";
    case TPrimitiveType::SMALLINT: return "smallint";
    case TPrimitiveType::INT: return "int";
    case TPrimitiveType::BIGINT: return "bigint";
    case TPrimitiveType::FLOAT: return "float";
    case TPrimitiveType::DOUBLE: return "double";
    case TPrimitiveType::DATE: return "date";
    case TPrimitiveType::TIMESTAMP: return "timestamp";
    case TPrimitiveType::STRING: return "string";
    case TPrimitiveType::BINARY: return "binary";
    case TPrimitiveType::DECIMAL: return "decimal";
    case TPrimitiveType::CHAR: return "char";
    case TPrimitiveType::VARCHAR: return "varchar";
    default: return "invalid";
  }
}

}  // namespace ics
