// The command core's typed commands (catalogd/ddl/ddl_commands.h) driven
// without any Impala request struct, as the Glue and BigQuery doors will
// drive them; and Impala's door (catalogd/service/impala_commands.h) as
// their translator: the same change sent as a command and as an Impala
// request gets the same answer and the same operation record, and a request
// that has no command is refused at the door and recorded.
#include "common/hive/file_format.h"
#include "common/util/operation_log.h"
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using A = impala::TAlterTableType;

hive::FieldSchema Field(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

class DdlCommandTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
    ctx_.operations = &log_;
    ASSERT_TRUE(CreateDb("db").ok());
  }
  void TearDown() override {
    ctx_.operations = nullptr;
    DdlTest::TearDown();
  }

  // The newest finished operation record.
  OperationRecord Last() const {
    std::vector<OperationRecord> recent = log_.Get().recent;
    EXPECT_FALSE(recent.empty());
    return recent.empty() ? OperationRecord() : recent.front();
  }
  std::vector<std::string> Columns(const std::string& table) {
    std::vector<std::string> names;
    TablePtr t = ctx_.catalog->GetTable("db", table);
    if (t == nullptr) return names;
    for (const hive::FieldSchema& f : t->hms.sd.cols) names.push_back(f.name);
    return names;
  }

  const ops::Caller caller_ = ops::CallerOfCurrentRpc("test");
  OperationLog log_;
};

TEST_F(DdlCommandTest, ATableIsCreatedAlteredAndPartitionedWithoutAnyImpalaRequest) {
  CreateTableCommand create;
  create.table.dbName = "db";
  create.table.tableName = "Events";
  create.table.sd.cols = {Field("id", "bigint"), Field("Payload", "string")};
  create.table.partitionKeys = {Field("day", "string")};
  create.file_format = impala::THdfsFileFormat::PARQUET;
  create.sort_by.columns = {"id"};
  ASSERT_DDL_OK(created, core_->CreateTable(caller_, create));
  EXPECT_EQ(Last().kind, "CREATE_TABLE");
  EXPECT_EQ(Last().target, "db.Events");
  TablePtr t = ctx_.catalog->GetTable("db", "events");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->hms.parameters.at("sort.columns"), "id");
  EXPECT_EQ(FileFormatOf(t->hms.sd), impala::THdfsFileFormat::PARQUET);
  EXPECT_EQ(Columns("events"), (std::vector<std::string>{"id", "payload"}));

  TableAlterationCommand add{"db", "events", alter::AddColumns{{Field("Region", "string")}}};
  ASSERT_DDL_OK(added, core_->AlterTableDefinition(caller_, add));
  EXPECT_EQ(Last().target, "db.events (ADD_COLUMNS)");
  EXPECT_EQ(Columns("events"), (std::vector<std::string>{"id", "payload", "region"}));

  AddPartitionsCommand parts{"db", "events", {{{{"day", "2026-12-08"}}, ""}}, false};
  ASSERT_DDL_OK(partitioned, core_->AddPartitions(caller_, parts));
  EXPECT_EQ(Last().target, "db.events (ADD_PARTITION)");
  EXPECT_EQ(ctx_.catalog->GetTable("db", "events")->partitions.size(), 1u);

  DropPartitionsCommand drop{"db", "events", {{{"day", "2026-12-08"}}}, false};
  ASSERT_DDL_OK(dropped, core_->DropPartitions(caller_, drop));
  EXPECT_TRUE(ctx_.catalog->GetTable("db", "events")->partitions.empty());

  CommentOnCommand comment;
  comment.target = CommentOnCommand::Target::kColumn;
  comment.db = "db";
  comment.table = "events";
  comment.column = "region";
  comment.comment = "where it happened";
  ASSERT_DDL_OK(commented, core_->CommentOn(caller_, comment));
  EXPECT_EQ(Last().kind, "COMMENT_ON");
  EXPECT_EQ(ctx_.catalog->GetTable("db", "events")->hms.sd.cols.back().comment,
            "where it happened");
}

