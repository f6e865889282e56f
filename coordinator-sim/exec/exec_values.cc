// Constants of INSERT ... VALUES and PARTITION (k=v) clauses: folding
// (literal, -literal, CAST(constant AS type)) and conversion to a column's
// type with Impala's implicit-cast rules, producing the text form a text
// data file holds.
//
// Literal types follow Impala: an integer literal has the smallest integer
// type that holds it (300 is SMALLINT, so it does not fit a TINYINT column
// without a cast); a decimal literal is DECIMAL(p,s) as written (exponent
// form: DOUBLE); string literals convert to STRING/VARCHAR/CHAR, TIMESTAMP,
// DATE and BINARY. An explicit CAST behaves as Impala's casts do (invalid
// string conversions give NULL, integer narrowing wraps).
#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "common/hive/scalar_text.h"
#include "common/types/column_type.h"
#include "common/util/base64.h"
#include "coordinator-sim/catalog/catalog_util.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_format.h"
#include "coordinator-sim/exec/exec_values.h"

namespace ics::coord::exec {

namespace {

using P = impala::TPrimitiveType;

struct Constant {
  enum Kind { kNull, kBoolean, kInteger, kDecimal, kString, kDate, kTyped };
  Kind kind = kNull;
  std::string text;
  int64_t int_value = 0;
  impala::TColumnType type;  // kTyped: the CAST's type
  std::string sql;           // source text for messages
};

int IntRank(P::type t) {
  switch (t) {
    case P::TINYINT: return 1;
    case P::SMALLINT: return 2;
    case P::INT: return 3;
    case P::BIGINT: return 4;
    default: return 0;
  }
}

bool InRange(P::type t, int64_t v) {
  switch (t) {
    case P::TINYINT: return v >= -128 && v <= 127;
    case P::SMALLINT: return v >= -32768 && v <= 32767;
    case P::INT:
      return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    default: return true;
  }
}

int64_t Wrap(P::type t, int64_t v) {
  switch (t) {
    case P::TINYINT: return static_cast<int8_t>(v);
    case P::SMALLINT: return static_cast<int16_t>(v);
    case P::INT: return static_cast<int32_t>(v);
    default: return v;
  }
}

// Impala's type of a folded constant, for messages.
std::string TypeNameOf(const Constant& c) {
  switch (c.kind) {
    case Constant::kNull: return "NULL";
    case Constant::kBoolean: return "BOOLEAN";
    case Constant::kInteger: return std::string(sql::IntegerLiteralTypeName(c.int_value));
    case Constant::kDecimal: {
      std::optional<ExactNumber> d = ParseExactNumber(c.text);
      if (!d || c.text.find_first_of("eE") != std::string::npos) return "DOUBLE";
      // The scale as written: 1.50 is DECIMAL(3,2).
      const size_t dot = c.text.find('.');
      const int s = dot == std::string::npos ? 0 : static_cast<int>(c.text.size() - dot - 1);
      const int p = std::max(static_cast<int>(d->int_digits.size()) + s, std::max(s, 1));
      return "DECIMAL(" + std::to_string(p) + "," + std::to_string(s) + ")";
    }
    case Constant::kString: return "STRING";
    case Constant::kDate: return "DATE";
    case Constant::kTyped: return TypeSql(c.type);
  }
  return "UNKNOWN";
}

// CHAR/VARCHAR: at most `len` characters (UTF-8), CHAR padded with spaces.
std::string FitChars(const std::string& s, const impala::TScalarType& st) {
  if (!st.__isset.len || st.len <= 0) return s;
  std::string out;
  int chars = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) {
      if (chars == st.len) break;
      ++chars;
    }
    out += s[i];
  }
  if (st.type == P::CHAR) out.append(static_cast<size_t>(st.len - chars), ' ');
  return out;
}

Status Incompatible(const Constant& c, const impala::TColumnType& type, const CoercionTarget& t) {
  if (t.partition_spec) {
    return AnalysisError("Value of partition spec (column=" + t.column +
                         ") has incompatible type: '" + TypeNameOf(c) + "'. Expected type: '" +
                         TypeSql(type) + "'.");
  }
  return AnalysisError("Target table '" + t.table +
                       "' is incompatible with source expressions. Expression '" + c.sql +
                       "' (type: " + TypeNameOf(c) + ") is not compatible with column '" +
                       t.column + "' (type: " + TypeSql(type) + ")");
}

