#include "catalogd/mds/partition_service.h"

#include <set>

#include "catalogd/mds/partition_convert.h"
#include "common/hive/names.h"
#include "common/util/base64.h"

namespace ics::catalog::mds {

namespace {

using thrift::TPartitionServiceVersion;

Status CheckVersion(TPartitionServiceVersion::type v) {
  if (v != TPartitionServiceVersion::V1) {
    return Status::InvalidArgument("unsupported PartitionService protocol_version " +
                                   std::to_string(static_cast<int>(v)) + " (this server speaks V1)");
  }
  return Status::OK();
}

struct Names {
  std::string db;
  std::string table;
};

Result<Names> Normalize(const thrift::TPartitionTableName& t) {
  Names n;
  ICS_ASSIGN_OR_RETURN(n.db, NormalizeDatabaseName(t.db_name));
  ICS_ASSIGN_OR_RETURN(n.table, NormalizeTableName(t.table_name));
  return n;
}

Status CheckBatchSize(size_t n, const char* what) {
  if (n == 0) return Status::InvalidArgument(std::string("the request has no ") + what);
  if (n > kMaxPartitionsPerBatch) {
    return Status::LimitExceeded("a batch may hold at most " +
                                 std::to_string(kMaxPartitionsPerBatch) + " " + what + "; got " +
                                 std::to_string(n));
  }
  return Status::OK();
}

Status CheckValues(const std::vector<std::string>& values) {
  thrift::TMetastorePartition p;
  p.values = values;
  return ValidatePartitionInput(p);
}

std::vector<thrift::TMetastorePartition> ToThrift(const std::vector<hive::Partition>& parts) {
  std::vector<thrift::TMetastorePartition> out;
  out.reserve(parts.size());
  for (const hive::Partition& p : parts) out.push_back(ToThriftPartition(p));
  return out;
}

}  // namespace

namespace {

WriteStreamOptions WithBudget(WriteStreamOptions o, StagingBudget* budget) {
  o.budget = budget;
  return o;
}

int64_t ValuesBytes(const std::vector<std::vector<std::string>>& all) {
  int64_t n = 0;
  for (const auto& values : all) {
    n += 64;
    for (const std::string& v : values) n += static_cast<int64_t>(v.size()) + 16;
  }
  return n;
}

}  // namespace

PartitionService::PartitionService(CatalogContext* ctx, ops::CommandCore* commands,
                                   PartitionServiceOptions options)
    : ctx_(ctx),
      commands_(commands),
      lister_(ctx, &indexes_),
      budget_(options.max_staged_bytes_total),
      streams_(WithBudget(std::move(options.streams), &budget_)) {}

PartitionService::~PartitionService() { Shutdown(); }

void PartitionService::Shutdown() { indexes_.Shutdown(); }

Result<PartitionBatchResult> PartitionService::Apply(const PartitionBatch& batch) {
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r,
                       commands_->ChangePartitions(ops::CallerOfCurrentRpc("PartitionService"), batch));
  if (r.changed) indexes_.Changed(r.table);
  return r;
}

Result<PartitionBatchResult> PartitionService::Create(
    const std::string& db, const std::string& table,
    const std::vector<thrift::TMetastorePartition>& partitions, bool skip_existing) {
  PartitionBatch b;
  b.db = db;
  b.table = table;
  b.skip_existing = skip_existing;
  b.adds.reserve(partitions.size());
  for (const thrift::TMetastorePartition& p : partitions) {
    b.adds.push_back(PartitionBatch::Add{p.values, CreatePatch(p)});
  }
  return Apply(b);
}

