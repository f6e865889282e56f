// Fixture for the HMS event processor tests.
//
// EventsTest extends the DDL tests' fixture (a real metastore of the backend
// the binary links, ddl_test_util.h; local filesystem behind TestFileSystem
// for fault injection, loader, catalog, load manager, DDL executor, in a
// temp dir): DDL commits go through the self-event recorder as catalogd
// wires it, a second handle on the same store plays the external writer
// (another process / the HMS endpoint), and an EventProcessor without a
// thread follows the log: tests call Poll() to process what is in it.
//
// Thread-safety: used by one test thread.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/events/event_processor.h"
#include "catalogd/events/self_event_log.h"
#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {

class EventsTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    if (HasFatalFailure()) return;
    auto ext = backend_->OpenAnother();
    ASSERT_TRUE(ext.ok()) << ext.status().ToString();
    external_ = std::move(ext).value();
    // As catalogd wires it: DDL commits through the self-recording decorator.
    self_events_ = std::make_unique<SelfEventLog>();
    decorated_ = std::make_unique<SelfRecordingMetastore>(metastore_, self_events_.get());
    ctx_.metastore = decorated_.get();
    EventProcessorOptions eo;
    eo.poll_interval_ms = 1000;
    eo.batch_size = batch_size_;
    eo.start_thread = false;
    processor_ = std::make_unique<EventProcessor>(&ctx_, self_events_.get(), eo);
    auto start = metastore_->CurrentNotificationEventId();
    ASSERT_TRUE(start.ok());
    ASSERT_TRUE(processor_->Start(*start).ok());
  }

  void TearDown() override {
    if (processor_) processor_->Stop();
    processor_.reset();
    external_.reset();
    DdlTest::TearDown();
  }

  // Processes everything in the log (several batches if needed).
  void Poll() {
    for (int i = 0; i < 1000; ++i) {
      Result<int> n = processor_->PollOnce();
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      if (*n < batch_size_) return;
    }
    FAIL() << "the log did not drain";
  }

  // ---- the external writer ----

  void ExternalCommit(std::vector<MetastoreOp> ops) {
    MetastoreTxn txn;
    txn.ops = std::move(ops);
    Result<int64_t> r = external_->Commit(txn);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  static MetastoreOp Op(MetastoreOp::Kind kind) {
    MetastoreOp op;
    op.kind = kind;
    return op;
  }

  hive::Database MakeDb(const std::string& name, const std::string& description = "") {
    hive::Database d;
    d.name = name;
    d.description = description;
    d.locationUri = warehouse_ + "/" + name + ".db";
    return d;
  }

  void ExternalCreateDb(const std::string& name) {
    MetastoreOp op = Op(MetastoreOp::Kind::kCreateDatabase);
    op.database = MakeDb(name);
    ExternalCommit({op});
  }

  // db.table (id int, name string), partitioned by p string if `partitioned`.
  hive::Table MakeTable(const std::string& db, const std::string& table, bool partitioned) {
    hive::Table t;
    t.dbName = db;
    t.tableName = table;
    t.owner = "external";
    t.tableType = "MANAGED_TABLE";
    hive::FieldSchema id, name;
    id.name = "id";
    id.type = "int";
    name.name = "name";
    name.type = "string";
    t.sd.cols = {id, name};
    t.sd.location = TableDir(db, table);
    t.sd.inputFormat = "org.apache.hadoop.mapred.TextInputFormat";
    t.sd.outputFormat = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    t.sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
    if (partitioned) {
      hive::FieldSchema p;
      p.name = "p";
      p.type = "string";
      t.partitionKeys = {p};
    }
    std::filesystem::create_directories(t.sd.location);
    return t;
  }

  void ExternalCreateTable(const std::string& db, const std::string& table, bool partitioned) {
    MetastoreOp op = Op(MetastoreOp::Kind::kCreateTable);
    op.table = MakeTable(db, table, partitioned);
    ExternalCommit({op});
  }

  hive::Partition MakePartition(const std::string& db, const std::string& table,
                                const std::string& value, int files = 1) {
    hive::Partition p;
    p.dbName = db;
    p.tableName = table;
    p.values = {value};
    p.sd = MakeTable(db, table, true).sd;
    p.sd.location = TableDir(db, table) + "/p=" + value;
    std::filesystem::create_directories(p.sd.location);
    for (int i = 0; i < files; ++i) {
      std::ofstream(p.sd.location + "/f" + std::to_string(i) + ".txt") << "1,a\n2,b\n";
    }
    return p;
  }

  MetastoreOp AddPartitionOp(const std::string& db, const std::string& table,
                             const std::string& value, int files = 1) {
    MetastoreOp op = Op(MetastoreOp::Kind::kAddPartition);
    op.partition = MakePartition(db, table, value, files);
    return op;
  }

  // A loaded table db.t partitioned by p with partitions p=a, p=b (external).
  TablePtr LoadedPartitionedTable(const std::string& db, const std::string& table) {
    ExternalCreateDb(db);
    ExternalCreateTable(db, table, true);
    ExternalCommit({AddPartitionOp(db, table, "a"), AddPartitionOp(db, table, "b")});
    Poll();
    auto r = loads_->GetLoaded(db, table);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  EventProcessorStatus Stats() const { return processor_->GetStatus(); }

  const int batch_size_ = 1000;
  std::unique_ptr<Metastore> external_;
  std::unique_ptr<SelfEventLog> self_events_;
  std::unique_ptr<Metastore> decorated_;
  std::unique_ptr<EventProcessor> processor_;
};

}  // namespace ics::catalog::testing