Status LossOfPrecision(const Constant& c, const impala::TColumnType& type,
                       const CoercionTarget& t) {
  if (t.partition_spec) {
    return AnalysisError("Partition key value may result in loss of precision. Would need to "
                         "cast '" + c.sql + "' to '" + TypeSql(type) +
                         "' for partition column: " + t.column);
  }
  return AnalysisError("Possible loss of precision for target table '" + t.table +
                       "'. Expression '" + c.sql + "' (type: " + TypeNameOf(c) +
                       ") would need to be cast to " + TypeSql(type) + " for column '" +
                       t.column + "'");
}

Result<Constant> FromLiteral(const sql::Literal& lit) {
  Constant c;
  c.sql = lit.ToSql();
  c.text = lit.value;
  switch (lit.kind) {
    case sql::LiteralKind::kNull: c.kind = Constant::kNull; break;
    case sql::LiteralKind::kBoolean:
      c.kind = Constant::kBoolean;
      c.text = lit.bool_value ? "true" : "false";
      break;
    case sql::LiteralKind::kInteger:
      c.kind = Constant::kInteger;
      c.int_value = lit.int_value;
      break;
    case sql::LiteralKind::kDecimal: c.kind = Constant::kDecimal; break;
    case sql::LiteralKind::kString: c.kind = Constant::kString; break;
    case sql::LiteralKind::kDate: c.kind = Constant::kDate; break;
  }
  return c;
}

// Impala's explicit CAST of a constant.
Result<Constant> CastTo(Constant c, const impala::TColumnType& type) {
  Constant out;
  out.sql = "CAST(" + c.sql + " AS " + TypeSql(type) + ")";
  out.type = type;
  out.kind = Constant::kTyped;
  if (!IsScalar(type)) return AnalysisError("Invalid cast to complex type " + TypeSql(type));
  if (c.kind == Constant::kNull) {
    out.kind = Constant::kNull;
    return out;
  }
  const impala::TScalarType& st = type.types[0].scalar_type;
  const P::type from = c.kind == Constant::kTyped ? PrimitiveOf(c.type) : P::INVALID_TYPE;
  const bool numeric_src = c.kind == Constant::kInteger || c.kind == Constant::kDecimal ||
                           (c.kind == Constant::kTyped &&
                            (IntRank(from) > 0 || from == P::FLOAT || from == P::DOUBLE ||
                             from == P::DECIMAL));
  const bool bool_src = c.kind == Constant::kBoolean || from == P::BOOLEAN;
  auto null_result = [&]() {
    out.kind = Constant::kNull;
    return out;
  };
  switch (st.type) {
    case P::BOOLEAN: {
      if (bool_src) {
        out.text = c.text;
      } else if (numeric_src) {
        std::optional<ExactNumber> d = ParseExactNumber(c.text);
        out.text = (d && d->is_zero()) ? "false" : "true";
      } else {
        const std::string l = AsciiLower(c.text);
        if (l != "true" && l != "false") return null_result();
        out.text = l;
      }
      return out;
    }
    case P::TINYINT:
    case P::SMALLINT:
    case P::INT:
    case P::BIGINT: {
      if (bool_src) {
        out.text = c.text == "true" ? "1" : "0";
        return out;
      }
      std::optional<ExactNumber> d = ParseExactNumber(c.text);
      if (!d || d->int_digits.size() > 19) return null_result();
      errno = 0;
      const std::string digits =
          (d->negative ? "-" : "") + (d->int_digits.empty() ? "0" : d->int_digits);
      char* end = nullptr;
      const long long v = std::strtoll(digits.c_str(), &end, 10);
      if (errno == ERANGE) return null_result();
      out.text = std::to_string(Wrap(st.type, v));
      return out;
    }
    case P::FLOAT:
    case P::DOUBLE: {
      if (bool_src) {
        out.text = c.text == "true" ? "1" : "0";
        return out;
      }
      char* end = nullptr;
      const double v = std::strtod(c.text.c_str(), &end);
      if (c.text.empty() || end != c.text.c_str() + c.text.size()) return null_result();
      out.text = FormatDouble(st.type == P::FLOAT ? static_cast<double>(static_cast<float>(v)) : v);
      return out;
    }
    case P::DECIMAL: {
      std::optional<ExactNumber> d =
          ParseExactNumber(bool_src ? (c.text == "true" ? "1" : "0") : c.text);
      if (!d) return null_result();
      const ExactNumber r = RoundToScale(std::move(*d), st.scale);
      if (!FitsDecimal(r, st.precision, st.scale)) {
        return AnalysisError("Decimal value " + c.sql + " does not fit " + TypeSql(type));
      }
      out.text = FormatDecimal(r, st.scale);
      return out;
    }
    case P::STRING:
    case P::VARCHAR:
    case P::CHAR:
    case P::BINARY:
      out.text = FitChars(c.text, st);
      return out;
    case P::TIMESTAMP:
      if (c.kind == Constant::kDate || from == P::DATE) {
        out.text = c.text + " 00:00:00";
      } else if (IsStrictTimestamp(c.text)) {
        out.text = c.text;
      } else {
        return null_result();
      }
      return out;
    case P::DATE:
      if (c.text.size() >= 10 && IsStrictDate(c.text.substr(0, 10)) &&
          (c.text.size() == 10 || IsStrictTimestamp(c.text))) {
        out.text = c.text.substr(0, 10);
        return out;
      }
      return null_result();
    default:
      return AnalysisError("Unsupported cast to " + TypeSql(type));
  }
}

