#include "catalogd/metastore/sql_partition_rows.h"

#include <functional>
#include <string_view>
#include <utility>

#include "catalogd/metastore/metastore_blob.h"

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

class Reader final : public PartitionReader {
 public:
  Reader(PackedRows rows, std::string db, std::string table)
      : rows_(std::move(rows)), db_(std::move(db)), table_(std::move(table)) {}
  size_t size() const override { return rows_.size(); }
  std::optional<Stored> Peek(size_t i) const override {
    if (i >= rows_.size()) return std::nullopt;
    Stored s;
    s.name = rows_.Key(i);
    s.digest = std::hash<std::string_view>{}(rows_.Blob(i));
    if (s.digest == 0) s.digest = 1;  // 0 means "no digest" to the catalog
    return s;
  }
  void Skip(size_t i) override {
    if (i < rows_.size()) rows_.Release(i);
  }
  Result<hive::Partition> Take(size_t i) override {
    if (i >= rows_.size()) return Status::InvalidArgument("partition row out of range");
    hive::Partition p;
    const Status s = DecodeBlobInto(rows_.Blob(i), &p, [&] {
      return "partition of " + db_ + "." + table_ + ": " + std::string(rows_.Key(i));
    });
    rows_.Release(i);
    ICS_RETURN_IF_ERROR(s);
    p.dbName = db_;
    p.tableName = table_;
    return p;
  }

 private:
  PackedRows rows_;
  const std::string db_;
  const std::string table_;
};

}  // namespace

std::unique_ptr<PartitionReader> PackedPartitionReader(PackedRows rows, std::string db,
                                                       std::string table) {
  return std::make_unique<Reader>(std::move(rows), std::move(db), std::move(table));
}

}  // namespace ics::catalog
