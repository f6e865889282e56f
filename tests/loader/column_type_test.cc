#include "common/types/column_type.h"

#include <gtest/gtest.h>

namespace ics {
namespace {

using impala::TPrimitiveType;
using impala::TTypeNodeType;

impala::TColumnType Parse(const std::string& text) {
  auto r = ParseHiveType(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : impala::TColumnType();
}

std::string ErrorOf(const std::string& text) {
  auto r = ParseHiveType(text);
  EXPECT_FALSE(r.ok()) << text << " parsed unexpectedly";
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  return r.status().message();
}

TEST(ColumnTypeTest, SimpleScalars) {
  const std::pair<const char*, TPrimitiveType::type> cases[] = {
      {"boolean", TPrimitiveType::BOOLEAN},   {"tinyint", TPrimitiveType::TINYINT},
      {"smallint", TPrimitiveType::SMALLINT}, {"int", TPrimitiveType::INT},
      {"bigint", TPrimitiveType::BIGINT},     {"float", TPrimitiveType::FLOAT},
      {"double", TPrimitiveType::DOUBLE},     {"date", TPrimitiveType::DATE},
      {"timestamp", TPrimitiveType::TIMESTAMP}, {"string", TPrimitiveType::STRING},
      {"binary", TPrimitiveType::BINARY},
  };
  for (const auto& [text, type] : cases) {
    impala::TColumnType t = Parse(text);
    ASSERT_EQ(t.types.size(), 1u) << text;
    EXPECT_EQ(t.types[0].type, TTypeNodeType::SCALAR);
    EXPECT_TRUE(t.types[0].__isset.scalar_type);
    EXPECT_EQ(PrimitiveOf(t), type) << text;
    EXPECT_TRUE(IsScalar(t));
    EXPECT_EQ(TypeToString(t), text);
  }
}

TEST(ColumnTypeTest, CaseWhitespaceAndAliases) {
  EXPECT_EQ(PrimitiveOf(Parse("  INT ")), TPrimitiveType::INT);
  EXPECT_EQ(PrimitiveOf(Parse("Integer")), TPrimitiveType::INT);
  EXPECT_EQ(PrimitiveOf(Parse("real")), TPrimitiveType::FLOAT);
  EXPECT_EQ(PrimitiveOf(Parse("DOUBLE  PRECISION")), TPrimitiveType::DOUBLE);
  EXPECT_EQ(TypeToString(Parse("DOUBLE PRECISION")), "double");
  EXPECT_EQ(TypeToString(Parse("Map < STRING , Array< INT > >")), "map<string,array<int>>");
  EXPECT_EQ(TypeToString(Parse("numeric(5)")), "decimal(5,0)");
  EXPECT_EQ(TypeToString(Parse("dec ( 12 , 4 )")), "decimal(12,4)");
}

TEST(ColumnTypeTest, ParameterizedScalars) {
  impala::TColumnType d = Parse("decimal(10,2)");
  ASSERT_EQ(d.types.size(), 1u);
  EXPECT_EQ(d.types[0].scalar_type.type, TPrimitiveType::DECIMAL);
  EXPECT_TRUE(d.types[0].scalar_type.__isset.precision);
  EXPECT_EQ(d.types[0].scalar_type.precision, 10);
  EXPECT_EQ(d.types[0].scalar_type.scale, 2);
  EXPECT_FALSE(d.types[0].scalar_type.__isset.len);

  impala::TColumnType dflt = Parse("decimal");
  EXPECT_EQ(dflt.types[0].scalar_type.precision, kDefaultDecimalPrecision);
  EXPECT_EQ(dflt.types[0].scalar_type.scale, 0);
  EXPECT_EQ(TypeToString(dflt), "decimal(10,0)");

  impala::TColumnType v = Parse("varchar(20)");
  EXPECT_EQ(v.types[0].scalar_type.type, TPrimitiveType::VARCHAR);
  EXPECT_TRUE(v.types[0].scalar_type.__isset.len);
  EXPECT_EQ(v.types[0].scalar_type.len, 20);
  EXPECT_FALSE(v.types[0].scalar_type.__isset.precision);

  impala::TColumnType c = Parse("CHAR(5)");
  EXPECT_EQ(c.types[0].scalar_type.type, TPrimitiveType::CHAR);
  EXPECT_EQ(c.types[0].scalar_type.len, 5);
  EXPECT_EQ(TypeToString(c), "char(5)");

  EXPECT_EQ(TypeToString(Parse("decimal(38,38)")), "decimal(38,38)");
  EXPECT_EQ(TypeToString(Parse("varchar(65535)")), "varchar(65535)");
  EXPECT_EQ(TypeToString(Parse("char(255)")), "char(255)");
}

TEST(ColumnTypeTest, ComplexTypesArePreOrder) {
  impala::TColumnType a = Parse("array<int>");
  ASSERT_EQ(a.types.size(), 2u);
  EXPECT_EQ(a.types[0].type, TTypeNodeType::ARRAY);
  EXPECT_EQ(a.types[1].scalar_type.type, TPrimitiveType::INT);
  EXPECT_FALSE(IsScalar(a));
  EXPECT_EQ(PrimitiveOf(a), TPrimitiveType::INVALID_TYPE);

  impala::TColumnType m = Parse("map<string,array<int>>");
  ASSERT_EQ(m.types.size(), 4u);
  EXPECT_EQ(m.types[0].type, TTypeNodeType::MAP);
  EXPECT_EQ(m.types[1].scalar_type.type, TPrimitiveType::STRING);
  EXPECT_EQ(m.types[2].type, TTypeNodeType::ARRAY);
  EXPECT_EQ(m.types[3].scalar_type.type, TPrimitiveType::INT);

  impala::TColumnType s = Parse("struct<a:int,B:string,c:array<decimal(5,1)>>");
  ASSERT_EQ(s.types.size(), 5u);
  EXPECT_EQ(s.types[0].type, TTypeNodeType::STRUCT);
  ASSERT_TRUE(s.types[0].__isset.struct_fields);
  ASSERT_EQ(s.types[0].struct_fields.size(), 3u);
  EXPECT_EQ(s.types[0].struct_fields[0].name, "a");
  EXPECT_EQ(s.types[0].struct_fields[1].name, "b");  // lower-cased
  EXPECT_EQ(s.types[1].scalar_type.type, TPrimitiveType::INT);
  EXPECT_EQ(s.types[2].scalar_type.type, TPrimitiveType::STRING);
  EXPECT_EQ(s.types[3].type, TTypeNodeType::ARRAY);
  EXPECT_EQ(s.types[4].scalar_type.precision, 5);
  EXPECT_EQ(TypeToString(s), "struct<a:int,b:string,c:array<decimal(5,1)>>");
}

TEST(ColumnTypeTest, RoundTrips) {
  const char* cases[] = {
      "int",
      "map<string,array<int>>",
      "array<array<map<bigint,struct<x:double,y:varchar(3)>>>>",
      "struct<a:int,b:struct<c:char(2),d:map<date,timestamp>>>",
      "struct<`weird name`:int,`a``b`:string>",
      "struct<a:int comment 'the a',b:string comment 'it\\'s'>",
  };
  for (const char* text : cases) {
    impala::TColumnType t = Parse(text);
    EXPECT_TRUE(ValidateColumnType(t).ok()) << text;
    const std::string printed = TypeToString(t);
    EXPECT_EQ(printed, text);
    EXPECT_EQ(Parse(printed), t) << printed;
  }
}

TEST(ColumnTypeTest, StructFieldComments) {
  impala::TColumnType t = Parse("struct<a:int COMMENT \"x, y\">");
  ASSERT_TRUE(t.types[0].struct_fields[0].__isset.comment);
  EXPECT_EQ(t.types[0].struct_fields[0].comment, "x, y");
}

TEST(ColumnTypeTest, ErrorsNamePositionAndReason) {
  EXPECT_NE(ErrorOf("integr").find("unknown type 'integr' at position 0"), std::string::npos);
  EXPECT_NE(ErrorOf("decimal(40,2)").find("precision 40 out of range 1..38 at position 8"),
            std::string::npos);
  EXPECT_NE(ErrorOf("decimal(0)").find("precision 0"), std::string::npos);
  EXPECT_NE(ErrorOf("decimal(5,6)").find("scale 6 greater than precision 5 at position 10"),
            std::string::npos);
  EXPECT_NE(ErrorOf("varchar(0)").find("varchar length 0 out of range 1..65535"), std::string::npos);
  EXPECT_NE(ErrorOf("varchar(65536)").find("out of range"), std::string::npos);
  EXPECT_NE(ErrorOf("char(256)").find("char length 256 out of range 1..255"), std::string::npos);
  EXPECT_NE(ErrorOf("char").find("requires a length"), std::string::npos);
  EXPECT_NE(ErrorOf("varchar").find("requires a length"), std::string::npos);
  EXPECT_NE(ErrorOf("array<int").find("expected '>' but the type ended at position 9"),
            std::string::npos);
  EXPECT_NE(ErrorOf("array<int>>").find("unexpected trailing text at position 10"),
            std::string::npos);
  EXPECT_NE(ErrorOf("int x").find("trailing text at position 4"), std::string::npos);
  EXPECT_NE(ErrorOf("map<int>").find("expected ','"), std::string::npos);
  EXPECT_NE(ErrorOf("map<array<int>,int>").find("map key must be a scalar type at position 4"),
            std::string::npos);
  EXPECT_NE(ErrorOf("struct<>").find("expected a struct field name"), std::string::npos);
  EXPECT_NE(ErrorOf("struct<a int>").find("expected ':'"), std::string::npos);
  EXPECT_NE(ErrorOf("struct<a:int,A:string>").find("duplicate struct field name 'a'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("").find("expected a type name but the type ended at position 0"),
            std::string::npos);
  EXPECT_NE(ErrorOf("decimal(99999999999)").find("too large"), std::string::npos);
  EXPECT_NE(ErrorOf("struct<a:int comment 'x>").find("unterminated comment"), std::string::npos);
  // The offending text is echoed.
  EXPECT_NE(ErrorOf("bogus").find("invalid type 'bogus'"), std::string::npos);
}

TEST(ColumnTypeTest, DeepNestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += "array<";
  deep += "int";
  for (int i = 0; i < 10000; ++i) deep += ">";
  EXPECT_NE(ErrorOf(deep).find("nesting deeper than 100"), std::string::npos);

  std::string ok;
  for (int i = 0; i < kMaxTypeNestingDepth; ++i) ok += "array<";
  ok += "int";
  for (int i = 0; i < kMaxTypeNestingDepth; ++i) ok += ">";
  EXPECT_EQ(TypeToString(Parse(ok)), ok);
}

TEST(ColumnTypeTest, EveryNestingKindIsBounded) {
  auto nest = [](const std::string& open, const std::string& middle, const std::string& close,
                 int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += open;
    s += middle;
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  constexpr int kDeep = 100000;
  for (const std::string& deep :
       {nest("array<", "int", ">", kDeep), nest("map<string,", "int", ">", kDeep),
        nest("struct<a:", "int", ">", kDeep),
        nest("array<map<string,struct<a:", "int", ">>>", kDeep),
        nest("struct<a:int,b:", "int", ">", kDeep), nest("array<", "", "", kDeep),
        nest("map<string, ", "", "", kDeep)}) {
    EXPECT_NE(ErrorOf(deep).find("type nesting deeper than 100"), std::string::npos)
        << deep.substr(0, 30);
  }
  // Within the limit: parses, prints and validates.
  const std::string ok = nest("array<map<string,struct<a:", "int", ">>>", 33);  // 99 levels
  impala::TColumnType t = Parse(ok);
  EXPECT_EQ(TypeToString(t), ok);
  EXPECT_TRUE(ValidateColumnType(t).ok());
  // A wide struct is flat: fine.
  std::string wide = "struct<f0:int";
  for (int i = 1; i < 20000; ++i) wide += ",f" + std::to_string(i) + ":int";
  wide += ">";
  EXPECT_EQ(TypeToString(Parse(wide)), wide);
}

TEST(ColumnTypeTest, DeepTreesFromTheWireAreRejectedNotWalkedOff) {
  // A TColumnType built by hand (as one arrives over Thrift) with 100,000
  // nested ARRAY nodes: printing and validation stop at the nesting limit.
  impala::TColumnType deep = Parse("int");
  impala::TTypeNode array;
  array.type = TTypeNodeType::ARRAY;
  deep.types.insert(deep.types.begin(), 100000, array);
  EXPECT_FALSE(ValidateColumnType(deep).ok());
  EXPECT_NE(ValidateColumnType(deep).message().find("too deep"), std::string::npos);
  EXPECT_NE(TypeToString(deep).find("<invalid type>"), std::string::npos);
  EXPECT_EQ(TypeToString(Parse("array<int>")), "array<int>");
}

TEST(ColumnTypeTest, MalformedTreesDoNotCrash) {
  impala::TColumnType empty;
  EXPECT_FALSE(ValidateColumnType(empty).ok());
  EXPECT_NE(TypeToString(empty).find("<invalid type>"), std::string::npos);

  impala::TColumnType truncated = Parse("map<string,int>");
  truncated.types.pop_back();
  EXPECT_FALSE(ValidateColumnType(truncated).ok());
  EXPECT_EQ(TypeToString(truncated), "map<string,<invalid type>");

  impala::TColumnType extra = Parse("int");
  extra.types.push_back(extra.types[0]);
  EXPECT_FALSE(ValidateColumnType(extra).ok());

  impala::TColumnType no_scalar = Parse("int");
  no_scalar.types[0].__isset.scalar_type = false;
  EXPECT_FALSE(ValidateColumnType(no_scalar).ok());

  impala::TColumnType bad_decimal = MakeScalarType(TPrimitiveType::DECIMAL, 0, 50, 0);
  EXPECT_FALSE(ValidateColumnType(bad_decimal).ok());
}

TEST(ColumnTypeTest, MakeScalarType) {
  EXPECT_EQ(TypeToString(MakeScalarType(TPrimitiveType::VARCHAR, 7)), "varchar(7)");
  EXPECT_EQ(TypeToString(MakeScalarType(TPrimitiveType::DECIMAL, 0, 9, 3)), "decimal(9,3)");
  EXPECT_EQ(MakeScalarType(TPrimitiveType::BIGINT), Parse("bigint"));
  EXPECT_EQ(PrimitiveTypeName(TPrimitiveType::NULL_TYPE), "invalid");
}

}  // namespace
}  // namespace ics
