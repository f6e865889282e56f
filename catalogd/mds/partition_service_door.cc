#include "catalogd/mds/partition_service_door.h"

#include "catalogd/mds/partition_convert.h"
#include "catalogd/ops/caller.h"

namespace ics::catalog::mds {

namespace {

using thrift::TPartitionServiceVersion;

Status CheckVersion(TPartitionServiceVersion::type v) {
  if (v != TPartitionServiceVersion::V1) {
    return Status::InvalidArgument("unsupported PartitionService protocol_version " +
                                   std::to_string(static_cast<int>(v)) +
                                   " (this server speaks V1)");
  }
  return Status::OK();
}

ops::Caller Caller() { return ops::CallerOfCurrentRpc("PartitionService"); }

}  // namespace

Result<thrift::TBatchCreatePartitionsResponse> PartitionServiceDoor::BatchCreate(
    const thrift::TBatchCreatePartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::CreatePartitionsRequest c;
  c.table = FromThrift(req.table);
  c.partitions = FromThrift(req.partitions);
  c.skip_existing = req.skip_existing_partitions;
  ICS_ASSIGN_OR_RETURN(ops::ChangedPartitions r, commands_->Create(Caller(), c));
  thrift::TBatchCreatePartitionsResponse resp;
  resp.__set_partitions(ToThriftPartitions(r.partitions));
  resp.__set_catalog_version(r.catalog_version);
  return resp;
}

Result<thrift::TBatchUpdatePartitionsResponse> PartitionServiceDoor::BatchUpdate(
    const thrift::TBatchUpdatePartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::UpdatePartitionsRequest u;
  u.table = FromThrift(req.table);
  u.updates.reserve(req.updates.size());
  for (const thrift::TPartitionUpdate& one : req.updates) u.updates.push_back(FromThrift(one));
  ICS_ASSIGN_OR_RETURN(ops::ChangedPartitions r, commands_->Update(Caller(), u));
  thrift::TBatchUpdatePartitionsResponse resp;
  resp.__set_partitions(ToThriftPartitions(r.partitions));
  resp.__set_catalog_version(r.catalog_version);
  return resp;
}

Result<thrift::TBatchDeletePartitionsResponse> PartitionServiceDoor::BatchDelete(
    const thrift::TBatchDeletePartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::DeletePartitionsRequest d;
  d.table = FromThrift(req.table);
  d.partition_values = req.partition_values;
  ICS_ASSIGN_OR_RETURN(int64_t version, commands_->Delete(Caller(), d));
  thrift::TBatchDeletePartitionsResponse resp;
  resp.__set_catalog_version(version);
  return resp;
}

Result<thrift::TListPartitionsResponse> PartitionServiceDoor::List(
    const thrift::TListPartitionsRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::ListPartitionsRequest l;
  l.table = FromThrift(req.table);
  l.filter = req.filter;
  if (req.__isset.page_size) l.page_size = req.page_size;
  l.page_token = req.page_token;
  ICS_ASSIGN_OR_RETURN(ops::PartitionPage page, commands_->List(Caller(), l));
  thrift::TListPartitionsResponse resp;
  resp.__set_partitions(ToThriftPartitions(page.partitions));
  if (!page.next_page_token.empty()) resp.__set_next_page_token(page.next_page_token);
  if (!page.index_used.empty()) resp.__set_index_used(page.index_used);
  resp.__set_catalog_version(page.catalog_version);
  return resp;
}

// ---- write streams ----

Result<thrift::TOpenWriteStreamResponse> PartitionServiceDoor::OpenWriteStream(
    const thrift::TOpenWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::OpenWriteStreamRequest o;
  o.table = FromThrift(req.table);
  o.skip_existing = req.skip_existing_partitions;
  ICS_ASSIGN_OR_RETURN(ops::OpenedWriteStream s, commands_->OpenWriteStream(Caller(), o));
  thrift::TOpenWriteStreamResponse resp;
  resp.__set_stream_id(s.stream_id);
  resp.__set_idle_timeout_ms(s.idle_timeout_ms);
  return resp;
}

Result<thrift::TAppendWriteStreamResponse> PartitionServiceDoor::AppendWriteStream(
    const thrift::TAppendWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::AppendWriteStreamRequest a;
  a.stream_id = req.stream_id;
  a.partitions = FromThrift(req.partitions);
  a.skip_existing = req.skip_existing_partitions;
  ICS_ASSIGN_OR_RETURN(int64_t staged, commands_->AppendWriteStream(Caller(), a));
  thrift::TAppendWriteStreamResponse resp;
  resp.__set_total_partitions_streamed_count(staged);
  return resp;
}

Result<thrift::TCommitWriteStreamResponse> PartitionServiceDoor::CommitWriteStream(
    const thrift::TCommitWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_ASSIGN_OR_RETURN(ops::CommittedWriteStream c,
                       commands_->CommitWriteStream(Caller(), req.stream_id));
  thrift::TCommitWriteStreamResponse resp;
  resp.__set_total_partitions_streamed_count(c.partitions_streamed);
  resp.__set_total_partitions_inserted_count(c.partitions_inserted);
  resp.__set_catalog_version(c.catalog_version);
  return resp;
}

Result<thrift::TAbortWriteStreamResponse> PartitionServiceDoor::AbortWriteStream(
    const thrift::TAbortWriteStreamRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ICS_RETURN_IF_ERROR(commands_->AbortWriteStream(Caller(), req.stream_id));
  return thrift::TAbortWriteStreamResponse();
}

// ---- indexes ----

Result<thrift::TCreatePartitionIndexResponse> PartitionServiceDoor::CreateIndex(
    const thrift::TCreatePartitionIndexRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::CreatePartitionIndexRequest c;
  c.table = FromThrift(req.table);
  c.index_name = req.index_name;
  c.keys = req.keys;
  ICS_ASSIGN_OR_RETURN(int64_t version, commands_->CreateIndex(Caller(), c));
  thrift::TCreatePartitionIndexResponse resp;
  resp.__set_catalog_version(version);
  return resp;
}

Result<thrift::TGetPartitionIndexesResponse> PartitionServiceDoor::GetIndexes(
    const thrift::TGetPartitionIndexesRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::GetPartitionIndexesRequest g;
  g.table = FromThrift(req.table);
  if (req.__isset.page_token) g.page_token = req.page_token;
  ICS_ASSIGN_OR_RETURN(ops::PartitionIndexList list, commands_->GetIndexes(Caller(), g));
  thrift::TGetPartitionIndexesResponse resp;
  std::vector<thrift::TPartitionIndexDescriptor> out;
  out.reserve(list.indexes.size());
  for (const ops::PartitionIndexDescription& d : list.indexes) out.push_back(ToThrift(d));
  resp.__set_indexes(std::move(out));
  if (!list.next_page_token.empty()) resp.__set_next_page_token(list.next_page_token);
  return resp;
}

Result<thrift::TDeletePartitionIndexResponse> PartitionServiceDoor::DeleteIndex(
    const thrift::TDeletePartitionIndexRequest& req) {
  ICS_RETURN_IF_ERROR(CheckVersion(req.protocol_version));
  ops::DeletePartitionIndexRequest d;
  d.table = FromThrift(req.table);
  d.index_name = req.index_name;
  ICS_ASSIGN_OR_RETURN(int64_t version, commands_->DeleteIndex(Caller(), d));
  thrift::TDeletePartitionIndexResponse resp;
  resp.__set_catalog_version(version);
  return resp;
}

}  // namespace ics::catalog::mds