Result<thrift::TBatchCreatePartitionsResponse> PartitionService::BatchCreate(
    const thrift::TBatchCreatePartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(CheckBatchSize(req.partitions.size(), "partitions"));
  int64_t bytes = 0;
  for (const auto& p : req.partitions) {
    ICS_RETURN_IF_ERROR(ValidatePartitionInput(p));
    bytes += ApproxBytes(p);
  }
  ICS_ASSIGN_OR_RETURN(StagingReservation held, budget_.Reserve(bytes, "a partition batch"));
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r,
                       Create(n.db, n.table, req.partitions, req.skip_existing_partitions));
  thrift::TBatchCreatePartitionsResponse resp;
  resp.__set_partitions(ToThrift(r.added));
  resp.__set_catalog_version(r.version);
  return resp;
}

Result<thrift::TBatchUpdatePartitionsResponse> PartitionService::BatchUpdate(
    const thrift::TBatchUpdatePartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(CheckBatchSize(req.updates.size(), "updates"));
  int64_t bytes = 0;
  for (const thrift::TPartitionUpdate& u : req.updates) bytes += ApproxBytes(u.partition);
  ICS_ASSIGN_OR_RETURN(StagingReservation held, budget_.Reserve(bytes, "a partition batch"));
  PartitionBatch b;
  b.db = n.db;
  b.table = n.table;
  for (const thrift::TPartitionUpdate& u : req.updates) {
    ICS_RETURN_IF_ERROR(ValidatePartitionInput(u.partition));
    ICS_ASSIGN_OR_RETURN(PartitionPatch patch, UpdatePatch(u));
    b.alters.push_back(PartitionBatch::Alter{u.partition.values, std::move(patch)});
  }
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, Apply(b));
  thrift::TBatchUpdatePartitionsResponse resp;
  resp.__set_partitions(ToThrift(r.altered));
  resp.__set_catalog_version(r.version);
  return resp;
}

Result<thrift::TBatchDeletePartitionsResponse> PartitionService::BatchDelete(
    const thrift::TBatchDeletePartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(CheckBatchSize(req.partition_values.size(), "partitions"));
  ICS_ASSIGN_OR_RETURN(StagingReservation held,
                       budget_.Reserve(ValuesBytes(req.partition_values), "a partition batch"));
  PartitionBatch b;
  b.db = n.db;
  b.table = n.table;
  for (const auto& values : req.partition_values) {
    ICS_RETURN_IF_ERROR(CheckValues(values));
    b.drops.push_back(values);
  }
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, Apply(b));
  thrift::TBatchDeletePartitionsResponse resp;
  resp.__set_catalog_version(r.version);
  return resp;
}

Result<thrift::TListPartitionsResponse> PartitionService::List(
    const thrift::TListPartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ListQuery q;
  q.db = req.table.db_name;
  q.table = req.table.table_name;
  q.filter = req.filter;
  q.page_size = req.__isset.page_size ? req.page_size : 0;
  if (req.__isset.page_size && req.page_size == 0) {
    return Status::InvalidArgument("page_size must be in 1.." + std::to_string(kMaxPageSize));
  }
  q.page_token = req.page_token;
  ICS_ASSIGN_OR_RETURN(ListPage page, lister_.List(q));
  thrift::TListPartitionsResponse resp;
  std::vector<thrift::TMetastorePartition> parts;
  parts.reserve(page.partitions.size());
  for (const PartitionPtr& p : page.partitions) parts.push_back(ToThriftPartition(p->Hms()));
  resp.__set_partitions(std::move(parts));
  if (!page.next_page_token.empty()) resp.__set_next_page_token(page.next_page_token);
  if (!page.index_used.empty()) resp.__set_index_used(page.index_used);
  resp.__set_catalog_version(page.table->version);
  return resp;
}

// ---- write streams ----

Result<thrift::TOpenWriteStreamResponse> PartitionService::OpenWriteStream(
    const thrift::TOpenWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(lister_.PartitionedTable(n.db, n.table).status());
  ICS_ASSIGN_OR_RETURN(std::string id, streams_.Open(n.db, n.table, req.skip_existing_partitions));
  thrift::TOpenWriteStreamResponse resp;
  resp.__set_stream_id(id);
  resp.__set_idle_timeout_ms(streams_.idle_timeout_ms());
  return resp;
}

