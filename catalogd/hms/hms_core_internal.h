// Helpers shared by the HmsCore implementation files. Private to catalogd/hms.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalogd/loader/file_system.h"
#include "catalogd/metastore/data_ownership.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/caller.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"
#include "common/hive/table_type.h"
#include "common/util/path_join.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

// The caller of the HMS call being served, for the command core.
inline ops::Caller HmsCaller() { return ops::CallerOfCurrentRpc("HMS"); }

int32_t NowSeconds();

// Commits `txn`; the metastore's message is kept (it names the object).
[[nodiscard]] Status CommitTxn(Metastore* ms, const MetastoreTxn& txn);

// LIMIT_EXCEEDED unless n <= max.
[[nodiscard]] Status CheckCount(size_t n, int max, const std::string& what);

// The table or NOT_FOUND "Table db.t does not exist" (names normalized first).
Result<hive::Table> LoadTable(Metastore* ms, const std::string& db, const std::string& table);

// Removes `path` if it lies strictly inside `warehouse`; logs failures.
void RemoveDataUnderWarehouse(FileSystem* fs, const std::string& warehouse,
                              const std::string& path);

// Removes the deletable directories of a data-removal plan
// (metastore/data_ownership.h) that lie inside `warehouse`; logs the kept
// ones. A failed plan deletes nothing (logged).
void RemovePlannedData(FileSystem* fs, const std::string& warehouse,
                       const Result<DataRemovalPlan>& plan, const std::string& what);

}  // namespace ics::catalog::hms
