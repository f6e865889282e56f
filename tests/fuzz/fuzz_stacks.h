// In-process service stacks for the fuzz targets: catalogd's layers over a
// SQLite metastore in a scratch directory, seeded with a few objects that the
// checked-in seeds refer to.
//
// Contract:
//   - Nothing here opens a socket or starts a server. Background threads are
//     limited to what the layers start themselves (the table loader's
//     listing pool, the partition index builder).
//   - Every path the stacks touch is inside one scratch directory, created
//     under /dev/shm when it exists (SQLite's durable commits are then
//     cheap), else under $TMPDIR or /tmp. The FileSystem handed to catalogd
//     is a SandboxFileSystem: fuzzed LOCATIONs outside the scratch directory
//     fail like an unwritable directory, so no input can create or delete
//     anything elsewhere.
//   - State that inputs create (databases, tables, write streams) is bounded
//     by rebuilding the whole stack every kInputsPerEpoch inputs (Recycled).
//     An input that crashes only after earlier inputs changed the state may
//     therefore not reproduce on its own; run it with the inputs of its epoch.
//
// Thread-safety: one fuzzing thread (libFuzzer's); not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalogd/catalog/catalog.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/fetch/partial_fetcher.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/catalog_queries.h"
#include "catalogd/ops/command_core.h"
#include "tests/fuzz/fuzz_rpc.h"

namespace ics::fuzz {

// ---- what every stack starts with (make_seeds writes requests about it) ----
inline constexpr const char* kDb = "fuzzdb";
// (id int, name string, amount double) PARTITIONED BY (year int, region string);
// partitions year=2023/region=eu, year=2024/region=us and a NULL region; one
// text data file each; partition and column statistics.
inline constexpr const char* kPartTable = "sales";
// (id bigint, label string), unpartitioned, one text data file.
inline constexpr const char* kFlatTable = "items";
// SELECT id, label FROM fuzzdb.items
inline constexpr const char* kView = "items_view";
// fuzzdb.fuzz_fn(INT) RETURNS INT, a native scalar function.
inline constexpr const char* kFunction = "fuzz_fn";

// A new directory <base>/ics_fuzz_<prefix>.XXXXXX (see the file comment).
// Aborts when it cannot be made.
std::string MakeScratchDir(const std::string& prefix);
void RemoveTree(const std::string& dir);

// LocalFileSystem restricted to `root`: a path that is not absolute or whose
// lexically normalized form is not `root` or below it fails with IO_ERROR.
class SandboxFileSystem final : public catalog::FileSystem {
 public:
  explicit SandboxFileSystem(std::string root);

  Result<std::vector<catalog::FileStatus>> ListFiles(const std::string& dir) override;
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override;
  [[nodiscard]] Status CreateDirectories(const std::string& path) override;
  [[nodiscard]] Status RemoveAll(const std::string& path) override;
  [[nodiscard]] Status Rename(const std::string& from, const std::string& to) override;
  Result<bool> Exists(const std::string& path) override;

  bool Inside(const std::string& path) const;

 private:
  Status Check(const std::string& path) const;

  const std::string root_;
  catalog::LocalFileSystem local_;
};

// catalogd's layers as CatalogServer::Start builds them, minus everything
// that listens, subscribes or polls: no RPC servers, no statestore
// subscriber, no HMS event processor (its two RPCs answer "disabled"), and no
// topic publisher in the context (SYNC_DDL returns without waiting). Tables
// are loaded synchronously (no background loading threads).
class CatalogdStack {
 public:
  // Builds and seeds the stack in a new scratch directory; aborts on failure
  // (a fuzz target without its state would fuzz nothing).
  explicit CatalogdStack(const std::string& name);
  ~CatalogdStack();
  CatalogdStack(const CatalogdStack&) = delete;
  CatalogdStack& operator=(const CatalogdStack&) = delete;

  const std::string& root() const { return root_; }
  const std::string& warehouse() const { return warehouse_; }
  catalog::Metastore* metastore() { return metastore_.get(); }
  catalog::FileSystem* fs() { return fs_.get(); }
  catalog::Catalog* catalog() { return catalog_.get(); }
  catalog::TableLoadManager* loads() { return loads_.get(); }
  catalog::CatalogContext* ctx() { return &ctx_; }
  catalog::DdlExecutor* ddl() { return ddl_.get(); }
  catalog::ops::CommandCore* core() { return core_.get(); }
  catalog::ops::CatalogQueries* queries() { return queries_.get(); }
  catalog::PartialFetcher* fetcher() { return fetcher_.get(); }

 private:
  void LoadNames();
  void Seed();

  std::string root_;
  std::string warehouse_;
  std::unique_ptr<catalog::Metastore> metastore_;
  std::unique_ptr<SandboxFileSystem> fs_;
  std::unique_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<catalog::TableLoader> loader_;
  std::unique_ptr<catalog::TableLoadManager> loads_;
  catalog::CatalogContext ctx_;
  std::unique_ptr<catalog::DdlExecutor> ddl_;
  std::unique_ptr<catalog::ops::CommandCore> core_;
  std::unique_ptr<catalog::ops::CatalogQueries> queries_;
  std::unique_ptr<catalog::PartialFetcher> fetcher_;
};

// Request builders shared by the stack's seeding and make_seeds.
impala::TDdlExecRequest DdlRequest(impala::TDdlType::type type);
impala::TColumn Column(const std::string& name, const std::string& hive_type);
impala::TTableName TableName(const std::string& db, const std::string& table);
// The DDL statements that create the seeded objects, in order (the data
// files are written by the stack itself).
std::vector<impala::TDdlExecRequest> SeedDdl();
// A text data file of `rows` rows for `table` (Hive's default \x01 fields).
std::string SeedDataFile(const std::string& table, int rows);

}  // namespace ics::fuzz
