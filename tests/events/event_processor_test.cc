// The event processor's own behaviour: skipping catalogd's own events,
// convergence when own DDL and external writes interleave, corrupt and
// unknown events, failures that invalidate a table, pause / resume, waits.
#include <ctime>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "catalogd/metastore/forwarding_metastore.h"

#include "tests/events/events_test_util.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::testing {
namespace {

using Kind = MetastoreOp::Kind;

// Appends a raw row to the notification log, as a broken writer might
// (the same SQL for every backend: the next id after the log's highest).
void InsertRawEvent(DdlTestBackend* backend, const std::string& type, const std::string& message) {
  auto quoted = [](const std::string& v) {
    std::string out = "'";
    for (char c : v) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  };
  Status s = backend->RawSql(
      "INSERT INTO notification_log (event_id, event_time, event_type, db, tbl, message) "
      "VALUES ((SELECT COALESCE(MAX(event_id), 0) + 1 FROM notification_log), " +
      std::to_string(std::time(nullptr)) + ", " + quoted(type) + ", 'd', 't', " + quoted(message) +
      ")");
  ASSERT_TRUE(s.ok()) << s.ToString();
}

TEST_F(EventsTest, OwnDdlIsNotAppliedAgain) {
  ASSERT_DDL_OK(db, CreateDb("own"));
  TableOptions opts;
  opts.partition_columns = {Col("p", "string")};
  ASSERT_DDL_OK(tbl, CreateTable("own", "t", opts));
  ASSERT_DDL_OK(parts, AddPartitions("own", "t", {{Kv("p", "1")}, {Kv("p", "2")}}));
  ASSERT_TRUE(loads_->GetLoaded("own", "t").ok());
  const int64_t v = catalog_->version();
  TablePtr before = catalog_->GetTable("own", "t");
  ASSERT_TRUE(before->loaded);
  Poll();
  const EventProcessorStatus s = Stats();
  EXPECT_EQ(s.events_skipped_self, 4);  // db, table, two partitions
  EXPECT_EQ(s.events_applied, 0);
  EXPECT_EQ(s.catalog_versions, 0);
  EXPECT_EQ(catalog_->version(), v);
  EXPECT_EQ(catalog_->GetTable("own", "t"), before);  // same loaded state, not invalidated
  EXPECT_EQ(self_events_->num_ranges(), 0u);           // forgotten once passed
}

TEST_F(EventsTest, OlderExternalEventDoesNotUndoNewerOwnDdl) {
  TablePtr loaded = LoadedPartitionedTable("d", "t");
  ASSERT_NE(loaded, nullptr);
  // External: a property. Then catalogd's own DDL: a column, then a
  // partition. The external event is processed last and must keep both.
  hive::Table ext = *external_->GetTable("d", "t");
  ext.parameters["owner_team"] = "ext";
  MetastoreOp alter = Op(Kind::kAlterTable);
  alter.db_name = "d";
  alter.table_name = "t";
  alter.table = ext;
  ExternalCommit({alter});
  impala::TDdlExecRequest add_col = AlterReq("d", "t", impala::TAlterTableType::ADD_COLUMNS);
  add_col.alter_table_params.__isset.add_cols_params = true;
  add_col.alter_table_params.add_cols_params.columns = {Col("c3", "double")};
  ASSERT_DDL_OK(col, Exec(add_col));
  ASSERT_DDL_OK(part, AddPartitions("d", "t", {{Kv("p", "own")}}));
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_TRUE(t->loaded);
  EXPECT_EQ(t->hms.parameters.at("owner_team"), "ext");
  ASSERT_EQ(t->columns.size(), 3u);
  EXPECT_EQ(t->columns[2].columnName, "c3");
  EXPECT_NE(t->FindPartition("p=own"), nullptr);
  EXPECT_NE(t->FindPartition("p=a"), nullptr);
  EXPECT_EQ(Stats().events_skipped_self, 2);
}

TEST_F(EventsTest, CorruptEventsAreSkippedAndCounted) {
  TablePtr loaded = LoadedPartitionedTable("d", "t");
  ASSERT_NE(loaded, nullptr);
  InsertRawEvent(backend_.get(), "ADD_PARTITION", "this is not json");
  InsertRawEvent(backend_.get(), "ADD_PARTITION", R"({"db":"d","table":"t"})");  // no partition
  InsertRawEvent(backend_.get(), "CREATE_TABLE",
                 R"({"db":"d","table":"t","object":"AAAAAAAA"})");  // not a table
  ExternalCommit({AddPartitionOp("d", "t", "good")});
  Poll();
  const EventProcessorStatus s = Stats();
  EXPECT_EQ(s.errors, 3);
  EXPECT_NE(s.last_error.find("corrupt"), std::string::npos) << s.last_error;
  EXPECT_EQ(s.lag_events, 0);
  EXPECT_EQ(s.state, EventProcessorState::kActive);
  // The good event after them was applied.
  EXPECT_NE(catalog_->GetTable("d", "t")->FindPartition("p=good"), nullptr);
}

TEST_F(EventsTest, UnknownEventTypeInvalidatesTheTable) {
  TablePtr loaded = LoadedPartitionedTable("d", "t");
  ASSERT_NE(loaded, nullptr);
  InsertRawEvent(backend_.get(), "INSERT", R"({"db":"d","table":"t"})");
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->loaded);
  EXPECT_EQ(Stats().invalidations, 1);
  EXPECT_EQ(Stats().errors, 0);
  EXPECT_TRUE(loads_->GetLoaded("d", "t").ok());  // reloads on next use
}

