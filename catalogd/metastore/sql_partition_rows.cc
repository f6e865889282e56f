#include "catalogd/metastore/sql_partition_rows.h"

#include <atomic>
#include <functional>
#include <string_view>
#include <thread>
#include <utility>

#include "catalogd/metastore/metastore_blob.h"
#include "common/util/exception_barrier.h"
#include "common/util/mutex.h"

namespace ics::catalog {

Status ForEachKeyedRow(
    sqldb::Connection* conn, const std::string& sql, std::initializer_list<std::string_view> keys,
    const std::function<Status(std::string_view key, std::string_view blob)>& visit) {
  ICS_ASSIGN_OR_RETURN(sqldb::Stmt st, conn->Prepare(sql));
  int idx = 1;
  for (std::string_view k : keys) st.BindText(idx++, k);
  while (true) {
    ICS_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return Status::OK();
    ICS_RETURN_IF_ERROR(visit(st.Text(0), st.Blob(1)));
  }
}

namespace {

uint64_t DigestOf(std::string_view blob) {
  const uint64_t d = std::hash<std::string_view>{}(blob);
  return d == 0 ? 1 : d;  // 0 means "no digest" to the catalog
}

// Row i of `rows` decoded as a partition of db.table; the row is released.
Result<hive::Partition> DecodeRow(PackedRows& rows, size_t i, const std::string& db,
                                  const std::string& table) {
  hive::Partition p;
  const Status s = DecodeBlobInto(rows.Blob(i), &p, [&] {
    return "partition of " + db + "." + table + ": " + std::string(rows.Key(i));
  });
  rows.Release(i);
  ICS_RETURN_IF_ERROR(s);
  p.dbName = db;
  p.tableName = table;
  return p;
}

class Reader final : public PartitionReader {
 public:
  Reader(PackedRows rows, std::string db, std::string table)
      : rows_(std::move(rows)), db_(std::move(db)), table_(std::move(table)) {
    rows_.Seal();  // all read
  }
  size_t size() const override { return rows_.size(); }
  std::optional<Stored> Peek(size_t i) const override {
    if (i >= rows_.size()) return std::nullopt;
    return Stored{rows_.Key(i), DigestOf(rows_.Blob(i))};
  }
  void Skip(size_t i) override {
    if (i < rows_.size()) rows_.Release(i);
  }
  Result<hive::Partition> Take(size_t i) override {
    if (i >= rows_.size()) return Status::InvalidArgument("partition row out of range");
    return DecodeRow(rows_, i, db_, table_);
  }

 private:
  PackedRows rows_;
  const std::string db_;
  const std::string table_;
};

// The rows of a streamed read, shared by the reading thread (Add) and the
// reader. Rows are handed over in batches under mu_.
class RowStream {
 public:
  static constexpr size_t kBatch = 16;

  explicit RowStream(size_t count) : count_(count) { rows_.Reserve(count); }

  Status Add(std::string_view key, std::string_view blob) EXCLUDES(mu_) {
    if (stop_.load(std::memory_order_relaxed)) {
      return Status(ErrorCode::kCancelled, "the partition reader is gone");
    }
    if (rows_.size() >= count_) return Status::Corruption("more partition rows than counted");
    rows_.Append(key, blob);
    if (rows_.size() % kBatch == 0) Publish(nullptr);
    return Status::OK();
  }
  // The read ended with `s`: hands over the last rows and wakes everyone.
  void Finish(Status s) EXCLUDES(mu_) {
    rows_.Seal();
    Publish(&s);
  }
  void Stop() { stop_.store(true, std::memory_order_relaxed); }

  // Waits until row i is read: OK, or the error that ended the read before.
  Status WaitFor(size_t i) EXCLUDES(mu_) {
    if (ready_.load(std::memory_order_acquire) > i) return Status::OK();
    MutexLock l(&mu_);
    while (published_ <= i && !done_) cv_.Wait(&mu_);
    if (published_ > i) return Status::OK();
    return error_.ok() ? Status::Internal("partition row " + std::to_string(i) + " was not read")
                       : error_;
  }
  // Rows below a count WaitFor confirmed.
  PackedRows& rows() { return rows_; }

 private:
  void Publish(Status* end) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    published_ = rows_.size();
    ready_.store(published_, std::memory_order_release);
    if (end != nullptr) {
      done_ = true;
      error_ = std::move(*end);
      if (error_.ok() && published_ < count_) {
        error_ = Status::Corruption("fewer partition rows than counted (" +
                                    std::to_string(published_) + " of " + std::to_string(count_) +
                                    ")");
      }
    }
    cv_.Broadcast();
  }

