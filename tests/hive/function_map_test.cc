// The HMS function <-> catalog function mapping (function_map.h).
#include "common/hive/function_map.h"

#include <gtest/gtest.h>

namespace ics {
namespace {

hive::Function JavaFn() {
  hive::Function f;
  f.dbName = "DB";
  f.functionName = "Upper";
  f.className = "com.example.Upper";
  f.createTime = 1000;
  hive::ResourceUri jar;
  jar.resourceType = hive::ResourceType::JAR;
  jar.uri = "/u.jar";
  f.resourceUris = {jar};
  return f;
}

TEST(HmsFunctionMapTest, JavaFunctionsAreStoredUnderTheirLowerCasedName) {
  auto tf = FromHmsFunction(JavaFn());
  ASSERT_TRUE(tf.ok()) << tf.status().ToString();
  EXPECT_EQ(tf->name.db_name, "db");
  EXPECT_EQ(tf->name.function_name, "upper");
  EXPECT_EQ(tf->signature, "upper");
  EXPECT_EQ(tf->binary_type, impala::TFunctionBinaryType::JAVA);
  EXPECT_EQ(tf->scalar_fn.symbol, "com.example.Upper");
  EXPECT_EQ(tf->hdfs_location, "/u.jar");
  EXPECT_EQ(tf->last_modified_time, 1000000);
  auto back = ToHmsFunction(*tf);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->functionName, "upper");
  EXPECT_EQ(back->dbName, "db");
  EXPECT_EQ(back->className, "com.example.Upper");
  EXPECT_EQ(back->createTime, 1000);
  ASSERT_EQ(back->resourceUris.size(), 1u);
  EXPECT_EQ(back->resourceUris[0].uri, "/u.jar");
  EXPECT_EQ(SignatureForHmsName("Upper"), "upper");
}

TEST(HmsFunctionMapTest, CatalogFunctionsRoundTripExactly) {
  impala::TFunction fn;
  fn.name.__set_db_name("db");
  fn.name.function_name = "f";
  fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  fn.__set_signature("f(INT,STRING)");
  fn.__set_has_var_args(false);
  fn.__set_comment("a comment");
  impala::TScalarFunction scalar;
  scalar.symbol = "_Z1fv";
  fn.__set_scalar_fn(scalar);
  auto hf = ToHmsFunction(fn);
  ASSERT_TRUE(hf.ok());
  EXPECT_EQ(hf->functionName, "f(INT,STRING)");
  EXPECT_EQ(hf->className.rfind(kEncodedFunctionPrefix, 0), 0u);
  auto back = FromHmsFunction(*hf);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, fn);
  EXPECT_EQ(SignatureForHmsName("f(INT,STRING)"), "f(INT,STRING)");  // kept as is
}

TEST(HmsFunctionMapTest, BadInputIsRejectedWithAReason) {
  hive::Function f = JavaFn();
  f.className = "";
  EXPECT_NE(FromHmsFunction(f).status().message().find("no className"), std::string::npos);
  f = JavaFn();
  f.resourceUris[0].resourceType = hive::ResourceType::FILE;
  EXPECT_NE(FromHmsFunction(f).status().message().find("only a JAR"), std::string::npos);
  f = JavaFn();
  f.functionName = "g(INT)";
  EXPECT_NE(FromHmsFunction(f).status().message().find("contains '('"), std::string::npos);
  f = JavaFn();
  f.dbName = "a.b";
  EXPECT_EQ(FromHmsFunction(f).status().code(), ErrorCode::kInvalidArgument);

  // An encoded function must agree with the name and database it is filed under.
  impala::TFunction fn;
  fn.name.__set_db_name("db");
  fn.name.function_name = "f";
  fn.__set_signature("f(INT)");
  auto hf = ToHmsFunction(fn);
  ASSERT_TRUE(hf.ok());
  hive::Function moved = *hf;
  moved.dbName = "other";
  EXPECT_NE(FromHmsFunction(moved).status().message().find("belongs to database 'db'"),
            std::string::npos);
  hive::Function renamed = *hf;
  renamed.functionName = "f(BIGINT)";
  EXPECT_NE(FromHmsFunction(renamed).status().message().find("signature 'f(INT)'"),
            std::string::npos);
  hive::Function garbage = *hf;
  garbage.className = std::string(kEncodedFunctionPrefix) + "AAAA";
  EXPECT_NE(FromHmsFunction(garbage).status().message().find("undecodable"), std::string::npos);
  impala::TFunction nosig;
  nosig.name.function_name = "x";
  EXPECT_EQ(ToHmsFunction(nosig).status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace ics