TEST_F(DdlCommandTest, TheCoreValidatesWhatTheDoorTranslated) {
  ASSERT_TRUE(CreateTable("db", "t").ok());
  // A type the core cannot parse, whoever sent it.
  TableAlterationCommand bad{"db", "t", alter::AddColumns{{Field("c", "no_such_type")}}};
  Result<DdlOutcome> refused = core_->AlterTableDefinition(caller_, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().Is(ErrorCode::kInvalidArgument)) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("Invalid type of column 'c'"), std::string::npos)
      << refused.status().ToString();
  EXPECT_EQ(Last().status, "INVALID_ARGUMENT");
  EXPECT_EQ(Last().target, "db.t (ADD_COLUMNS)");

  // A sort column that is not a column; the table is not created.
  CreateTableCommand create;
  create.table.dbName = "db";
  create.table.tableName = "sorted";
  create.table.sd.cols = {Field("id", "int")};
  create.sort_by.columns = {"nope"};
  Result<DdlOutcome> unsorted = core_->CreateTable(caller_, create);
  ASSERT_FALSE(unsorted.ok());
  EXPECT_EQ(unsorted.status().message(), "Sort column does not exist: nope");
  EXPECT_EQ(ctx_.catalog->GetTable("db", "sorted"), nullptr);

  // A view takes only what a view may take.
  ASSERT_DDL_OK(view, core_->CreateTable(caller_, [] {
    CreateTableCommand v;
    v.table.dbName = "db";
    v.table.tableName = "v";
    v.table.tableType = "VIRTUAL_VIEW";
    v.table.viewOriginalText = "select 1";
    v.table.viewExpandedText = "select 1";
    v.table.sd.cols = {Field("x", "int")};
    return v;
  }()));
  EXPECT_EQ(Last().kind, "CREATE_VIEW");
  Result<DdlOutcome> on_view =
      core_->AlterTableDefinition(caller_, {"db", "v", alter::DropColumn{"x"}});
  ASSERT_FALSE(on_view.ok());
  EXPECT_EQ(on_view.status().message(), "ALTER TABLE DROP_COLUMN not allowed on a view: db.v");
}

TEST_F(DdlCommandTest, AnImpalaRequestAndTheCommandGetTheSameAnswerAndRecord) {
  ASSERT_TRUE(CreateTable("db", "a").ok());
  ASSERT_TRUE(CreateTable("db", "b").ok());
  // Column "name" exists in both: the same refusal from either way in.
  impala::TDdlExecRequest r = AlterReq("db", "a", A::ADD_COLUMNS);
  r.alter_table_params.__isset.add_cols_params = true;
  r.alter_table_params.add_cols_params.columns = {Col("name", "string")};
  Result<DdlOutcome> via_impala = Exec(r);
  const OperationRecord impala_record = Last();
  Result<DdlOutcome> via_command = core_->AlterTableDefinition(
      caller_, {"db", "b", alter::AddColumns{{Field("name", "string")}}});
  const OperationRecord command_record = Last();
  ASSERT_FALSE(via_impala.ok());
  ASSERT_FALSE(via_command.ok());
  EXPECT_EQ(via_impala.status().ToString(), via_command.status().ToString());
  EXPECT_EQ(impala_record.kind, command_record.kind);
  EXPECT_EQ(impala_record.target, "db.a (ADD_COLUMNS)");
  EXPECT_EQ(command_record.target, "db.b (ADD_COLUMNS)");
  EXPECT_EQ(impala_record.status, command_record.status);
  EXPECT_EQ(impala_record.message, command_record.message);
}

TEST_F(DdlCommandTest, WhatHasNoCommandIsRefusedAtTheDoorAndRecorded) {
  ASSERT_TRUE(CreateTable("db", "t").ok());
  impala::TDdlExecRequest cached = AlterReq("db", "t", A::SET_CACHED);
  Result<DdlOutcome> r = Exec(cached);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(ErrorCode::kNotImplemented)) << r.status().ToString();
  EXPECT_EQ(Last().kind, "ALTER_TABLE");
  EXPECT_EQ(Last().target, "db.t (SET_CACHED)");
  EXPECT_EQ(Last().status, "NOT_IMPLEMENTED");

  // An alteration without its params: refused before any command runs.
  Result<DdlOutcome> missing = Exec(AlterReq("db", "t", A::DROP_COLUMN));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "ALTER TABLE DROP_COLUMN request without drop_col_params");
  EXPECT_EQ(Last().status, "INVALID_ARGUMENT");

  Result<DdlOutcome> roles = Exec(Req(impala::TDdlType::CREATE_ROLE));
  ASSERT_FALSE(roles.ok());
  EXPECT_TRUE(roles.status().Is(ErrorCode::kNotImplemented));
  EXPECT_EQ(Last().kind, "CREATE_ROLE");
}

}  // namespace
}  // namespace ics::catalog::testing