Result<Constant> Fold(const sql::Expr& e) {
  switch (e.kind) {
    case sql::ExprKind::kLiteral:
      return FromLiteral(e.literal);
    case sql::ExprKind::kNegate: {
      ICS_ASSIGN_OR_RETURN(Constant c, Fold(*e.children[0]));
      const std::string sql = "-" + c.sql;
      if (c.kind == Constant::kNull) return c;
      if (c.kind == Constant::kInteger && c.int_value != std::numeric_limits<int64_t>::min()) {
        c.int_value = -c.int_value;
        c.text = std::to_string(c.int_value);
      } else if (c.kind == Constant::kInteger || c.kind == Constant::kDecimal ||
                 (c.kind == Constant::kTyped &&
                  (IntRank(PrimitiveOf(c.type)) > 0 || PrimitiveOf(c.type) == P::FLOAT ||
                   PrimitiveOf(c.type) == P::DOUBLE || PrimitiveOf(c.type) == P::DECIMAL))) {
        if (c.kind == Constant::kInteger) c.kind = Constant::kDecimal;
        c.text = c.text.rfind('-', 0) == 0 ? c.text.substr(1) : "-" + c.text;
      } else {
        return AnalysisError("Cannot negate the non-numeric value " + c.sql);
      }
      c.sql = sql;
      return c;
    }
    case sql::ExprKind::kCast: {
      ICS_ASSIGN_OR_RETURN(Constant c, Fold(*e.children[0]));
      Result<impala::TColumnType> type = ParseHiveType(e.type);
      if (!type.ok()) return AnalysisError("Invalid type in " + e.ToSql() + ": " + type.status().message());
      return CastTo(std::move(c), *type);
    }
    default:
      return AnalysisError("Only constant values (literals, -literal, CAST(literal AS type)) are "
                           "supported here by the simulated coordinator: " + e.ToSql());
  }
}