TEST_F(EventsTest, AnEventThatCannotBeAppliedInvalidatesTheTable) {
  TablePtr loaded = LoadedPartitionedTable("d", "t");
  ASSERT_NE(loaded, nullptr);
  fs_.FailList("p=broken");
  ExternalCommit({AddPartitionOp("d", "t", "broken")});
  Poll();
  TablePtr t = catalog_->GetTable("d", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->loaded);
  EXPECT_FALSE(t->load_status.ok());
  EXPECT_EQ(Stats().invalidations, 1);
  EXPECT_EQ(Stats().errors, 1);
  EXPECT_EQ(Stats().lag_events, 0);  // it moved on
  fs_.FailList("");
  auto again = loads_->GetLoaded("d", "t");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_NE((*again)->FindPartition("p=broken"), nullptr);
}

TEST_F(EventsTest, PauseAndResume) {
  ASSERT_TRUE(processor_->Pause().ok());
  ExternalCreateDb("later");
  Poll();
  EXPECT_EQ(catalog_->GetDatabase("later"), nullptr);
  EXPECT_EQ(Stats().state, EventProcessorState::kPaused);
  EXPECT_FALSE(processor_->WaitForSync(std::chrono::milliseconds(100)).ok());
  ASSERT_TRUE(processor_->Resume(std::nullopt).ok());
  Poll();
  EXPECT_NE(catalog_->GetDatabase("later"), nullptr);

  // Resuming from the latest event skips what is pending.
  ASSERT_TRUE(processor_->Pause().ok());
  ExternalCreateDb("skipped");
  ASSERT_TRUE(processor_->Resume(-1).ok());
  Poll();
  EXPECT_EQ(catalog_->GetDatabase("skipped"), nullptr);
  // Ids beyond the log and below -1 are refused.
  const int64_t latest = *metastore_->CurrentNotificationEventId();
  EXPECT_TRUE(processor_->Resume(latest + 5).Is(ErrorCode::kInvalidArgument));
  EXPECT_FALSE(processor_->Resume(-2).ok());
  // Going back re-applies (idempotently).
  ASSERT_TRUE(processor_->Resume(latest - 1).ok());
  Poll();
  EXPECT_NE(catalog_->GetDatabase("skipped"), nullptr);
}

// Throws from GetNextNotifications while throws_left > 0 (fault injection
// for the processor's exception barrier); forwards everything else.
class ThrowingLogMetastore final : public ForwardingMetastore {
 public:
  using ForwardingMetastore::ForwardingMetastore;
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after,
                                                              int max_events) override {
    if (throws_left.fetch_sub(1) > 0) throw std::runtime_error("log reader exploded");
    return ForwardingMetastore::GetNextNotifications(after, max_events);
  }
  std::atomic<int> throws_left{0};
};