  const size_t count_;
  PackedRows rows_;  // appended by the reading thread only
  std::atomic<bool> stop_{false};
  std::atomic<size_t> ready_{0};  // published_, for the lock-free check
  Mutex mu_;
  CondVar cv_;
  size_t published_ GUARDED_BY(mu_) = 0;
  bool done_ GUARDED_BY(mu_) = false;
  Status error_ GUARDED_BY(mu_);
};

class StreamReader final : public PartitionReader {
 public:
  StreamReader(std::shared_ptr<RowStream> stream, std::thread thread, size_t n, std::string db,
               std::string table)
      : stream_(std::move(stream)),
        thread_(std::move(thread)),
        n_(n),
        db_(std::move(db)),
        table_(std::move(table)) {}
  ~StreamReader() override {
    stream_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  size_t size() const override { return n_; }
  std::optional<Stored> Peek(size_t i) const override {
    if (i >= n_ || !stream_->WaitFor(i).ok()) return std::nullopt;
    return Stored{stream_->rows().Key(i), DigestOf(stream_->rows().Blob(i))};
  }
  void Skip(size_t i) override {
    if (i < n_ && stream_->WaitFor(i).ok()) stream_->rows().Release(i);
  }
  Result<hive::Partition> Take(size_t i) override {
    if (i >= n_) return Status::InvalidArgument("partition row out of range");
    ICS_RETURN_IF_ERROR(stream_->WaitFor(i).WithContext("reading the partitions of " + db_ + "." +
                                                        table_));
    return DecodeRow(stream_->rows(), i, db_, table_);
  }

 private:
  const std::shared_ptr<RowStream> stream_;
  std::thread thread_;
  const size_t n_;
  const std::string db_;
  const std::string table_;
};

}  // namespace

std::unique_ptr<PartitionReader> PackedPartitionReader(PackedRows rows, std::string db,
                                                       std::string table) {
  return std::make_unique<Reader>(std::move(rows), std::move(db), std::move(table));
}

std::unique_ptr<PartitionReader> StreamedPartitionReader(
    size_t count, std::function<Status(const PartitionRowSink&)> read, std::string db,
    std::string table) {
  auto stream = std::make_shared<RowStream>(count);
  std::thread thread([stream, read = std::move(read)]() mutable {
    Status s;
    try {
      s = read([&stream](std::string_view key, std::string_view blob) {
        return stream->Add(key, blob);
      });
    } catch (...) {
      s = StatusFromCurrentException("reading partition rows");
    }
    read = nullptr;  // what it holds (a metastore connection) goes back now
    stream->Finish(std::move(s));
  });
  return std::make_unique<StreamReader>(std::move(stream), std::move(thread), count,
                                        std::move(db), std::move(table));
}

Result<std::unique_ptr<PartitionReader>> ReadPartitionRows(
    sqldb::ConnectionPool::Lease lease, const std::string& db, const std::string& table,
    const std::function<Status(sqldb::Connection*)>& check_table) {
  // Shared with the reading thread of a streamed read, which commits.
  struct Snapshot {
    explicit Snapshot(sqldb::ConnectionPool::Lease l) : lease(std::move(l)), txn(lease.get()) {}
    sqldb::ConnectionPool::Lease lease;
    sqldb::Transaction txn;
  };
  auto snap = std::make_shared<Snapshot>(std::move(lease));
  ICS_RETURN_IF_ERROR(snap->txn.Begin(sqldb::TxnKind::kRead));
  ICS_RETURN_IF_ERROR(check_table(snap->lease.get()));
  size_t count = 0;
  {  // finished before another thread may use the connection
    ICS_ASSIGN_OR_RETURN(
        sqldb::Stmt counted,
        snap->lease->Prepare("SELECT COUNT(*) FROM partitions WHERE db = ?1 AND tbl = ?2"));
    counted.BindText(1, db).BindText(2, table);
    ICS_ASSIGN_OR_RETURN(bool has_count, counted.Step());
    if (!has_count || counted.Int(0) < 0) return Status::Internal("COUNT(*) gave no count");
    count = static_cast<size_t>(counted.Int(0));
  }
  const std::string sql =
      "SELECT part_name, obj FROM partitions WHERE db = ?1 AND tbl = ?2 ORDER BY part_name";
  if (count < kStreamedPartitionsMin) {
    PackedRows rows;
    rows.Reserve(count);
    ICS_RETURN_IF_ERROR(ForEachKeyedRow(snap->lease.get(), sql, {db, table},
                                        [&rows](std::string_view key, std::string_view blob) {
                                          rows.Append(key, blob);
                                          return Status::OK();
                                        }));
    ICS_RETURN_IF_ERROR(snap->txn.Commit());
    return PackedPartitionReader(std::move(rows), db, table);
  }
  return StreamedPartitionReader(
      count,
      [snap, sql, db, table](const PartitionRowSink& sink) -> Status {
        ICS_RETURN_IF_ERROR(ForEachKeyedRow(snap->lease.get(), sql, {db, table}, sink));
        return snap->txn.Commit();
      },
      db, table);
}

}  // namespace ics::catalog
