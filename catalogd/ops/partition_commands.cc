#include "catalogd/ops/partition_commands.h"

#include <set>

#include "common/hive/names.h"
#include "common/util/ascii.h"
#include "common/util/base64.h"

namespace ics::catalog::ops {

namespace {

struct Names {
  std::string db;
  std::string table;
};

Result<Names> Normalize(const PartitionTable& t) {
  Names n;
  ICS_ASSIGN_OR_RETURN(n.db, NormalizeDatabaseName(t.db));
  ICS_ASSIGN_OR_RETURN(n.table, NormalizeTableName(t.table));
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
  PartitionInput p;
  p.values = values;
  return ValidatePartitionInput(p);
}

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

PartitionCommands::PartitionCommands(CatalogContext* ctx, CommandCore* commands,
                                     PartitionCommandsOptions options)
    : ctx_(ctx),
      commands_(commands),
      lister_(ctx, &indexes_),
      budget_(options.max_staged_bytes_total),
      streams_(WithBudget(std::move(options.streams), &budget_)) {}

PartitionCommands::~PartitionCommands() { Shutdown(); }

void PartitionCommands::Shutdown() { indexes_.Shutdown(); }

Result<PartitionBatchResult> PartitionCommands::Apply(const Caller& caller,
                                                      const PartitionBatch& batch) {
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, commands_->ChangePartitions(caller, batch));
  if (r.changed) indexes_.Changed(r.table);
  return r;
}

Result<PartitionBatchResult> PartitionCommands::CreateBatch(
    const Caller& caller, const std::string& db, const std::string& table,
    const std::vector<PartitionInput>& partitions, bool skip_existing) {
  PartitionBatch b;
  b.db = db;
  b.table = table;
  b.skip_existing = skip_existing;
  b.adds.reserve(partitions.size());
  for (const PartitionInput& p : partitions) {
    b.adds.push_back(PartitionBatch::Add{p.values, CreatePatch(p)});
  }
  return Apply(caller, b);
}

Result<ChangedPartitions> PartitionCommands::Create(const Caller& caller,
                                                    const CreatePartitionsRequest& req) {
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(CheckBatchSize(req.partitions.size(), "partitions"));
  int64_t bytes = 0;
  for (const PartitionInput& p : req.partitions) {
    ICS_RETURN_IF_ERROR(ValidatePartitionInput(p));
    bytes += ApproxBytes(p);
  }
  ICS_ASSIGN_OR_RETURN(StagingReservation held, budget_.Reserve(bytes, "a partition batch"));
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r,
                       CreateBatch(caller, n.db, n.table, req.partitions, req.skip_existing));
  return ChangedPartitions{std::move(r.added), r.version};
}

Result<ChangedPartitions> PartitionCommands::Update(const Caller& caller,
                                                    const UpdatePartitionsRequest& req) {
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(CheckBatchSize(req.updates.size(), "updates"));
  int64_t bytes = 0;
  for (const PartitionUpdateInput& u : req.updates) bytes += ApproxBytes(u.partition);
  ICS_ASSIGN_OR_RETURN(StagingReservation held, budget_.Reserve(bytes, "a partition batch"));
  PartitionBatch b;
  b.db = n.db;
  b.table = n.table;
  for (const PartitionUpdateInput& u : req.updates) {
    ICS_RETURN_IF_ERROR(ValidatePartitionInput(u.partition));
    ICS_ASSIGN_OR_RETURN(PartitionPatch patch, UpdatePatch(u));
    b.alters.push_back(PartitionBatch::Alter{u.partition.values, std::move(patch)});
  }
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, Apply(caller, b));
  return ChangedPartitions{std::move(r.altered), r.version};
}

Result<int64_t> PartitionCommands::Delete(const Caller& caller,
                                          const DeletePartitionsRequest& req) {
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
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, Apply(caller, b));
  return r.version;
}

Result<PartitionPage> PartitionCommands::List(const Caller& caller,
                                              const ListPartitionsRequest& req) {
  ListQuery q;
  q.db = req.table.db;
  q.table = req.table.table;
  q.filter = req.filter;
  q.page_size = req.page_size.value_or(0);
  if (req.page_size && *req.page_size == 0) {
    return Status::InvalidArgument("page_size must be in 1.." + std::to_string(kMaxPageSize));
  }
  q.page_token = req.page_token;
  ICS_ASSIGN_OR_RETURN(ListPage page, lister_.List(q));
  PartitionPage out;
  out.partitions.reserve(page.partitions.size());
  for (const PartitionPtr& p : page.partitions) out.partitions.push_back(p->Hms());
  out.next_page_token = std::move(page.next_page_token);
  out.index_used = std::move(page.index_used);
  out.catalog_version = page.table->version;
  return out;
}