Result<std::optional<std::string>> Coerce(const Constant& c, const impala::TColumnType& type,
                                          const CoercionTarget& t) {
  if (c.kind == Constant::kNull) return std::optional<std::string>();
  if (!IsScalar(type)) {
    return AnalysisError("Writing column '" + t.column + "' of complex type " + TypeSql(type) +
                         " is not supported");
  }
  const impala::TScalarType& st = type.types[0].scalar_type;
  const P::type to = st.type;
  using R = std::optional<std::string>;
  switch (c.kind) {
    case Constant::kBoolean:
      if (to == P::BOOLEAN) return R(c.text);
      return Incompatible(c, type, t);
    case Constant::kInteger:
      if (IntRank(to) > 0) {
        if (!InRange(to, c.int_value)) return LossOfPrecision(c, type, t);
        return R(std::to_string(c.int_value));
      }
      if (to == P::FLOAT || to == P::DOUBLE) return R(std::to_string(c.int_value));
      if (to == P::DECIMAL) {
        std::optional<ExactNumber> d = ParseExactNumber(std::to_string(c.int_value));
        if (!d || !FitsDecimal(*d, st.precision, st.scale)) return LossOfPrecision(c, type, t);
        return R(FormatDecimal(*d, st.scale));
      }
      return Incompatible(c, type, t);
    case Constant::kDecimal: {
      std::optional<ExactNumber> d = ParseExactNumber(c.text);
      if (!d) return Incompatible(c, type, t);
      if (to == P::FLOAT || to == P::DOUBLE) {
        const double v = std::strtod(c.text.c_str(), nullptr);
        if (!std::isfinite(v) || (to == P::FLOAT && std::fabs(v) > FLT_MAX)) {
          return LossOfPrecision(c, type, t);
        }
        return R(c.text);
      }
      if (to == P::DECIMAL) {
        if (c.text.find_first_of("eE") != std::string::npos) return LossOfPrecision(c, type, t);
        if (!FitsDecimal(*d, st.precision, st.scale)) return LossOfPrecision(c, type, t);
        return R(FormatDecimal(*d, st.scale));
      }
      if (IntRank(to) > 0) return LossOfPrecision(c, type, t);
      return Incompatible(c, type, t);
    }
    case Constant::kString:
      switch (to) {
        case P::STRING:
        case P::VARCHAR:
        case P::CHAR:
          return R(FitChars(c.text, st));
        case P::BINARY:
          return R(Base64Encode(c.text));
        case P::TIMESTAMP:
          if (!IsStrictTimestamp(c.text)) {
            return AnalysisError("Invalid TIMESTAMP value " + c.sql + " for column '" + t.column +
                                 "' (expected 'yyyy-mm-dd[ hh:mm:ss[.fffffffff]]')");
          }
          return R(c.text);
        case P::DATE:
          if (!IsStrictDate(c.text)) {
            return AnalysisError("Invalid DATE value " + c.sql + " for column '" + t.column +
                                 "' (expected 'yyyy-mm-dd')");
          }
          return R(c.text);
        default:
          return Incompatible(c, type, t);
      }
    case Constant::kDate:
      if (to == P::DATE) return R(c.text);
      if (to == P::TIMESTAMP) return R(c.text + " 00:00:00");
      return Incompatible(c, type, t);
    case Constant::kTyped: {
      const impala::TScalarType& fs = c.type.types[0].scalar_type;
      const P::type from = fs.type;
      if (from == to && to != P::DECIMAL) {
        return R(to == P::BINARY ? Base64Encode(c.text) : FitChars(c.text, st));
      }
      if (IntRank(from) > 0) {
        if (IntRank(to) > 0) {
          if (IntRank(from) > IntRank(to)) return LossOfPrecision(c, type, t);
          return R(c.text);
        }
        if (to == P::FLOAT || to == P::DOUBLE) return R(c.text);
        if (to == P::DECIMAL) {
          std::optional<ExactNumber> d = ParseExactNumber(c.text);
          if (!d || !FitsDecimal(*d, st.precision, st.scale)) return LossOfPrecision(c, type, t);
          return R(FormatDecimal(*d, st.scale));
        }
      }
      if ((from == P::FLOAT && to == P::DOUBLE) || (from == P::DECIMAL && (to == P::FLOAT || to == P::DOUBLE))) {
        return R(c.text);
      }
      if (from == P::DECIMAL && to == P::DECIMAL) {
        std::optional<ExactNumber> d = ParseExactNumber(c.text);
        if (!d || fs.scale > st.scale || fs.precision - fs.scale > st.precision - st.scale) {
          return LossOfPrecision(c, type, t);
        }
        return R(FormatDecimal(*d, st.scale));
      }
      const auto is_str = [](P::type p) { return p == P::STRING || p == P::VARCHAR || p == P::CHAR; };
      if (is_str(from) && is_str(to)) return R(FitChars(c.text, st));
      if (from == P::DATE && to == P::TIMESTAMP) return R(c.text + " 00:00:00");
      const bool numeric_from = IntRank(from) > 0 || from == P::FLOAT || from == P::DOUBLE ||
                                from == P::DECIMAL;
      const bool numeric_to = IntRank(to) > 0 || to == P::FLOAT || to == P::DOUBLE || to == P::DECIMAL;
      if (numeric_from && numeric_to) return LossOfPrecision(c, type, t);
      return Incompatible(c, type, t);
    }
    case Constant::kNull:
      break;
  }
  return std::optional<std::string>();
}

}  // namespace

Result<std::optional<std::string>> CoerceValue(const sql::Expr& e, const impala::TColumnType& type,
                                               const CoercionTarget& target) {
  ICS_ASSIGN_OR_RETURN(Constant c, Fold(e));
  return Coerce(c, type, target);
}

Result<std::optional<std::string>> CoerceLiteral(const sql::Literal& lit,
                                                 const impala::TColumnType& type,
                                                 const CoercionTarget& target) {
  ICS_ASSIGN_OR_RETURN(Constant c, FromLiteral(lit));
  return Coerce(c, type, target);
}

std::string PartitionValueOrNull(const std::optional<std::string>& v) {
  if (!v || v->empty()) return kDefaultPartitionName;
  return *v;
}

Result<std::string> PartitionValue(const sql::Literal& lit, const impala::TColumnType& type,
                                   const CoercionTarget& target) {
  ICS_ASSIGN_OR_RETURN(std::optional<std::string> v, CoerceLiteral(lit, type, target));
  return PartitionValueOrNull(v);
}

}  // namespace ics::coord::exec