TEST_F(EventsTest, APollThatThrowsIsAnErrorAndTheNextPollCatchesUp) {
  ThrowingLogMetastore thrower(ctx_.metastore);
  thrower.throws_left = 1;
  ctx_.metastore = &thrower;
  ExternalCreateDb("after_throw");
  Result<int> n = processor_->PollOnce();
  ASSERT_FALSE(n.ok());
  EXPECT_TRUE(n.status().Is(ErrorCode::kInternalError)) << n.status().ToString();
  EventProcessorStatus s = Stats();
  EXPECT_EQ(s.state, EventProcessorState::kError);
  EXPECT_EQ(s.exceptions, 1);
  EXPECT_NE(s.last_error.find("log reader exploded"), std::string::npos) << s.last_error;
  EXPECT_EQ(catalog_->GetDatabase("after_throw"), nullptr);
  Poll();  // the same batch again
  EXPECT_NE(catalog_->GetDatabase("after_throw"), nullptr);
  EXPECT_EQ(Stats().state, EventProcessorState::kActive);
  ctx_.metastore = decorated_.get();
}

TEST_F(EventsTest, LostEventsTriggerAFullInvalidate) {
  // A processor wired as catalogd wires it: lost events -> INVALIDATE METADATA.
  processor_->Stop();
  EventProcessorOptions eo;
  eo.poll_interval_ms = 1000;
  eo.batch_size = batch_size_;
  eo.start_thread = false;
  DdlExecutor* ddl = ddl_.get();
  int invalidates = 0;
  eo.invalidate_all = [ddl, &invalidates]() -> Status {
    ++invalidates;
    ResetCommand all;
    all.kind = ResetCommand::Kind::kInvalidateAll;
    return ddl->Reset(all).status();
  };
  processor_ = std::make_unique<EventProcessor>(&ctx_, self_events_.get(), eo);
  const int64_t start = *metastore_->CurrentNotificationEventId();
  ASSERT_TRUE(processor_->Start(start).ok());
  ExternalCreateDb("lost1");
  ExternalCreateDb("lost2");
  // Another process prunes the log before this processor read those events.
  NotificationRetention r;
  r.max_events = 1;
  ASSERT_TRUE(external_->PruneNotifications(r).ok());
  const int64_t latest = *metastore_->CurrentNotificationEventId();
  Result<int> n = processor_->PollOnce();
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EventProcessorStatus s = Stats();
  EXPECT_EQ(invalidates, 1);
  EXPECT_EQ(s.full_invalidations, 1);
  EXPECT_EQ(s.last_synced_event_id, latest);
  EXPECT_EQ(s.state, EventProcessorState::kActive);
  EXPECT_NE(s.last_error.find("deleted before they were processed"), std::string::npos);
  EXPECT_NE(catalog_->GetDatabase("lost1"), nullptr);  // reloaded, not lost
  EXPECT_NE(catalog_->GetDatabase("lost2"), nullptr);
  // Then it follows the log as usual.
  ExternalCreateDb("after");
  Poll();
  EXPECT_NE(catalog_->GetDatabase("after"), nullptr);
  EXPECT_EQ(Stats().full_invalidations, 1);
}

TEST_F(EventsTest, LostEventsWithoutAnInvalidateHookStopAndSaySo) {
  const int64_t synced = Stats().last_synced_event_id;
  ExternalCreateDb("gone1");
  ExternalCreateDb("gone2");
  NotificationRetention r;
  r.max_events = 1;
  ASSERT_TRUE(external_->PruneNotifications(r).ok());
  Result<int> n = processor_->PollOnce();
  ASSERT_FALSE(n.ok());
  EventProcessorStatus s = Stats();
  EXPECT_EQ(s.state, EventProcessorState::kError);
  EXPECT_EQ(s.last_synced_event_id, synced);  // does not skip silently
  EXPECT_NE(s.last_error.find("INVALIDATE METADATA"), std::string::npos) << s.last_error;
  EXPECT_EQ(catalog_->GetDatabase("gone1"), nullptr);
  // The operator's way out: resume from the latest event.
  ASSERT_TRUE(processor_->Resume(-1).ok());
  Poll();
  EXPECT_EQ(Stats().state, EventProcessorState::kActive);
}

// A catalog stack whose loader reads `raw` and whose event processor reads
// the log through `ms`, for the poll-thread tests.
struct PollStack {
  PollStack(Metastore* raw, Metastore* ms)
      : loader(raw, &fs, LoaderOptions(), catalog.partition_id_allocator()),
        loads(&catalog, &loader, 0) {
    ctx.catalog = &catalog;
    ctx.metastore = ms;
    ctx.fs = &fs;
    ctx.loader = &loader;
    ctx.loads = &loads;
  }
  ~PollStack() { loads.Shutdown(); }

