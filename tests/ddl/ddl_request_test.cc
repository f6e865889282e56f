// Exactly-once DDL (request_recording_metastore.h): a request that carries
// an id is recorded with its change; a repeat (its reply was lost) is
// answered from the record without being carried out again, whether it
// looks the id up first (request_repeated) or races the original to the
// commit; a request that failed is not recorded, so its repeat runs.
#include "catalogd/metastore/request_recording_metastore.h"
#include "common/util/unique_id.h"
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using A = impala::TAlterTableType;

class DdlRequestTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    if (::testing::Test::IsSkipped() || ::testing::Test::HasFatalFailure()) return;
    if (!metastore_->LookupRequest("probe").ok()) GTEST_SKIP() << "this backend records no requests";
    recording_ = std::make_unique<RequestRecordingMetastore>(metastore_);
    ctx_.metastore = recording_.get();
    ASSERT_TRUE(CreateDb("db").ok());
  }
  void TearDown() override {
    ctx_.metastore = metastore_;
    DdlTest::TearDown();
  }

  static impala::TDdlExecRequest WithId(impala::TDdlExecRequest r, const impala::TUniqueId& id,
                                        bool repeated) {
    r.__isset.header = true;
    r.header.__set_request_id(id);
    if (repeated) r.header.__set_request_repeated(true);
    return r;
  }
  int64_t Events() { return *metastore_->CurrentNotificationEventId(); }

  std::unique_ptr<RequestRecordingMetastore> recording_;
};

TEST_F(DdlRequestTest, ARepeatIsAnsweredFromTheRecord) {
  const impala::TUniqueId id = GenerateUniqueId();
  ASSERT_DDL_OK(first, Exec(WithId(CreateTableReq("db", "t"), id, false)));
  auto seen = metastore_->LookupRequest(PrintId(id));
  ASSERT_TRUE(seen.ok() && seen->has_value());
  EXPECT_NE((*seen)->summary.find("db.t"), std::string::npos) << (*seen)->summary;
  const int64_t events = Events();

  // The reply was lost; the coordinator sends the same request again.
  ASSERT_DDL_OK(again, Exec(WithId(CreateTableReq("db", "t"), id, true)));
  EXPECT_NE(again.summary.find("carried out before"), std::string::npos) << again.summary;
  EXPECT_GE(again.version, first.version);
  EXPECT_EQ(Events(), events);  // nothing carried out again
  // Without an id the same statement fails: the table exists.
  EXPECT_FALSE(CreateTable("db", "t").ok());
  // Another request is another id.
  EXPECT_FALSE(Exec(WithId(CreateTableReq("db", "t"), GenerateUniqueId(), true)).ok());
}

TEST_F(DdlRequestTest, ARepeatThatRacesTheOriginalIsCaughtAtCommit) {
  ASSERT_TRUE(CreateTable("db", "t").ok());
  impala::TDdlExecRequest set = AlterReq("db", "t", A::SET_TBL_PROPERTIES);
  set.alter_table_params.__isset.set_tbl_properties_params = true;
  set.alter_table_params.set_tbl_properties_params.target = impala::TTablePropertyType::TBL_PROPERTY;
  set.alter_table_params.set_tbl_properties_params.properties = {{"a", "1"}};
  const impala::TUniqueId id = GenerateUniqueId();
  ASSERT_DDL_OK(first, Exec(WithId(set, id, false)));
  const int64_t events = Events();
  // Sent again without the lookup (both attempts past it): the commit finds
  // the id, applies nothing, and the answer is still success.
  ASSERT_DDL_OK(again, Exec(WithId(set, id, false)));
  EXPECT_NE(again.summary.find("carried out before"), std::string::npos) << again.summary;
  EXPECT_EQ(Events(), events);
}

TEST_F(DdlRequestTest, AFailedRequestIsNotRecordedAndItsRepeatRuns) {
  const impala::TUniqueId id = GenerateUniqueId();
  EXPECT_FALSE(Exec(WithId(CreateTableReq("nodb", "t"), id, false)).ok());
  auto seen = metastore_->LookupRequest(PrintId(id));
  ASSERT_TRUE(seen.ok());
  EXPECT_FALSE(seen->has_value());
  ASSERT_TRUE(CreateDb("nodb").ok());
  ASSERT_DDL_OK(again, Exec(WithId(CreateTableReq("nodb", "t"), id, true)));
  EXPECT_EQ(again.summary.find("carried out before"), std::string::npos) << again.summary;
  EXPECT_NE(catalog_->GetTable("nodb", "t"), nullptr);
}

}  // namespace
}  // namespace ics::catalog::testing
