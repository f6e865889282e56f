// HmsRemoteMetastore: the Metastore interface (metastore.h) served by a
// remote Hive Metastore over its Thrift API (service ThriftHiveMetastore,
// common/thrift/hive_metastore_service.thrift; TBinaryProtocol over a
// buffered socket, as Hive clients and catalogd's own HMS endpoint use).
// catalogd selects it with --metastore=thrift://host:port (see
// hms_remote_options.h for the URI and its tuning parameters).
//
// Connections come from a bounded pool (hms_remote_pool.h); every call has
// connect/send/receive timeouts; reads are retried with backoff after
// transport errors, writes only when the request provably never reached the
// server. Error mapping: hms_remote_call.h. Reads that the Hive API answers
// loosely are made to honour the interface: lists are sorted as documented,
// NOT_FOUND is returned for an absent database/table/partition even where
// the Hive call would return an empty list (an extra existence read).
//
// Commit(txn) — what holds, precisely (the Hive API has no multi-call
// transactions):
//  - Ops are applied in order, one Hive call (or a few, e.g. a dropped
//    table's stats) per op; each Hive call is atomic on the server.
//  - Before applying an op that is not the txn's last, the state it
//    changes is read (its "pre-image"). If a later op fails, the ops
//    already applied are undone in reverse order with compensating calls
//    that restore the pre-images (drop what was created, re-create what
//    was dropped with its partitions and column stats, write back what was
//    altered), and the failing op's status is returned with the context
//    "metastore txn op <i> of <n> (<EVENT_TYPE>)" and a note that ops were
//    undone.
//  - Not atomic for observers: other clients may see the intermediate
//    states, and the notification log keeps the events of the undone ops
//    followed by those of their compensations.
//  - Undo is best effort: a concurrent writer that changed the same
//    objects between our pre-image read and the undo is overwritten by the
//    pre-image. If a compensating call fails, Commit returns IO_ERROR
//    saying which ops may remain applied (callers re-read, as for an
//    unknown outcome).
//  - A write whose reply was lost has an unknown outcome: Commit stops,
//    undoes nothing, and returns IO_ERROR naming the ops applied, the one
//    whose outcome is unknown and the ones not attempted.
//  - Ops the backend cannot express (table versions) fail the txn with
//    NOT_IMPLEMENTED before anything is applied.
//  - Returns the notification log's current event id read after the last
//    op: at least the id of our last event (it may include concurrent
//    writers' events). 0 for an empty txn.
// Table versions (the optional capability) are not kept: those reads keep
// the interface's NOT_IMPLEMENTED defaults.
//
// Thread-safety: thread-safe; calls from many threads share the pool.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/metastore/hms_remote_call.h"
#include "catalogd/metastore/hms_remote_options.h"
#include "catalogd/metastore/hms_remote_pool.h"
#include "catalogd/metastore/metastore.h"

namespace ics::catalog {

class HmsRemoteMetastore final : public Metastore {
 public:
  explicit HmsRemoteMetastore(const RemoteMetastoreOptions& options);
  ~HmsRemoteMetastore() override;

  Result<std::vector<std::string>> GetAllDatabases() override;
  Result<hive::Database> GetDatabase(const std::string& db) override;
  Result<std::vector<std::string>> GetAllTables(const std::string& db) override;
  Result<hive::Table> GetTable(const std::string& db, const std::string& table) override;
  Result<std::vector<hive::Partition>> GetPartitions(const std::string& db,
                                                     const std::string& table) override;
  Result<std::vector<hive::Partition>> GetPartitionsByNames(
      const std::string& db, const std::string& table,
      const std::vector<std::string>& names) override;
  Result<std::vector<impala::TFunction>> GetFunctions(const std::string& db) override;
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table) override;
  Result<std::vector<hive::ColumnStatisticsObj>> GetPartitionColumnStats(
      const std::string& db, const std::string& table, const std::string& partition_name) override;
  Result<int64_t> Commit(const MetastoreTxn& txn) override;
  Result<std::vector<NotificationEvent>> GetNextNotifications(int64_t after_event_id,
                                                              int max_events) override;
  Result<int64_t> CurrentNotificationEventId() override;

  // Column stats of several partitions of one table in one call: partition
  // name -> stats ordered by column (partitions without stats are absent).
  // NOT_FOUND if the table is absent.
  Result<std::map<std::string, std::vector<hive::ColumnStatisticsObj>>> GetPartitionsColumnStats(
      const std::string& db, const std::string& table, const std::vector<std::string>& names);

  // Closes the pool: later calls fail with SHUTDOWN; calls in progress are
  // interrupted. Idempotent; the destructor runs it.
  void Shutdown();

  HmsPoolStats pool_stats() const { return pool_.stats(); }
  const RemoteMetastoreOptions& options() const { return pool_.options(); }
  const HmsCaller& caller() const { return caller_; }

 private:
  Result<hive::Table> FetchTable(const std::string& db, const std::string& table);
  // Partitions as the server returns them, ordered by name and deduplicated.
  Result<std::vector<hive::Partition>> SortByName(const hive::Table& table,
                                                  std::vector<hive::Partition> parts);

  HmsClientPool pool_;
  HmsCaller caller_;
};

// Opens the remote backend and checks that the server answers (one
// notification-id read, with the usual retries): a wrong address fails here
// with a clear error instead of at the first DDL.
Result<std::unique_ptr<HmsRemoteMetastore>> OpenRemoteMetastore(
    const RemoteMetastoreOptions& options);

// Parses the URI (hms_remote_options.h), then OpenRemoteMetastore(). `tls`
// serves a URI with ssl=true (an error names the missing TLS setup when it
// is null).
Result<std::unique_ptr<HmsRemoteMetastore>> OpenRemoteMetastore(
    const std::string& uri, std::shared_ptr<const TlsContext> tls = nullptr);

// Opens the metastore a --metastore value names: "sqlite:<path>" (the
// embedded store, OpenSqliteMetastore), "postgresql://user@host:port/db[?...]"
// (OpenPostgresMetastore, pg_metastore.h) or "thrift://host:port[?...]" (a
// remote Hive Metastore). INVALID_ARGUMENT naming the forms for anything
// else; the opener's error otherwise.
Result<std::unique_ptr<Metastore>> OpenMetastoreFromUri(
    const std::string& uri, std::shared_ptr<const TlsContext> tls = nullptr);

}  // namespace ics::catalog
