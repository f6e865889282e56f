// Defaults of the optional Metastore capabilities (metastore.h): a backend
// that does not keep table versions answers NOT_IMPLEMENTED.
#include "catalogd/metastore/metastore.h"

namespace ics::catalog {
namespace {

Status NoVersions(const std::string& db, const std::string& table) {
  return Status::NotImplemented("this metastore backend does not keep table versions (table " +
                                db + "." + table + ")");
}

}  // namespace

Result<TableVersionRecord> Metastore::GetCurrentTableVersion(const std::string& db,
                                                             const std::string& table) {
  return NoVersions(db, table);
}

Result<TableVersionRecord> Metastore::GetArchivedTableVersion(const std::string& db,
                                                              const std::string& table,
                                                              int64_t /*version_id*/) {
  return NoVersions(db, table);
}

Result<std::vector<TableVersionRecord>> Metastore::ListArchivedTableVersions(
    const std::string& db, const std::string& table, int64_t /*below_version_id*/,
    int /*limit*/) {
  return NoVersions(db, table);
}

Result<TableVersionRecord> Metastore::GetTableVersionAsOf(const std::string& db,
                                                          const std::string& table,
                                                          int64_t /*at_ms*/) {
  return NoVersions(db, table);
}

}  // namespace ics::catalog
