#include "catalogd/mds/metastore_service_server.h"

#include <glog/logging.h>
#include <thrift/TProcessor.h>
#include <thrift/processor/TMultiplexedProcessor.h>

#include <algorithm>

#include "catalogd/mds/partition_service_handler.h"
#include "catalogd/mds/table_service_handler.h"
#include "catalogd/ops/partition_commands.h"
#include "catalogd/ops/table_commands.h"
#include "common/rpc/thrift_server.h"

namespace ics::catalog {

MetastoreServiceServer::MetastoreServiceServer(MetastoreServiceOptions options)
    : options_(std::move(options)) {}

MetastoreServiceServer::~MetastoreServiceServer() { Stop(); }

Status MetastoreServiceServer::AddService(const std::string& service_name,
                                          std::shared_ptr<apache::thrift::TProcessor> processor,
                                          std::function<void()> on_stop) {
  if (started_ || stopped_) {
    return Status::InvalidArgument("service " + service_name + " registered after Start()");
  }
  if (service_name.empty() || processor == nullptr) {
    return Status::InvalidArgument("a service needs a name and a processor");
  }
  for (const Service& s : services_) {
    if (s.name == service_name) {
      return Status::InvalidArgument("service " + service_name + " is registered twice");
    }
  }
  services_.push_back(Service{service_name, std::move(processor), std::move(on_stop)});
  return Status::OK();
}

Status MetastoreServiceServer::AddBuiltinServices(const MetastoreServiceDeps& deps) {
  if (deps.ctx == nullptr || deps.commands == nullptr || deps.queries == nullptr) {
    return Status::InvalidArgument(
        "metastore services need a catalog context and the command core's two sides");
  }
  ops::PartitionCommandsOptions popts;
  popts.streams.idle_timeout_ms = options_.write_stream_idle_timeout_ms;
  popts.streams.max_staged_bytes = options_.write_stream_max_staged_bytes;
  popts.streams.max_streams =
      static_cast<size_t>(std::max<int64_t>(0, options_.write_streams_max_open));
  popts.max_staged_bytes_total = options_.write_streams_max_staged_bytes;
  auto partitions = std::make_shared<ops::PartitionCommands>(deps.ctx, deps.commands, popts);
  // One registration per service.
  ICS_RETURN_IF_ERROR(AddService("PartitionService",
                                 mds::MakePartitionServiceProcessor(partitions),
                                 [partitions] { partitions->Shutdown(); }));
  ICS_RETURN_IF_ERROR(AddService(
      "TableService", mds::MakeTableServiceProcessor(std::make_shared<ops::TableCommands>(
                          deps.ctx, deps.commands, deps.queries))));
  return Status::OK();
}

Status MetastoreServiceServer::Start() {
  if (started_ || stopped_) return Status::Internal("metastore service server already started");
  auto mux = std::make_shared<apache::thrift::TMultiplexedProcessor>();
  for (const Service& s : services_) mux->registerProcessor(s.name, s.processor);
  rpc_ = std::make_unique<ThriftServer>(
      std::move(mux), ThriftServerOptions{options_, "metastore-service", options_.metrics});
  started_ = true;
  ICS_RETURN_IF_ERROR(rpc_->Start());
  std::string names;
  for (const Service& s : services_) names += (names.empty() ? "" : ", ") + s.name;
  LOG(INFO) << "metastore services (" << names << ") on " << options_.bind_host << ":" << port();
  return Status::OK();
}

void MetastoreServiceServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (rpc_) rpc_->Stop();
  for (auto it = services_.rbegin(); it != services_.rend(); ++it) {
    if (it->on_stop) it->on_stop();
  }
  rpc_.reset();
  services_.clear();
}

int MetastoreServiceServer::port() const { return rpc_ ? rpc_->port() : 0; }

std::vector<std::string> MetastoreServiceServer::service_names() const {
  std::vector<std::string> out;
  for (const Service& s : services_) out.push_back(s.name);
  return out;
}

}  // namespace ics::catalog