Result<thrift::TAppendWriteStreamResponse> PartitionService::AppendWriteStream(
    const thrift::TAppendWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  for (const auto& p : req.partitions) ICS_RETURN_IF_ERROR(ValidatePartitionInput(p));
  ICS_ASSIGN_OR_RETURN(int64_t staged, streams_.Append(req.stream_id, req.partitions,
                                                       req.skip_existing_partitions));
  thrift::TAppendWriteStreamResponse resp;
  resp.__set_total_partitions_streamed_count(staged);
  return resp;
}

Result<thrift::TCommitWriteStreamResponse> PartitionService::CommitWriteStream(
    const thrift::TCommitWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<WriteStream> s, streams_.Take(req.stream_id));
  thrift::TCommitWriteStreamResponse resp;
  resp.__set_total_partitions_streamed_count(static_cast<int64_t>(s->staged.size()));
  if (s->staged.empty()) {
    resp.__set_total_partitions_inserted_count(0);
    resp.__set_catalog_version(ctx_->catalog->version());
    return resp;
  }
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r,
                       Create(s->db, s->table, s->staged, s->skip_existing));
  resp.__set_total_partitions_inserted_count(static_cast<int64_t>(r.added.size()));
  resp.__set_catalog_version(r.version);
  return resp;
}

Result<thrift::TAbortWriteStreamResponse> PartitionService::AbortWriteStream(
    const thrift::TAbortWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_RETURN_IF_ERROR(streams_.Abort(req.stream_id));
  return thrift::TAbortWriteStreamResponse();
}

// ---- indexes ----

Result<thrift::TCreatePartitionIndexResponse> PartitionService::CreateIndex(
    const thrift::TCreatePartitionIndexRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(ValidateIndexName(req.index_name));
  if (req.keys.empty()) return Status::InvalidArgument("an index needs at least one key");
  ICS_ASSIGN_OR_RETURN(TablePtr t, lister_.PartitionedTable(n.db, n.table));
  IndexDefinition def;
  def.name = req.index_name;
  std::set<std::string> seen;
  for (const std::string& k : req.keys) {
    const std::string key = AsciiLower(k);
    bool found = false;
    for (const impala::TColumn& c : t->clustering_columns) found = found || c.columnName == key;
    if (!found) {
      return Status::InvalidArgument("'" + k + "' is not a partition key of " + n.db + "." +
                                     n.table);
    }
    if (!seen.insert(key).second) {
      return Status::InvalidArgument("key '" + key + "' is listed twice in the index");
    }
    def.keys.push_back(key);
  }
  PartitionBatch b;
  b.db = n.db;
  b.table = n.table;
  b.table_params_patch = [&](std::map<std::string, std::string>* params) -> Status {
    hive::Table probe;
    probe.parameters = *params;
    const auto defs = IndexDefinitions(probe);
    if (defs.count(def.name) != 0) {
      return Status::AlreadyExists("partition index " + def.name + " already exists on " + n.db +
                                   "." + n.table);
    }
    if (defs.size() >= kMaxIndexesPerTable) {
      return Status::LimitExceeded("a table may have at most " +
                                   std::to_string(kMaxIndexesPerTable) + " partition indexes");
    }
    (*params)[kIndexParamPrefix + def.name] = IndexParamValue(def);
    return Status::OK();
  };
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, Apply(b));
  indexes_.SyncTable(r.table);
  thrift::TCreatePartitionIndexResponse resp;
  resp.__set_catalog_version(r.version);
  return resp;
}

