// The parts of the Hive Metastore API (the calls of hive_metastore_service.thrift)
// over the catalog, and what each works with (HmsPart). HmsCore (hms_core.h)
// holds one of each: HmsConfig, HmsObjects, HmsPartitions, HmsStatistics,
// HmsFunctions, HmsNotifications. Every change (databases, tables, partitions, column
// statistics, functions) is a command of the command core
// (catalogd/ops/command_core.h): the same validation, admission, locks,
// operation record, metastore transaction, directories and catalog install
// as from every other door; the catalog holds it when the call returns.
// HmsCore translates: it fills in what Hive clients leave to the metastore
// and keeps Hive's naming of things. Every read is a query of the core's
// read side (catalogd/ops/catalog_queries.h); this door holds no metastore.
//
// Names: database, table, column and function names are validated with the
// catalog's rules (common/hive/names.h) and lower-cased, as Hive does.
// Partitions are named "k1=v1/k2=v2" (common/hive/partition_name.h).
//
// Errors are Status codes; the Thrift handler (hms_handler.h) turns them into
// each call's declared exceptions:
//   NOT_FOUND        the database/table/partition/function/statistics is absent
//   ALREADY_EXISTS   the object to create exists
//   INVALID_ARGUMENT the request is malformed (bad name, wrong value count,
//                    malformed filter, unsupported feature, non-empty database
//                    dropped without cascade, ...); the message says why
//   LIMIT_EXCEEDED   the result or request is larger than the configured bound
//   other codes      metastore failures (IO_ERROR, CORRUPTION, ...)
//
// Bounds: a request naming more than max_objects_per_request objects fails;
// a partition listing whose max_parts is negative (= all) fails with
// LIMIT_EXCEEDED when the table has more than max_partitions_per_request
// matching partitions (as hive.metastore.limit.partition.request does);
// notification reads return at most max_notification_events events.
//
// Directories: the command core's (created with a new database, table or
// partition; removed by drops with deleteData; a managed table renamed with
// its location unchanged moves, as Hive's metastore moves it).
//
// Thread-safety: thread-safe (stateless apart from the thread-safe core it
// uses, which must outlive it).
#pragma once

#include <optional>
#include <string>

#include "common/util/result.h"

namespace ics::catalog::ops {
class CatalogQueries;
class CommandCore;
}  // namespace ics::catalog::ops

namespace ics::catalog::hms {

struct HmsCoreOptions {
  std::string warehouse_dir;  // required: default locations and deleteData bound
  // The one catalog this endpoint serves (Hive 3/4 clients name it in
  // "@<catalog>#<db>" and in catName fields); lower-case.
  std::string catalog_name = "hive";
  int max_partitions_per_request = 100000;
  int max_objects_per_request = 10000;
  int max_notification_events = 10000;
};

// What every part of the API works with: the core's read side, the command
// core, and the endpoint's options (all outlive the part).
class HmsPart {
 public:
  HmsPart(ops::CatalogQueries* reads, ops::CommandCore* commands, const HmsCoreOptions* opts)
      : reads_(reads), commands_(commands), opts_(*opts) {}

 protected:
  // A database name as a Hive 3/4 client sends it ("@<catalog>#<db>",
  // ParseCatalogDbName) or a plain name: the name in the served catalog.
  // NOT_FOUND "No such catalog c" for another catalog; INVALID_ARGUMENT for
  // a malformed name or one that names no database ("@hive#").
  Result<std::string> Db(const std::string& name) const;
  // A database name pattern (get_databases, get_table_meta) likewise;
  // "@<catalog>#" alone is every database of that catalog.
  Result<std::string> DbPattern(const std::string& pattern) const;
  // A catName / catalogName field of an object or request: unset (empty)
  // or the served catalog (case-insensitive); else NOT_FOUND.
  [[nodiscard]] Status CheckCatalog(const std::string& catalog) const;

  ops::CatalogQueries* const reads_;
  ops::CommandCore* const commands_;
  const HmsCoreOptions& opts_;
};

// A database name with its catalog, as Hive 3/4 clients write it: "@" +
// catalog + "#" + database ("@hive#sales"); "@hive#" names the catalog and
// no database (db unset), "@hive#!" the empty database name. A name without
// the leading "@" is a plain database name of `default_catalog`. The
// catalog is lower-cased. INVALID_ARGUMENT for "@..." without "#" or with
// an empty catalog.
struct CatalogDbName {
  std::string catalog;
  std::optional<std::string> db;
};
Result<CatalogDbName> ParseCatalogDbName(const std::string& name,
                                         const std::string& default_catalog);

// HMS name patterns (get_databases, get_tables, get_functions,
// get_table_meta): '*' matches any characters, '|' separates alternatives,
// everything else matches itself, case-insensitively. "" matches everything.
bool MatchesHmsPattern(const std::string& pattern, const std::string& name);

}  // namespace ics::catalog::hms