// ---- write streams ----

Result<OpenedWriteStream> PartitionCommands::OpenWriteStream(const Caller& caller,
                                                             const OpenWriteStreamRequest& req) {
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(lister_.PartitionedTable(n.db, n.table).status());
  OpenedWriteStream out;
  ICS_ASSIGN_OR_RETURN(out.stream_id, streams_.Open(n.db, n.table, req.skip_existing));
  out.idle_timeout_ms = streams_.idle_timeout_ms();
  return out;
}

Result<int64_t> PartitionCommands::AppendWriteStream(const Caller& caller,
                                                     const AppendWriteStreamRequest& req) {
  for (const PartitionInput& p : req.partitions) ICS_RETURN_IF_ERROR(ValidatePartitionInput(p));
  return streams_.Append(req.stream_id, req.partitions, req.skip_existing);
}

Result<CommittedWriteStream> PartitionCommands::CommitWriteStream(const Caller& caller,
                                                                  const std::string& stream_id) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<WriteStream> s, streams_.Take(stream_id));
  CommittedWriteStream out;
  out.partitions_streamed = static_cast<int64_t>(s->staged.size());
  if (s->staged.empty()) {
    out.catalog_version = ctx_->catalog->version();
    return out;
  }
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r,
                       CreateBatch(caller, s->db, s->table, s->staged, s->skip_existing));
  out.partitions_inserted = static_cast<int64_t>(r.added.size());
  out.catalog_version = r.version;
  return out;
}

Status PartitionCommands::AbortWriteStream(const Caller& caller, const std::string& stream_id) {
  return streams_.Abort(stream_id);
}

// ---- indexes ----

Result<int64_t> PartitionCommands::CreateIndex(const Caller& caller,
                                               const CreatePartitionIndexRequest& req) {
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
  ICS_ASSIGN_OR_RETURN(PartitionBatchResult r, Apply(caller, b));
  indexes_.SyncTable(r.table);
  return r.version;
}

Result<PartitionIndexList> PartitionCommands::GetIndexes(const Caller& caller,
                                                         const GetPartitionIndexesRequest& req) {
  std::string after;
  if (!req.page_token.empty()) {
    Result<std::string> decoded = Base64Decode(req.page_token);
    if (!decoded.ok() || decoded->rfind("i:", 0) != 0) {
      return Status::InvalidArgument("malformed page_token");
    }
    after = decoded->substr(2);
  }
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_ASSIGN_OR_RETURN(TablePtr t, lister_.PartitionedTable(n.db, n.table));
  indexes_.SyncTable(t);
  PartitionIndexList out;
  for (const IndexInfo& info : indexes_.List(n.db, n.table)) {
    if (!after.empty() && info.name <= after) continue;
    PartitionIndexDescription d;
    d.index_name = info.name;
    for (size_t i = 0; i < info.keys.size(); ++i) {
      d.keys.push_back(PartitionIndexKey{info.keys[i].name, info.key_types[i]});
    }
    d.state = info.state;
    if (!info.backfill_errors.empty()) {
      d.backfill_errors = info.backfill_errors;
    } else if (info.state == IndexState::kFailed && !info.failure.empty()) {
      BackfillError e;
      e.code = "INTERNAL_ERROR: " + info.failure;
      d.backfill_errors.push_back(std::move(e));
    }
    out.indexes.push_back(std::move(d));
  }
  return out;
}

Result<int64_t> PartitionCommands::DeleteIndex(const Caller& caller,
                                               const DeletePartitionIndexRequest& req) {
  ICS_ASSIGN_OR_RETURN(Names n, Normalize(req.table));
  ICS_RETURN_IF_ERROR(ValidateIndexName(req.index_name));
  ICS_ASSIGN_OR_RETURN(TablePtr t, lister_.PartitionedTable(n.db, n.table));
  indexes_.SyncTable(t);
  std::optional<IndexInfo> info = indexes_.Get(n.db, n.table, req.index_name);
  if (!info) {
    return Status::NotFound("no partition index " + req.index_name + " on " + n.db + "." + n.table);
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
  Result<PartitionBatchResult> r = Apply(caller, b);
  if (!r.ok()) {
    indexes_.UnmarkDeleting(n.db, n.table, req.index_name);
    return r.status();
  }
  indexes_.SyncTable(r->table);
  return r->version;
}

}  // namespace ics::catalog::ops
