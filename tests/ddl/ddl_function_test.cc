// CREATE / DROP FUNCTION.
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using impala::TDdlType;

class DdlFunctionTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
  }

  impala::TDdlExecRequest DropFnReq(const std::string& db, const std::string& name,
                                    const std::vector<std::string>& args, bool if_exists = false) {
    impala::TDdlExecRequest r = Req(TDdlType::DROP_FUNCTION);
    r.__isset.drop_fn_params = true;
    r.drop_fn_params.fn_name.__set_db_name(db);
    r.drop_fn_params.fn_name.function_name = name;
    for (const std::string& a : args) r.drop_fn_params.arg_types.push_back(*ParseHiveType(a));
    r.drop_fn_params.if_exists = if_exists;
    return r;
  }
};

TEST_F(DdlFunctionTest, CreateAndDrop) {
  ASSERT_DDL_OK(out, Exec(CreateFnReq("DB", "MyFn", {"int", "decimal(10,2)", "array<string>"})));
  EXPECT_EQ(out.summary, "Function has been created.");
  ASSERT_EQ(Updated(out).size(), 1u);
  EXPECT_EQ(Updated(out)[0].type, impala::TCatalogObjectType::FUNCTION);
  EXPECT_EQ(Updated(out)[0].catalog_version, out.version);
  const std::string sig = "myfn(int,decimal(10,2),array<string>)";
  EXPECT_EQ(Updated(out)[0].fn.signature, sig);
  FunctionPtr f = catalog_->GetFunction("db", sig);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fn.name.db_name, "db");
  EXPECT_TRUE(f->fn.is_persistent);
  auto stored = metastore_->GetFunctions("db");
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_EQ(stored->at(0).signature, sig);

  // Overloads are distinct functions.
  ASSERT_TRUE(Exec(CreateFnReq("db", "myfn", {"string"})).ok());
  EXPECT_EQ(catalog_->FunctionsOf("db").size(), 2u);

  EXPECT_DDL_FAILS(Exec(CreateFnReq("db", "myfn", {"string"})), ErrorCode::kAlreadyExists);
  const int64_t v = catalog_->version();
  ASSERT_DDL_OK(noop, Exec(CreateFnReq("db", "myfn", {"string"}, /*if_not_exists=*/true)));
  EXPECT_EQ(noop.version, v);
  EXPECT_EQ(noop.summary, "Function already exists.");
  EXPECT_DDL_FAILS(Exec(CreateFnReq("nodb", "f", {})), ErrorCode::kNotFound);
  EXPECT_DDL_FAILS(Exec(CreateFnReq("db", "bad.name", {})), ErrorCode::kInvalidArgument);

  ASSERT_DDL_OK(dropped, Exec(DropFnReq("db", "MYFN", {"string"})));
  EXPECT_EQ(dropped.summary, "Function has been dropped.");
  ASSERT_EQ(Removed(dropped).size(), 1u);
  EXPECT_EQ(Removed(dropped)[0].fn.signature, "myfn(string)");
  EXPECT_EQ(catalog_->GetFunction("db", "myfn(string)"), nullptr);
  EXPECT_NE(catalog_->GetFunction("db", sig), nullptr);
  EXPECT_EQ(metastore_->GetFunctions("db")->size(), 1u);

  auto missing = Exec(DropFnReq("db", "myfn", {"string"}));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "Function does not exist: db.myfn(string)");
  ASSERT_DDL_OK(noop2, Exec(DropFnReq("db", "myfn", {"string"}, /*if_exists=*/true)));
  EXPECT_EQ(noop2.summary, "Function does not exist.");
}

TEST_F(DdlFunctionTest, VarArgs) {
  impala::TDdlExecRequest r = CreateFnReq("db", "concat_all", {"string"});
  r.create_fn_params.fn.__set_has_var_args(true);
  ASSERT_DDL_OK(out, Exec(r));
  EXPECT_EQ(Updated(out)[0].fn.signature, "concat_all(string...)");
  ASSERT_TRUE(Exec(DropFnReq("db", "concat_all", {"string"})).ok());
  EXPECT_TRUE(catalog_->FunctionsOf("db").empty());
}

}  // namespace
}  // namespace ics::catalog::testing
