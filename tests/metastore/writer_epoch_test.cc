// Writer epochs (catalogd HA fencing), on every backend, with two metastore
// handles on one store as two catalogd processes have: a commit fenced with
// an epoch that another writer has since replaced applies nothing and says
// who holds the role; FencedMetastore refuses without an epoch and drops its
// epoch after one refusal.
#include <gtest/gtest.h>

#include "catalogd/metastore/fenced_metastore.h"
#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/metastore.h"
#include "tests/external/metastore_backends.h"
#include "tests/metastore/metastore_test_util.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)

class WriterEpochTest : public ::testing::TestWithParam<external::MetastoreBackend> {
 protected:
  void SetUp() override {
    auto uri = external::FreshMetastoreUri(GetParam(), dir_.path());
    ASSERT_TRUE(uri.ok()) << uri.status().ToString();
    auto a = OpenMetastoreFromUri(*uri);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    auto b = OpenMetastoreFromUri(*uri);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    a_ = std::move(a).value();
    b_ = std::move(b).value();
  }

  static WriterEpochClaim Claim(int64_t designation, const std::string& holder,
                                int64_t held_epoch = 0) {
    return WriterEpochClaim{designation, holder, "catalogd " + holder, held_epoch};
  }

  TempDir dir_;
  std::unique_ptr<Metastore> a_;
  std::unique_ptr<Metastore> b_;
};

TEST_P(WriterEpochTest, NewerEpochFencesTheOlderOne) {
  auto none = a_->ReadWriterEpoch();
  ASSERT_OK(none);
  EXPECT_EQ(none->epoch, 0);

  auto ea = a_->AcquireWriterEpoch(Claim(1, "catalogd-a"));
  ASSERT_OK(ea);
  EXPECT_EQ(ea->epoch, 1);
  EXPECT_EQ(ea->holder, "catalogd-a");
  EXPECT_EQ(ea->designation, 1);
  ASSERT_OK(a_->CommitFenced(Txn({CreateDbOp(MakeDb("by_a"))}), ea->epoch));

  auto eb = b_->AcquireWriterEpoch(Claim(2, "catalogd-b"));
  ASSERT_OK(eb);
  EXPECT_EQ(eb->epoch, 2);
  const int64_t head = *a_->CurrentNotificationEventId();
  auto fenced = a_->CommitFenced(Txn({CreateDbOp(MakeDb("late_a"))}), ea->epoch);
  ASSERT_FALSE(fenced.ok());
  EXPECT_TRUE(fenced.status().Is(ErrorCode::kCatalogInStandbyMode)) << fenced.status().ToString();
  EXPECT_NE(fenced.status().message().find("catalogd-b"), std::string::npos)
      << fenced.status().ToString();
  // Nothing of the refused txn is there: no database, no event.
  EXPECT_FALSE(b_->GetDatabase("late_a").ok());
  EXPECT_EQ(*b_->CurrentNotificationEventId(), head);
  ASSERT_OK(b_->CommitFenced(Txn({CreateDbOp(MakeDb("by_b"))}), eb->epoch));
  EXPECT_TRUE(a_->GetDatabase("by_b").ok());
  // Unfenced commits (external writers, e.g. the HMS endpoint) are not
  // affected.
  ASSERT_OK(a_->Commit(Txn({CreateDbOp(MakeDb("external"))})));
  auto read = a_->ReadWriterEpoch();
  ASSERT_OK(read);
  EXPECT_EQ(read->epoch, 2);
  EXPECT_EQ(read->holder, "catalogd-b");
  EXPECT_EQ(read->owner, "catalogd catalogd-b");
}