Result<thrift::TGetPartitionIndexesResponse> PartitionService::GetIndexes(
    const thrift::TGetPartitionIndexesRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  std::string after;
  if (req.__isset.page_token && !req.page_token.empty()) {
    Result<std::string> decoded = Base64Decode(req.page_token);
    if (!decoded.ok() || decoded->rfind("i:", 0) != 0) {
      return Status::InvalidArgument("malformed page_token");
    }
    after = decoded->substr(2);
  }
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_ASSIGN_OR_RETURN(TablePtr t, lister_.PartitionedTable(n.db, n.table));
  indexes_.SyncTable(t);
  thrift::TGetPartitionIndexesResponse resp;
  std::vector<thrift::TPartitionIndexDescriptor> out;
  for (const IndexInfo& info : indexes_.List(n.db, n.table)) {
    if (!after.empty() && info.name <= after) continue;
    thrift::TPartitionIndexDescriptor d;
    d.index_name = info.name;
    for (size_t i = 0; i < info.keys.size(); ++i) {
      thrift::TPartitionIndexKey k;
      k.name = info.keys[i].name;
      k.type = info.key_types[i];
      d.keys.push_back(std::move(k));
    }
    switch (info.state) {
      case IndexState::kCreating: d.state = thrift::TPartitionIndexState::CREATING; break;
      case IndexState::kActive: d.state = thrift::TPartitionIndexState::ACTIVE; break;
      case IndexState::kFailed: d.state = thrift::TPartitionIndexState::FAILED; break;
      case IndexState::kDeleting: d.state = thrift::TPartitionIndexState::DELETING; break;
    }
    if (!info.backfill_errors.empty()) {
      std::vector<thrift::TPartitionIndexBackfillError> errors;
      for (const BackfillError& e : info.backfill_errors) {
        thrift::TPartitionIndexBackfillError te;
        te.code = e.code;
        te.__set_partitions(e.partitions);
        errors.push_back(std::move(te));
      }
      d.__set_backfill_errors(std::move(errors));
    } else if (info.state == IndexState::kFailed && !info.failure.empty()) {
      thrift::TPartitionIndexBackfillError te;
      te.code = "INTERNAL_ERROR: " + info.failure;
      d.__set_backfill_errors({te});
    }
    out.push_back(std::move(d));
  }
  resp.__set_indexes(std::move(out));
  return resp;
}

Result<thrift::TDeletePartitionIndexResponse> PartitionService::DeleteIndex(
    const thrift::TDeletePartitionIndexRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(ValidateIndexName(req.index_name));
  ICS_ASSIGN_OR_RETURN(TablePtr t, lister_.PartitionedTable(n.db, n.table));
  indexes_.SyncTable(t);
  std::optional<IndexInfo> info = indexes_.Get(n.db, n.table, req.index_name);
  if (!info) {
    return Status::NotFound("no partition index " + req.index_name + " on " + n.db + "." +
                            n.table);
  }
  if (info->state == IndexState::kCreating) {
    return Status(ErrorCode::kRecoverableError,
                  "partition index " + req.index_name +
                      " is still being created; delete it once it is ACTIVE or FAILED");
  }
  if (info->state == IndexState::kDeleting) {
    return Status(ErrorCode::kRecoverableError,
                  "partition index " + req.index_name + " is already being deleted");
  }
  indexes_.MarkDeleting(n.db, n.table, req.index_name);
  PartitionBatch b;
  b.db = n.db;
  b.table = n.table;
  const std::string param = kIndexParamPrefix + req.index_name;
  b.table_params_patch = [&](std::map<std::string, std::string>* params) -> Status {
    if (params->erase(param) == 0) {
      return Status::NotFound("no partition index " + req.index_name + " on " + n.db + "." +
                              n.table);
    }
    return Status::OK();
  };
  Result<PartitionBatchResult> r = Apply(b);
  if (!r.ok()) {
    indexes_.UnmarkDeleting(n.db, n.table, req.index_name);
    return r.status();
  }
  indexes_.SyncTable(r->table);
  thrift::TDeletePartitionIndexResponse resp;
  resp.__set_catalog_version(r->version);
  return resp;
}

}  // namespace ics::catalog::mds