  Catalog catalog;
  LocalFileSystem fs;
  TableLoader loader;
  TableLoadManager loads;
  CatalogContext ctx;
};

// Commits CREATE DATABASE `name` through another connection to the same file.
void CreateDatabaseExternally(Metastore* ext, const std::string& name) {
  hive::Database db;
  db.name = name;
  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::CreateDatabase(name, db));
  ASSERT_TRUE(ext->Commit(txn).ok());
}

// The binary's backend in a temp dir: the poller's handle and an external
// writer's, on one store.
class TwoHandles {
 public:
  void Open(const ::ics::testing::TempDir& tmp) {
    ASSERT_TRUE(tmp.ok()) << tmp.error();
    auto backend = OpenDdlTestBackend(tmp.path());
    ASSERT_TRUE(backend.ok()) << backend.status().ToString();
    backend_ = std::move(backend).value();
    auto ext = backend_->OpenAnother();
    ASSERT_TRUE(ext.ok()) << ext.status().ToString();
    writer_ = std::move(ext).value();
  }
  Metastore* poller() { return backend_->metastore(); }
  Metastore* writer() { return writer_.get(); }

 private:
  std::unique_ptr<DdlTestBackend> backend_;
  std::unique_ptr<Metastore> writer_;  // destroyed first
};

TEST(EventProcessorThreadTest, ThePollThreadSurvivesExceptions) {
  ::ics::testing::TempDir tmp("ics_events_throw");
  TwoHandles h;
  ASSERT_NO_FATAL_FAILURE(h.Open(tmp));
  Metastore* raw = h.poller();
  Metastore* ext = h.writer();
  SelfEventLog self;
  ThrowingLogMetastore thrower(raw);
  thrower.throws_left = 3;
  PollStack stack(raw, &thrower);
  EventProcessorOptions eo;
  eo.poll_interval_ms = 10;
  EventProcessor p(&stack.ctx, &self, eo);
  ASSERT_TRUE(p.Start(0).ok());
  CreateDatabaseExternally(ext, "survivor");
  Result<int64_t> v = p.WaitForSync(std::chrono::seconds(30));
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_NE(stack.catalog.GetDatabase("survivor"), nullptr);
  EXPECT_EQ(p.GetStatus().exceptions, 3);
  EXPECT_EQ(p.GetStatus().state, EventProcessorState::kActive);
  p.Stop();
}

TEST(EventProcessorThreadTest, WaitForSyncFollowsAnExternalWriter) {
  ::ics::testing::TempDir tmp("ics_events_wait");
  TwoHandles h;
  ASSERT_NO_FATAL_FAILURE(h.Open(tmp));
  Metastore* raw = h.poller();
  Metastore* ext = h.writer();
  SelfEventLog self;
  SelfRecordingMetastore ms(raw, &self);
  PollStack stack(raw, &ms);
  EventProcessorOptions eo;
  eo.poll_interval_ms = 20;
  EventProcessor p(&stack.ctx, &self, eo);
  ASSERT_TRUE(p.Start(0).ok());
  CreateDatabaseExternally(ext, "w");
  Result<int64_t> v = p.WaitForSync(std::chrono::seconds(30));
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_NE(stack.catalog.GetDatabase("w"), nullptr);
  EXPECT_GE(*v, stack.catalog.GetDatabase("w")->version);
  p.Stop();
  p.Stop();  // idempotent
  EXPECT_EQ(p.GetStatus().state, EventProcessorState::kDisabled);
  EXPECT_FALSE(p.WaitForSync(std::chrono::milliseconds(10)).ok());
}

TEST(EventProcessorThreadTest, DisabledProcessorRefusesControl) {
  Catalog catalog;
  CatalogContext ctx;
  ctx.catalog = &catalog;
  SelfEventLog self;
  EventProcessorOptions eo;
  eo.poll_interval_ms = 0;
  EventProcessor p(&ctx, &self, eo);
  ASSERT_TRUE(p.Start(7).ok());
  EXPECT_EQ(p.GetStatus().state, EventProcessorState::kDisabled);
  EXPECT_EQ(p.GetStatus().last_synced_event_id, 7);
  EXPECT_FALSE(p.Pause().ok());
  EXPECT_FALSE(p.Resume(std::nullopt).ok());
  EXPECT_FALSE(p.WaitForSync(std::chrono::milliseconds(10)).ok());
  Result<int> n = p.PollOnce();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0);
}

}  // namespace
}  // namespace ics::catalog::testing