// Epochs are ordered by designation, not by who wrote last: a takeover for
// an overtaken designation (a late announcement, a cancelled takeover)
// cannot fence the newer designee, which can always take the epoch; the
// holder re-keys its epoch in place for a newer designation of its own.
TEST_P(WriterEpochTest, EpochsAreOrderedByDesignation) {
  auto eb = b_->AcquireWriterEpoch(Claim(5, "catalogd-b"));
  ASSERT_OK(eb);
  EXPECT_EQ(eb->epoch, 1);
  for (int64_t stale : {int64_t{4}, int64_t{5}}) {
    auto refused = a_->AcquireWriterEpoch(Claim(stale, "catalogd-a"));
    ASSERT_FALSE(refused.ok()) << stale;
    EXPECT_TRUE(refused.status().Is(ErrorCode::kCatalogInStandbyMode)) << refused.status().ToString();
    EXPECT_NE(refused.status().message().find("catalogd-b"), std::string::npos);
  }
  ASSERT_OK(b_->CommitFenced(Txn({CreateDbOp(MakeDb("still_b"))}), eb->epoch));

  // The holder repeats its claim (a takeover retried): a new epoch.
  auto again = b_->AcquireWriterEpoch(Claim(5, "catalogd-b"));
  ASSERT_OK(again);
  EXPECT_EQ(again->epoch, 2);
  // A newer designation of the holder, with the epoch it holds: re-keyed in
  // place, its commits keep applying.
  auto rekeyed = b_->AcquireWriterEpoch(Claim(7, "catalogd-b", again->epoch));
  ASSERT_OK(rekeyed);
  EXPECT_EQ(rekeyed->epoch, 2);
  EXPECT_EQ(rekeyed->designation, 7);
  ASSERT_OK(b_->CommitFenced(Txn({CreateDbOp(MakeDb("rekeyed_b"))}), again->epoch));
  EXPECT_FALSE(a_->AcquireWriterEpoch(Claim(6, "catalogd-a")).ok());

  // A newer designee takes it and fences the holder.
  auto ea = a_->AcquireWriterEpoch(Claim(8, "catalogd-a"));
  ASSERT_OK(ea);
  EXPECT_EQ(ea->epoch, 3);
  EXPECT_FALSE(b_->CommitFenced(Txn({CreateDbOp(MakeDb("late_b"))}), again->epoch).ok());
  EXPECT_FALSE(a_->GetDatabase("late_b").ok());
  EXPECT_FALSE(a_->AcquireWriterEpoch(Claim(0, "catalogd-a")).ok());  // no designation
}

TEST_P(WriterEpochTest, FencedMetastoreStepsDownOnce) {
  FencedMetastore fence(a_.get());
  int fenced_calls = 0;
  fence.SetOnFenced([&](const Status&) { ++fenced_calls; });
  auto standby = fence.Commit(Txn({CreateDbOp(MakeDb("x"))}));
  ASSERT_FALSE(standby.ok());
  EXPECT_TRUE(standby.status().Is(ErrorCode::kCatalogInStandbyMode));
  EXPECT_FALSE(a_->GetDatabase("x").ok());

  auto ea = a_->AcquireWriterEpoch(Claim(1, "a"));
  ASSERT_OK(ea);
  fence.SetEpoch(ea->epoch);
  ASSERT_OK(fence.Commit(Txn({CreateDbOp(MakeDb("x"))})));
  ASSERT_OK(b_->AcquireWriterEpoch(Claim(2, "b")));
  auto refused = fence.Commit(Txn({CreateDbOp(MakeDb("y"))}));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(fenced_calls, 1);
  EXPECT_EQ(fence.epoch(), 0);
  // Later commits stop before the database.
  ASSERT_FALSE(fence.Commit(Txn({CreateDbOp(MakeDb("z"))})).ok());
  EXPECT_EQ(fenced_calls, 1);
  EXPECT_FALSE(b_->GetDatabase("y").ok());
  EXPECT_FALSE(b_->GetDatabase("z").ok());
}

INSTANTIATE_TEST_SUITE_P(Backends, WriterEpochTest,
                         ::testing::ValuesIn(external::AllMetastoreBackends()),
                         external::MetastoreBackendName);

}  // namespace
}  // namespace ics::catalog
